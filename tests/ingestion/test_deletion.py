"""Deleting many documents as one job: everything they left in PostgreSQL, the graph and
storage goes, what other documents share stays, and the job reports its pace."""

from io import StringIO

import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command

from ingestion.models import (
    Chunk,
    Collection,
    Document,
    Entity,
    IngestionJob,
    ItemStatus,
    Section,
    SectionType,
    SentenceVector,
)
from ingestion.section_types import refresh_section_types
from retrieval.models import ChunkTerm, KeywordStatistics

from . import samples
from .conftest import NAMESPACE
from .helpers import count, ingest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cleanup_documents")]


def test_deleting_a_folder_is_one_job_and_leaves_no_orphan() -> None:
    collection = Collection.objects.create(name="deletion-test")
    ingest(
        collection,
        {
            "resumes/alexis_torres.md": samples.ALEXIS_MD.encode(),
            "resumes/sarah_chen.txt": samples.SARAH_TXT.encode(),
            "policies/overtime.md": samples.POLICY_MD.encode(),
            "policies/overtime_2.md": samples.POLICY_MD.replace("Overtime", "Shift").encode(),
        },
    )
    resumes = list(Document.objects.filter(file_path__startswith="resumes/"))
    gone = [str(d.pk) for d in resumes]
    files = [d.file.name or "" for d in resumes]
    kept = Document.objects.get(file_path="policies/overtime.md")
    only_resumes = Entity.objects.get(name="Terraform")
    out = StringIO()

    call_command(
        "delete_documents", "--collection", "deletion-test", "--folder", "resumes",
        "--in-process", stdout=out,
    )  # fmt: skip

    job = IngestionJob.objects.get(kind="delete")
    assert job.status == "done" and job.total == 2
    assert set(job.items.values_list("status", flat=True)) == {ItemStatus.DONE}
    assert job.throughput()["files_done"] == 2 and job.throughput()["seconds_left"] == 0.0
    assert "2/2 files" in out.getvalue() and "2 documents deleted" in out.getvalue()
    assert set(Document.objects.values_list("file_path", flat=True)) == {
        "policies/overtime.md",
        "policies/overtime_2.md",
    }
    assert not Chunk.objects.filter(document_id__in=gone).exists()
    assert not SentenceVector.objects.filter(chunk__document_id__in=gone).exists()
    assert not Section.objects.filter(document_id__in=gone).exists()
    assert not Entity.objects.filter(pk=only_resumes.pk).exists()
    assert not Entity.objects.filter(mentions__isnull=True).exists()
    assert not any(default_storage.exists(name) for name in files)
    assert default_storage.exists(kept.file.name or "")
    # The graph: nothing of the deleted documents, nothing orphaned, the rest intact.
    assert (
        count(
            "MATCH (n) WHERE n.id IN $ids OR n.document_id IN $ids RETURN count(n) AS n", ids=gone
        )
        == 0
    )
    orphans = "MATCH (e:Entity) WHERE e.id STARTS WITH $ns AND NOT (e)<-[:MENTIONS]-(:Chunk)"
    assert count(orphans + " RETURN count(e) AS n", ns=NAMESPACE) == 0
    assert (
        count("MATCH (c:Chunk {document_id: $id}) RETURN count(c) AS n", id=str(kept.pk))
        == kept.chunk_count
    )
    # Keyword statistics count the chunks that are left, and only those.
    left = Chunk.objects.filter(collection=collection)
    statistics = KeywordStatistics.objects.get(collection_id=collection.pk)
    assert statistics.chunks == left.count()
    assert (
        ChunkTerm.objects.filter(collection_id=collection.pk)
        .exclude(chunk_id__in=left.values("pk"))
        .count()
        == 0
    )
    # Section types were recomputed at the end: computing them again changes nothing.
    before = sorted(SectionType.objects.values_list("key", "member_count"))
    refresh_section_types()
    assert sorted(SectionType.objects.values_list("key", "member_count")) == before
    assert not Section.objects.filter(section_type__isnull=True).exists()
