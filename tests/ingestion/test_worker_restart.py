"""A worker killed in the middle of a job: the next worker finishes it, and the end state is
the one a clean run gives."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ingestion.jobs import create_job
from ingestion.models import Collection, Document, IngestionJob, ItemStatus, JobItem
from ingestion.pipeline import prepare
from ingestion.tasks import process_item
from tests.conftest import TEST_QUEUE, _database_url

from . import samples
from .helpers import count, source

ROOT = Path(__file__).resolve().parents[2]
QUEUE = f"{TEST_QUEUE}-restart"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cleanup_documents")]


def start_worker(name: str) -> tuple[subprocess.Popen[bytes], Any]:
    env = {**os.environ, "DATABASE_URL": _database_url(), "CELERY_QUEUE": QUEUE}
    log = open(ROOT / "var" / f"{QUEUE}-{name}.log", "w")  # noqa: SIM115 - closed by the test
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=info",
            "-Q",
            QUEUE,
            "-n",
            f"{name}-{os.getpid()}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return process, log


def wait(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_killed_worker_restarted_finishes_the_job_with_the_same_state() -> None:
    files = {
        f"policy-{n}.md": (samples.POLICY_MD + f"\n\n## Note {n}\n\nRevision {n}.\n").encode()
        for n in range(4)
    }
    files["resume.md"] = samples.ALEXIS_MD.encode()
    collection = Collection.objects.create(name="restart-test")
    job = create_job(collection=collection, sources=[source(p, d) for p, d in files.items()])
    item_ids = list(job.items.values_list("pk", flat=True))

    first, first_log = start_worker("first")
    try:
        for item_id in item_ids:
            process_item.apply_async(args=(item_id,), queue=QUEUE)
        # Kill it while it holds a file, after at least one file is through.
        wait(
            lambda: (
                JobItem.objects.filter(job=job, status=ItemStatus.DONE).exists()
                and JobItem.objects.filter(job=job, status=ItemStatus.PROCESSING)
                .exclude(worker="")
                .exists()
            ),
            240,
            "a file in progress",
        )
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
        first_log.close()
    interrupted = JobItem.objects.filter(job=job, status=ItemStatus.PROCESSING).count()
    assert interrupted == 1

    second, second_log = start_worker("second")
    try:
        wait(lambda: IngestionJob.objects.get(pk=job.pk).is_finished, 240, "the job to finish")
    finally:
        second.terminate()
        second.wait(timeout=30)
        second_log.close()

    job.refresh_from_db()
    assert job.status == "done"
    assert set(job.items.values_list("status", flat=True)) == {ItemStatus.DONE}
    assert Document.objects.filter(collection=collection).count() == len(files)
    for path, data in files.items():
        document = Document.objects.get(collection=collection, file_path=path)
        expected = prepare(data, file_name=path)
        assert document.chunk_count == document.chunks.count() == len(expected.chunks)
        assert list(document.chunks.values_list("text", flat=True)) == [
            c.text for c in expected.chunks
        ]
        doc_id = str(document.pk)
        assert count("MATCH (d:Document {id: $id}) RETURN count(d) AS n", id=doc_id) == 1
        assert count("MATCH (c:Chunk {document_id: $id}) RETURN count(c) AS n", id=doc_id) == len(
            expected.chunks
        )
        assert count(
            "MATCH (:Document {id: $id})-[:HAS_SECTION]->(s) RETURN count(s) AS n", id=doc_id
        ) == len(expected.sections)
        mentions = document.mentions.count()
        assert (
            count(
                "MATCH (:Chunk {document_id: $id})-[m:MENTIONS]->() RETURN count(m) AS n", id=doc_id
            )
            == mentions
        )
