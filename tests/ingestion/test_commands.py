import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from ingestion.models import Collection, Document

from . import samples

pytestmark = pytest.mark.django_db


@pytest.mark.usefixtures("cleanup_documents")
def test_ingest_a_folder_twice_skips_what_did_not_change(
    tmp_path: Path, django_user_model: Any
) -> None:
    reader = django_user_model.objects.create_user("reader")
    (tmp_path / "resumes").mkdir()
    (tmp_path / "resumes" / "alexis.md").write_text(samples.ALEXIS_MD)
    (tmp_path / "resumes" / "arch.png").write_bytes(
        samples.png_bytes()
    )  # a picture, not a document
    (tmp_path / "overtime.md").write_text(samples.POLICY_MD)
    (tmp_path / ".hidden.md").write_text("# hidden")
    out = StringIO()

    call_command(
        "ingest",
        str(tmp_path),
        "--collection",
        "cmd",
        "--reader",
        "reader",
        "--in-process",
        stdout=out,
        stderr=StringIO(),
    )

    assert "2 files into new collection 'cmd' (0 unchanged)" in out.getvalue()
    assert "done: 2 ingested, 0 unchanged, 0 failed" in out.getvalue()
    collection = Collection.objects.get(name="cmd")
    assert collection.is_readable_by(reader) and not collection.is_writable_by(reader)
    assert sorted(Document.objects.values_list("file_path", "directory_name")) == [
        ("overtime.md", tmp_path.name),
        ("resumes/alexis.md", "resumes"),
    ]
    assert Document.objects.get(file_path="resumes/alexis.md").images.get().file.name

    again = StringIO()
    call_command(
        "ingest", str(tmp_path), "--collection", "cmd", "--wait", "--in-process", stdout=again
    )
    assert "done: 0 ingested, 2 unchanged, 0 failed" in again.getvalue()


def test_readable_and_writable_collections(django_user_model: Any) -> None:
    owner, member, writer, other = (
        django_user_model.objects.create_user(name) for name in ("o", "m", "w", "x")
    )
    admin = django_user_model.objects.create_superuser("admin")
    team = Group.objects.create(name="team")
    member.groups.add(team)
    collection = Collection.objects.create(name="private", owner=owner)
    collection.reader_groups.add(team)
    collection.writers.add(writer)
    Collection.objects.create(name="someone else's")

    assert list(Collection.objects.readable_by(member)) == [collection]
    assert list(Collection.objects.readable_by(writer)) == [collection]
    assert list(Collection.objects.readable_by(owner)) == [collection]
    assert list(Collection.objects.readable_by(other)) == []
    assert Collection.objects.readable_by(admin).count() == 2
    assert list(Collection.objects.writable_by(member)) == []
    assert list(Collection.objects.writable_by(writer)) == [collection]


def test_eval_entities_reports_precision_and_recall(tmp_path: Path) -> None:
    (tmp_path / "corpus" / "resumes").mkdir(parents=True)
    (tmp_path / "corpus" / "resumes" / "alexis.md").write_text(samples.ALEXIS_MD)
    labels = tmp_path / "entities.jsonl"
    labels.write_text(
        json.dumps(
            {
                "document": "alexis.md",
                "entities": [
                    {"name": "Alexis Torres", "type": "Person", "aliases": ["Alexis", "Torres"]},
                    {"name": "Sarah Chen", "type": "Person", "aliases": []},
                    {"name": "TechCorp", "type": "Organization", "aliases": []},
                    {"name": "Python", "type": "Technology", "aliases": []},
                    {"name": "Atlantis", "type": "Location", "aliases": []},
                ],
                "relations": [
                    {"source": "Alexis Torres", "type": "WORKS_FOR", "target": "TechCorp"}
                ],
            }
        )
        + "\n"
    )
    out = StringIO()

    call_command(
        "eval_entities", "--labels", str(labels), "--corpus", str(tmp_path / "corpus"), stdout=out
    )

    lines = {line.split()[0]: line.split() for line in out.getvalue().splitlines() if line.strip()}
    assert lines["Person"][1:3] == ["1.000", "1.000"]
    assert lines["Location"][2] == "0.000"  # Atlantis is not in the text
    assert lines["WORKS_FOR"][1:3] == ["1.000", "1.000"]
    assert "extractor: offline (spaCy + rules); 1 labelled documents" in out.getvalue()


def _graph_counts(collection: Collection) -> dict[str, int]:
    from core.providers import graph

    rows = graph.run_read(
        "MATCH (c:Chunk) WHERE c.collection_id = $collection "
        "OPTIONAL MATCH (c)-[m:MENTIONS]->() RETURN count(DISTINCT c) AS chunks, "
        "count(m) AS mentions",
        collection=collection.pk,
    )
    return dict(rows[0])


@pytest.mark.usefixtures("cleanup_documents")
def test_rebuild_graph_restores_what_postgresql_holds(tmp_path: Path) -> None:
    from core.providers import graph
    from ingestion.graph_writer import remove_documents
    from ingestion.models import Chunk

    (tmp_path / "overtime.md").write_text(samples.POLICY_MD)
    (tmp_path / "alexis.md").write_text(samples.ALEXIS_MD)
    call_command("ingest", str(tmp_path), "--collection", "rebuilt", "--in-process",
                 stdout=StringIO(), stderr=StringIO())  # fmt: skip
    collection = Collection.objects.get(name="rebuilt")
    ingested = _graph_counts(collection)
    assert ingested["chunks"] == Chunk.objects.filter(collection=collection).count() > 0
    assert ingested["mentions"] > 0

    for document in Document.objects.filter(collection=collection):
        remove_documents([str(document.pk)])  # as if the graph server had been lost
    assert _graph_counts(collection)["chunks"] == 0

    out = StringIO()
    call_command("rebuild_graph", "--collection", "rebuilt", stdout=out)
    assert "graph rebuilt: 2 documents" in out.getvalue()
    assert _graph_counts(collection) == ingested
    call_command("rebuild_graph", "--collection", "rebuilt", stdout=StringIO())
    assert _graph_counts(collection) == ingested  # twice is the same graph
    documents = graph.run_read(
        "MATCH (d:Document) WHERE d.collection_id = $collection RETURN count(d) AS n",
        collection=collection.pk,
    )
    assert documents[0]["n"] == 2


def test_rebuild_graph_refuses_an_unknown_collection() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no collection named"):
        call_command("rebuild_graph", "--collection", "nowhere", stdout=StringIO())
