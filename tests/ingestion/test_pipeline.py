"""A job processed here, in-process, against the real PostgreSQL and graph."""

from pathlib import Path

import pytest
from django.contrib.postgres.search import SearchQuery
from pgvector.django import CosineDistance

from core.providers import graph
from core.providers.embeddings import embed_texts
from ingestion import section_types
from ingestion.documents import delete_document
from ingestion.models import (
    Chunk,
    Collection,
    Document,
    Entity,
    EntityRelation,
    Image,
    ItemStatus,
    JobItem,
    Section,
    SectionType,
)
from ingestion.pipeline import process_items

from . import samples
from .helpers import count, ingest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cleanup_documents")]

CORPUS = {
    "resumes/alexis_torres.md": samples.ALEXIS_MD.encode(),
    "resumes/sarah_chen.txt": samples.SARAH_TXT.encode(),
    "resumes/james_smith.html": samples.JAMES_HTML.encode(),
    "resumes/priya_raman.docx": samples.docx_resume(),
    "manual/field_service.pdf": samples.pdf_manual(),
    "policies/overtime.md": samples.POLICY_MD.encode(),
}


@pytest.fixture
def collection() -> Collection:
    return Collection.objects.create(name="pipeline-test")


def test_every_format_becomes_chunks_sections_entities_and_graph(
    collection: Collection, tmp_path: Path
) -> None:
    (tmp_path / "resumes").mkdir()
    (tmp_path / "resumes" / "arch.png").write_bytes(samples.png_bytes())
    job = ingest(collection, CORPUS, origin=tmp_path / "resumes")

    assert job.status == "done"
    assert sorted(job.items.values_list("status", flat=True)) == ["done"] * len(CORPUS)
    for document in Document.objects.filter(collection=collection):
        doc_id = str(document.pk)
        chunks = document.chunks.count()
        assert chunks == document.chunk_count > 0
        assert document.graph_synced
        assert document.directory_name == document.file_path.split("/")[0]
        node = graph.run_read(
            "MATCH (d:Document {id: $id}) RETURN d.file_name AS name, d.file_path AS path, "
            "d.directory_name AS dir, d.file_id AS file_id",
            id=doc_id,
        )
        assert node == [
            {
                "name": document.file_name,
                "path": document.file_path,
                "dir": document.directory_name,
                "file_id": doc_id,
            }
        ]
        assert (
            count(
                "MATCH (:Document {id: $id})-[:HAS_CHUNK]->(c:Chunk {collection_id: $col, "
                "document_id: $id}) RETURN count(c) AS n",
                id=doc_id,
                col=collection.pk,
            )
            == chunks
        )
        assert (
            count(
                "MATCH (c:Chunk {document_id: $id})-[:NEXT_CHUNK]->(:Chunk) RETURN count(c) AS n",
                id=doc_id,
            )
            == chunks - 1
        )
        assert (
            count(
                "MATCH (c:Chunk {document_id: $id})-[:PREV_CHUNK]->(:Chunk) RETURN count(c) AS n",
                id=doc_id,
            )
            == chunks - 1
        )
        assert (
            count(
                "MATCH (:Document {id: $id})-[:HAS_SECTION]->(s:Section) RETURN count(s) AS n",
                id=doc_id,
            )
            == document.sections.count()
        )

    alexis = Document.objects.get(file_path="resumes/alexis_torres.md")
    skills = alexis.chunks.get(header_text="Technical Expertise")
    assert skills.header_path == "Level 1: Alexis Torres > Level 2: Technical Expertise"
    assert skills.header_level == 2
    assert {"python", "kubernetes", "terraform"} <= set(skills.keywords)
    assert Chunk.objects.filter(pk=skills.pk, search_vector=SearchQuery("terraform")).exists()
    section = Section.objects.get(document=alexis, name="Technical Expertise")
    assert section.parent and section.parent.name == "Alexis Torres"
    assert (
        count(
            "MATCH (p:Section {id: $p})-[:PARENT_SECTION]->(s:Section {id: $s}) "
            "RETURN count(s) AS n",
            p=str(section.parent.pk),
            s=str(section.pk),
        )
        == 1
    )
    assert (
        count(
            "MATCH (s:Section {id: $s})-[:IN_SECTION]->(c:Chunk {id: $c}) RETURN count(c) AS n",
            s=str(section.pk),
            c=str(skills.pk),
        )
        == 1
    )

    # The chunk embedding is the model's, so the nearest chunk to a question is the right one.
    query = embed_texts(["Which cloud and container tools does Alexis know?"])[0]
    nearest = Chunk.objects.filter(document=alexis).order_by(CosineDistance("embedding", query))
    assert nearest.first() in {skills, alexis.chunks.get(index=1)}

    pdf = Document.objects.get(file_path="manual/field_service.pdf")
    assert pdf.page_count == 2
    assert sorted({p for p in pdf.chunks.values_list("page", flat=True) if p}) == [1, 2]


def test_one_person_one_node_with_relations(collection: Collection) -> None:
    ingest(collection, CORPUS)

    alexis = Entity.objects.get(type="Person", name="Alexis Torres")
    assert {"Torres"} <= set(alexis.aliases)
    assert not Entity.objects.filter(type="Person", name__in=["Alexis", "Torres"]).exists()
    node = graph.run_read(
        "MATCH (e:Entity:Person {id: $id}) RETURN e.name AS name, labels(e) AS labels",
        id=alexis.graph_id,
    )
    assert node[0]["name"] == "Alexis Torres" and set(node[0]["labels"]) == {"Entity", "Person"}
    # "Alexis Torres", "Alexis" and "Torres" in the résumé are one node, mentioned by chunks
    # of both résumés.
    mentioned_by = graph.run_read(
        "MATCH (c:Chunk)-[m:MENTIONS]->(e:Entity {id: $id}) "
        "RETURN DISTINCT c.document_id AS doc, m.confidence AS confidence",
        id=alexis.graph_id,
    )
    docs = {Document.objects.get(pk=row["doc"]).file_path for row in mentioned_by}
    assert docs == {"resumes/alexis_torres.md", "resumes/sarah_chen.txt"}
    assert all(0 < row["confidence"] <= 1 for row in mentioned_by)

    def related(kind: str) -> set[str]:
        return set(
            EntityRelation.objects.filter(source=alexis, type=kind).values_list(
                "target__name", flat=True
            )
        )

    assert {"Python", "Kubernetes", "AWS"} <= related("EXPERIENCED_WITH")
    assert "TechCorp" in related("WORKS_FOR")
    assert "Sarah Chen" in related("WORKED_WITH")
    works_for = graph.run_read(
        "MATCH (:Entity {id: $a})-[r:WORKS_FOR]->(o:Entity:Organization) "
        "RETURN o.name AS org, r.position AS position, r.start_date AS start, r.document_id AS doc",
        a=alexis.graph_id,
    )
    assert {
        "org": "TechCorp",
        "position": "Senior Software Engineer",
        "start": "2020",
        "doc": str(Document.objects.get(file_path="resumes/alexis_torres.md").pk),
    } in works_for
    who_worked_with = graph.run_read(
        "MATCH (p:Person)-[:WORKED_WITH]-(:Entity {id: $a}) RETURN DISTINCT p.name AS name",
        a=alexis.graph_id,
    )
    assert {"Sarah Chen"} <= {row["name"] for row in who_worked_with}


def test_images_become_nodes_linked_to_their_chunk(collection: Collection, tmp_path: Path) -> None:
    (tmp_path / "arch.png").write_bytes(samples.png_bytes())
    ingest(
        collection,
        {
            "alexis.md": samples.ALEXIS_MD.encode(),
            "priya.docx": samples.docx_resume(),
            "james.html": samples.JAMES_HTML.encode(),
        },
        origin=tmp_path,
    )

    stored = Image.objects.get(document__file_path="alexis.md")
    assert stored.caption == "Billing architecture" and stored.file.name
    assert stored.file.read().startswith(b"\x89PNG")
    docx_image = Image.objects.get(document__file_path="priya.docx")
    assert docx_image.caption == "Figure 2: Forecast accuracy" and docx_image.file.name
    remote = Image.objects.get(document__file_path="james.html")
    assert remote.source == "https://example.com/pipeline.png" and not remote.file
    for image in Image.objects.all():
        rows = graph.run_read(
            "MATCH (c:Chunk)-[:HAS_IMAGE]->(i:Image {id: $id}) RETURN c.id AS chunk, "
            "i.path AS path, i.caption AS caption",
            id=str(image.pk),
        )
        assert rows == [
            {"chunk": str(image.chunk_id), "path": image.stored_path, "caption": image.caption}
        ]


def test_section_types_group_skill_sections_across_documents(collection: Collection) -> None:
    ingest(collection, CORPUS)

    names = {"Technical Expertise", "CORE COMPETENCIES", "Core Competencies", "Skills"}
    skill_types = set(
        Section.objects.filter(name__in=names).values_list("section_type__key", flat=True)
    )
    assert len(skill_types) == 1 and None not in skill_types
    skill_type = SectionType.objects.get(key=skill_types.pop())
    assert {"Technical Expertise", "Skills"} <= set(skill_type.variants)
    education = set(
        Section.objects.filter(name__iexact="education").values_list("section_type", flat=True)
    )
    assert len(education) == 1 and skill_type.pk not in education
    rows = graph.run_read(
        "MATCH (s:Section)-[:INSTANCE_OF]->(t:SectionType {id: $id}) "
        "RETURN count(s) AS n, t.canonical_name AS name, size(t.centroid) AS dim",
        id=skill_type.key,
    )
    assert rows[0]["n"] == skill_type.member_count == 4
    assert rows[0]["dim"] == len(skill_type.centroid)


def test_section_types_reach_the_graph_a_few_at_a_time(
    collection: Collection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one statement with every type of a large corpus is more than the graph server takes
    monkeypatch.setattr(section_types, "TYPES_PER_WRITE", 2)
    ingest(collection, CORPUS)
    for kept in SectionType.objects.all():
        rows = graph.run_read(
            "MATCH (t:SectionType {id: $id}) RETURN t.member_count AS n, size(t.centroid) AS dim",
            id=kept.key,
        )
        assert rows == [{"n": kept.member_count, "dim": len(kept.centroid)}]
    assert SectionType.objects.count() > 2  # written in more than one statement


def test_section_types_computed_again_keep_their_rows_and_type_every_section(
    collection: Collection,
) -> None:
    ingest(collection, CORPUS)
    kept = dict(SectionType.objects.values_list("key", "pk"))
    stale = SectionType.objects.create(
        key="section_type:gone", canonical_name="Gone", normalized_name="gone", centroid=[1.0] * 384
    )
    graph.run_write("MERGE (t:SectionType {id: $id})", id=stale.key)

    assert section_types.refresh_section_types() == len(kept)

    assert dict(SectionType.objects.values_list("key", "pk")) == kept  # updated, not replaced
    assert not Section.objects.filter(section_type__isnull=True).exists()
    assert graph.run_read("MATCH (t:SectionType {id: $id}) RETURN t", id=stale.key) == []
    linked = graph.run_read(
        "MATCH (s:Section)-[:INSTANCE_OF]->(:SectionType) WHERE s.id IN $ids RETURN count(s) AS n",
        ids=[str(pk) for pk in Section.objects.values_list("pk", flat=True)],
    )
    assert linked == [{"n": Section.objects.count()}]  # one edge each, none left twice


def test_unchanged_file_is_skipped_and_changed_file_replaces_everything(
    collection: Collection,
) -> None:
    ingest(collection, {"policy.md": samples.POLICY_MD.encode()})
    document = Document.objects.get()
    first_chunks = {str(pk) for pk in document.chunks.values_list("pk", flat=True)}

    again = ingest(collection, {"policy.md": samples.POLICY_MD.encode()})
    assert again.items.get().status == ItemStatus.SKIPPED
    assert {
        str(pk) for pk in Document.objects.get().chunks.values_list("pk", flat=True)
    } == first_chunks

    changed = samples.POLICY_MD.replace("one and a half times", "double").replace(
        "## Pay", "## Pay\n\nHolidays count separately.\n\n## Holidays"
    )
    job = ingest(collection, {"policy.md": changed.encode()})
    assert job.items.get().status == ItemStatus.DONE
    document = Document.objects.get()
    new_chunks = {str(pk) for pk in document.chunks.values_list("pk", flat=True)}
    assert not new_chunks & first_chunks
    assert document.chunks.filter(text__contains="double").exists()
    assert (
        count("MATCH (c:Chunk) WHERE c.id IN $ids RETURN count(c) AS n", ids=list(first_chunks))
        == 0
    )
    assert count(
        "MATCH (:Document {id: $id})-[:HAS_CHUNK]->(c) RETURN count(c) AS n", id=str(document.pk)
    ) == len(new_chunks)
    assert (
        count(
            "MATCH (:Document {id: $id})-[:HAS_SECTION]->(s) RETURN count(s) AS n",
            id=str(document.pk),
        )
        == document.sections.count()
    )
    assert count("MATCH (d:Document {id: $id}) RETURN count(d) AS n", id=str(document.pk)) == 1


def test_files_written_before_their_worker_died_finish_when_taken_again(
    collection: Collection,
) -> None:
    """A worker killed after it saved a group of files and before it marked them done: the
    next one finds every file of the group written and finishes them all."""
    job = ingest(
        collection, {"a.md": samples.POLICY_MD.encode(), "b.txt": samples.SARAH_TXT.encode()}
    )
    job.items.update(status=ItemStatus.PROCESSING)
    process_items(list(JobItem.objects.filter(job=job).select_related("job")))
    assert set(job.items.values_list("status", flat=True)) == {ItemStatus.DONE}
    assert Document.objects.filter(collection=collection).count() == 2


def test_deleting_a_document_leaves_nothing_behind(collection: Collection) -> None:
    ingest(
        collection,
        {
            "a.md": samples.ALEXIS_MD.encode(),
            "s.txt": samples.SARAH_TXT.encode(),
            "p.md": samples.POLICY_MD.encode(),
        },
    )
    alexis_doc = Document.objects.get(file_path="a.md")
    doc_id = str(alexis_doc.pk)
    chunk_ids = [str(pk) for pk in alexis_doc.chunks.values_list("pk", flat=True)]
    only_here = Entity.objects.get(name="Terraform")  # nowhere else in the corpus
    shared = Entity.objects.get(name="Alexis Torres")  # Sarah's résumé mentions her too
    files = [alexis_doc.file.name]

    delete_document(alexis_doc)

    assert not Document.objects.filter(pk=doc_id).exists()
    assert not Chunk.objects.filter(document_id=doc_id).exists()
    assert not Entity.objects.filter(pk=only_here.pk).exists()
    assert Entity.objects.filter(pk=shared.pk).exists()
    assert (
        count("MATCH (n) WHERE n.id = $id OR n.document_id = $id RETURN count(n) AS n", id=doc_id)
        == 0
    )
    assert count("MATCH (c:Chunk) WHERE c.id IN $ids RETURN count(c) AS n", ids=chunk_ids) == 0
    assert count("MATCH (e:Entity {id: $id}) RETURN count(e) AS n", id=only_here.graph_id) == 0
    assert count("MATCH (e:Entity {id: $id}) RETURN count(e) AS n", id=shared.graph_id) == 1
    assert (
        count(
            "MATCH (:Entity {id: $id})-[r]->() WHERE r.document_id = $doc RETURN count(r) AS n",
            id=shared.graph_id,
            doc=doc_id,
        )
        == 0
    )
    from django.core.files.storage import default_storage

    assert not any(default_storage.exists(name) for name in files if name)


def test_similar_chunks_of_different_documents_are_linked(
    collection: Collection, settings: object
) -> None:
    settings.INGESTION_SIMILARITY_THRESHOLD = 0.5  # type: ignore[attr-defined]
    policy_copy = samples.POLICY_MD.replace("Overtime Policy", "Overtime Rules")
    job = ingest(collection, {"a.md": samples.POLICY_MD.encode(), "b.md": policy_copy.encode()})

    assert job.similarity_edges > 0
    a, b = Document.objects.get(file_path="a.md"), Document.objects.get(file_path="b.md")
    rows = graph.run_read(
        "MATCH (x:Chunk {document_id: $a})-[r:SEMANTICALLY_SIMILAR]-(y:Chunk {document_id: $b}) "
        "RETURN r.score AS score",
        a=str(a.pk),
        b=str(b.pk),
    )
    assert len(rows) == job.similarity_edges
    assert all(0.5 <= row["score"] <= 1.0001 for row in rows)
    assert (
        count(
            "MATCH (x:Chunk {document_id: $a})-[r:SEMANTICALLY_SIMILAR]-"
            "(y:Chunk {document_id: $a}) RETURN count(r) AS n",
            a=str(a.pk),
        )
        == 0
    )

    delete_document(b)
    assert (
        count(
            "MATCH (:Chunk {document_id: $a})-[r:SEMANTICALLY_SIMILAR]-() RETURN count(r) AS n",
            a=str(a.pk),
        )
        == 0
    )


def test_bad_files_fail_with_messages_and_the_others_go_on(
    collection: Collection, settings: object
) -> None:
    settings.INGESTION_MAX_FILE_MB = 0.01  # type: ignore[attr-defined]
    job = ingest(
        collection,
        {
            "good.md": samples.POLICY_MD.encode(),
            "broken.pdf": b"%PDF-1.4\nthis is not really a pdf",
            "notes.xyz": b"something",
            "empty.txt": b"",
            "latin.txt": "caf\u00e9 cr\u00e8me".encode("latin-1"),
            "huge.txt": b"word " * 5000,
        },
    )

    errors = dict(job.items.values_list("file_path", "error"))
    assert job.items.get(file_path="good.md").status == ItemStatus.DONE
    assert "corrupt or unreadable PDF" in errors["broken.pdf"]
    assert "unsupported file type '.xyz'" in errors["notes.xyz"]
    assert errors["empty.txt"] == "the file is empty"
    assert "not valid UTF-8" in errors["latin.txt"]
    assert "over the limit" in errors["huge.txt"] and "INGESTION_MAX_FILE_MB" in errors["huge.txt"]
    assert list(Document.objects.values_list("file_path", flat=True)) == ["good.md"]
    assert job.status == "done"
    from django.core.files.storage import default_storage

    staged = [name for name in job.items.values_list("staged_file", flat=True) if name]
    assert [name for name in staged if default_storage.exists(name)] == [
        Document.objects.get().file.name
    ]
