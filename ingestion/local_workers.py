"""Celery workers started on this machine for one job (`ingest --workers N`), each with its
share of the cores for the embedding model, stopped once the job is finished."""

import os
import sys
from pathlib import Path
from subprocess import STDOUT, Popen

from celery import current_app

ROOT = Path(__file__).resolve().parent.parent


def start_workers(count: int, log_dir: Path) -> list[Popen[bytes]]:
    threads = max(1, (os.cpu_count() or 1) // count)
    queue = current_app.conf.task_default_queue  # where this process sends the job
    env = {**os.environ, "INGESTION_TORCH_THREADS": str(threads), "CELERY_QUEUE": queue}
    log_dir.mkdir(parents=True, exist_ok=True)
    workers = []
    for number in range(1, count + 1):
        log = open(log_dir / f"ingest-worker-{number}.log", "ab")  # noqa: SIM115 - the child keeps it
        workers.append(
            Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--pool=solo",
                    "--loglevel=warning",
                    "-Q",
                    queue,
                    "-n",
                    f"ingest{number}-{os.getpid()}@%h",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=STDOUT,
            )
        )
        log.close()
    return workers


def stop_workers(workers: list[Popen[bytes]], timeout: float = 60) -> None:
    """A warm shutdown: each finishes the batch it holds (there is none once the job is
    finished), then exits."""
    for worker in workers:
        if worker.poll() is None:
            worker.terminate()
    for worker in workers:
        try:
            worker.wait(timeout=timeout)
        except Exception:
            worker.kill()
