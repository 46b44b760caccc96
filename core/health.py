"""Dependency checks behind /healthz and `manage.py doctor`.

Each check returns a short detail or raises; the runner times it. They run in parallel so
that one slow dependency does not add up with the others.
"""

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import connection, connections

from core import cypher
from core.databases import connect as databases
from core.providers import embeddings, graph, llm


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    required: bool
    latency_ms: float
    detail: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    return str(version).split(" on ")[0]


def check_pgvector() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
        if row is None:
            raise RuntimeError("the vector extension is not installed (run migrate)")
        cursor.execute("SELECT '[1,0]'::vector <=> '[0,1]'::vector")
    return f"vector {row[0]}"


def check_graph() -> str:
    graph.run_read(cypher.PING)
    found = graph.server()
    if found.kind == "Neo4j" and not found.version.startswith(("5.", "202")):
        raise RuntimeError(f"Neo4j 5 or newer is needed, the server is {found}")
    return f"{found} at {settings.GRAPH_URL} database {settings.GRAPH_DATABASE}"


def check_warehouse_agent() -> str:
    """Optional: the SQL agent's route only; a login that can write fails it."""
    return databases.check_configured_agent()


def check_redis() -> str:
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    client.ping()
    return settings.REDIS_URL.rsplit("@", 1)[-1]


def check_celery() -> str:
    from celery import current_app  # the project's app (config.celery), set as current

    replies = current_app.control.ping(timeout=1.5, limit=1)
    if not replies:
        raise RuntimeError("no worker answered within 1.5 s")
    return ", ".join(name for reply in replies for name in reply)


def check_embeddings() -> str:
    embedder = embeddings.get_embedder()
    (vector,) = embedder.embed(["health check"])
    if len(vector) != settings.EMBEDDING_DIM:
        raise RuntimeError(f"got {len(vector)} dimensions, expected {settings.EMBEDDING_DIM}")
    return f"{settings.EMBEDDING_BACKEND}: {embedder.name} ({embedder.dim} dims)"


def check_llm() -> str:
    if not llm.llm_configured():
        return "not configured: deterministic routing, compiled SQL and extractive answers"
    llm.list_models()
    return f"{settings.OPENAI_MODEL} at {settings.OPENAI_BASE_URL or 'api.openai.com'}"


CHECKS: list[tuple[str, Callable[[], str], bool]] = [
    ("database", check_database, True),
    ("pgvector", check_pgvector, True),
    ("graph", check_graph, True),
    ("redis", check_redis, True),
    ("celery_worker", check_celery, True),
    ("embedding_model", check_embeddings, True),
    ("warehouse_agent", check_warehouse_agent, False),
    ("llm", check_llm, False),
]


def _timed(name: str, check: Callable[[], str], required: bool) -> CheckResult:
    started = time.perf_counter()
    try:
        detail, ok = check(), True
    except Exception as error:  # a health check reports every failure, whatever its kind
        detail, ok = f"{type(error).__name__}: {error}", False
    finally:
        if name in ("database", "pgvector"):
            connections.close_all()  # the thread's connection must not outlive it
    return CheckResult(name, ok, required, round((time.perf_counter() - started) * 1000, 1), detail)


def run_checks() -> list[CheckResult]:
    with ThreadPoolExecutor(max_workers=len(CHECKS)) as pool:
        futures = [pool.submit(_timed, *spec) for spec in CHECKS]
        return [future.result() for future in futures]


def healthy(results: list[CheckResult]) -> bool:
    return all(result.ok for result in results if result.required)
