"""Shared fixtures. Tests talk to the real services that `manage.py services start` runs."""

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app as celery_app

TEST_QUEUE = os.environ.get("TEST_CELERY_QUEUE", "switchboard-test")
# Files the tests ingest go to a folder of this run, set before the session's worker starts
# so that both read the same files. Fixtures change it only through pytest's `settings`.
MEDIA = tempfile.mkdtemp(prefix="switchboard-test-media-")
os.environ["MEDIA_ROOT"] = MEDIA
settings.MEDIA_ROOT = MEDIA
# Persistent connections opened in Channels' worker threads would keep the test database
# busy at teardown.
settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session", autouse=True)
def _isolated_celery_queue() -> None:
    # A development worker on the same Redis must not take the tests' tasks.
    celery_app.conf.task_default_queue = TEST_QUEUE


@pytest.fixture(scope="session", autouse=True)
def _graph_schema() -> None:
    # What scripts/run does at start: constraints and indexes exist before any test writes.
    from core.graph_schema import ensure_graph_schema

    ensure_graph_schema()


def delete_namespaced_graph_nodes(namespace: str) -> None:
    """Entities and section types a run's ingestion wrote under its namespace."""
    if namespace:
        from core.providers import graph

        for label in ("Entity", "SectionType"):
            graph.run_write(
                f"MATCH (n:{label}) WHERE n.id STARTS WITH $prefix DETACH DELETE n",
                prefix=namespace,
            )


def _database_url() -> str:
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: None, django_db_blocker: object) -> Iterator[str]:
    """A real Celery worker process on the test database and an isolated queue."""
    env = {**os.environ, "DATABASE_URL": _database_url(), "CELERY_QUEUE": TEST_QUEUE}
    hostname = f"test-{os.getpid()}@%h"
    log = open(ROOT / "var" / f"{TEST_QUEUE}-worker.log", "w")  # noqa: SIM115 - lives as long as the worker
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--loglevel=info", "-Q", TEST_QUEUE, "-n", hostname],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not celery_app.control.ping(timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the test worker did not start; see {log.name}")
        yield hostname
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
