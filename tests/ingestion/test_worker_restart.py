"""Real Celery worker processes on one job: one killed in the middle of a batch and another
finishing the job with the state an uninterrupted run gives; two sharing a job without
taking a file twice."""

import os
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from config.celery import app as celery_app
from ingestion.jobs import create_job, run_in_process
from ingestion.models import Collection, Document, IngestionJob, ItemStatus, JobItem
from ingestion.tasks import send_batches
from retrieval.models import ChunkTerm, KeywordStatistics
from tests.conftest import TEST_QUEUE, _database_url

from . import samples
from .helpers import count, source

ROOT = Path(__file__).resolve().parents[2]
QUEUE = f"{TEST_QUEUE}-restart"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cleanup_documents")]


def corpus(files: int) -> dict[str, bytes]:
    found = {
        f"policy-{n}.md": (samples.POLICY_MD + f"\n\n## Note {n}\n\nRevision {n}.\n").encode()
        for n in range(files - 2)
    }
    found["resume.md"] = samples.ALEXIS_MD.encode()
    found["sarah.txt"] = samples.SARAH_TXT.encode()
    return found


def start_worker(name: str, queue: str = QUEUE) -> tuple[subprocess.Popen[bytes], Any]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_QUEUE": queue,
        "INGESTION_BATCH_FILES": "2",  # several batches, so that one can be interrupted
    }
    log = open(ROOT / "var" / f"{queue}-{name}.log", "w")  # noqa: SIM115 - closed by the test
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--loglevel=info", "-Q", queue, "-n", f"{name}-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    return process, log


def wait(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def state(collection: Collection) -> dict[str, Any]:
    """What a collection holds, per document path, in PostgreSQL and in the graph."""
    found: dict[str, Any] = {}
    for document in Document.objects.filter(collection=collection):
        doc_id = str(document.pk)
        found[document.file_path] = {
            "chunks": list(document.chunks.order_by("index").values_list("text", flat=True)),
            "sentences": sorted(
                document.chunks.values_list("index", "sentence_vectors__text").order_by()
            ),
            "mentions": sorted(
                document.mentions.values_list("entity__graph_id", "chunk__index", "surface")
            ),
            "relations": sorted(document.relations.values_list("type", "source__graph_id")),
            "graph": [
                count(query, id=doc_id)
                for query in (
                    "MATCH (d:Document {id: $id}) RETURN count(d) AS n",
                    "MATCH (c:Chunk {document_id: $id}) RETURN count(c) AS n",
                    "MATCH (:Document {id: $id})-[:HAS_SECTION]->(s) RETURN count(s) AS n",
                    "MATCH (:Chunk {document_id: $id})-[m:MENTIONS]->() RETURN count(m) AS n",
                    "MATCH (:Chunk {document_id: $id})-[r:NEXT_CHUNK]->() RETURN count(r) AS n",
                    "MATCH (:Chunk {document_id: $id})-[:MENTIONS]->(:Entity)-[r]->(:Entity) "
                    "WHERE r.document_id = $id RETURN count(DISTINCT r) AS n",
                )
            ],
        }
    statistics = KeywordStatistics.objects.filter(collection_id=collection.pk).first()
    found["keyword statistics"] = (statistics.chunks, statistics.length) if statistics else None
    found["postings"] = ChunkTerm.objects.filter(collection_id=collection.pk).count()
    return found


def test_killed_worker_restarted_finishes_the_job_with_the_same_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = corpus(9)
    clean = Collection.objects.create(name="restart-clean")
    run_in_process(create_job(collection=clean, sources=[source(p, d) for p, d in files.items()]))
    collection = Collection.objects.create(name="restart-test")
    job = create_job(collection=collection, sources=[source(p, d) for p, d in files.items()])

    first, first_log = start_worker("first")
    try:
        monkeypatch.setattr(celery_app.conf, "task_default_queue", QUEUE)
        send_batches(job.pk)  # one message: the worker takes batch after batch
        # Kill it while it holds a batch, after at least one batch is through.
        wait(
            lambda: (
                JobItem.objects.filter(job=job, status=ItemStatus.DONE).exists()
                and JobItem.objects.filter(job=job, status=ItemStatus.PROCESSING).exists()
            ),
            240,
            "a batch in progress",
        )
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
        first_log.close()
    interrupted = JobItem.objects.filter(job=job, status=ItemStatus.PROCESSING).count()
    assert 1 <= interrupted <= 2

    second, second_log = start_worker("second")
    try:
        wait(lambda: IngestionJob.objects.get(pk=job.pk).is_finished, 240, "the job to finish")
    finally:
        second.terminate()
        second.wait(timeout=30)
        second_log.close()

    job.refresh_from_db()
    # What each item that did not finish says, and where the workers' logs are.
    unfinished = list(
        job.items.exclude(status=ItemStatus.DONE).values_list("file_name", "status", "error")
    )
    logs = [ROOT / "var" / f"{QUEUE}-{name}.log" for name in ("first", "second")]
    assert job.status == "done" and not unfinished, (unfinished, logs)
    assert max(job.items.values_list("attempts", flat=True)) == 2  # the interrupted ones
    assert state(collection) == state(clean)
    assert len(state(collection)) == len(files) + 2


def test_two_workers_share_a_job_and_take_no_file_twice(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    files = corpus(12)
    folder = Path(os.environ["MEDIA_ROOT"]) / "two-workers"
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    queue = f"{TEST_QUEUE}-two"
    monkeypatch.setenv("DATABASE_URL", _database_url())
    monkeypatch.setenv("INGESTION_BATCH_FILES", "2")
    monkeypatch.setattr(celery_app.conf, "task_default_queue", queue)
    settings.INGESTION_BATCH_FILES = 2  # one message per batch: both workers get some
    out = StringIO()

    call_command("ingest", str(folder), "--collection", "two-workers", "--workers", "2", stdout=out)

    job = IngestionJob.objects.get(collection__name="two-workers")
    assert job.status == "done", out.getvalue()
    items = list(job.items.all())
    assert {i.status for i in items} == {ItemStatus.DONE}
    assert {i.attempts for i in items} == {1}  # no file claimed twice
    assert len({i.worker for i in items}) == 2  # both workers took batches
    assert Document.objects.filter(collection=job.collection).count() == len(files)
    assert f"{len(files)}/{len(files)} files" in out.getvalue()
    assert "chunks/s" in out.getvalue()
