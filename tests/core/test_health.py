import json
import re
import subprocess
import sys

import pytest
from django.test import Client

from core.providers import graph

REQUIRED = {"database", "pgvector", "graph", "redis", "celery_worker", "embedding_model"}
OPTIONAL = {"warehouse_agent", "llm"}


@pytest.mark.django_db
def test_healthz_is_green_with_every_dependency_up(client: Client, celery_worker: str) -> None:
    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert set(body["checks"]) == REQUIRED | OPTIONAL
    for name in REQUIRED:
        check = body["checks"][name]
        assert check["ok"] and check["required"], check
        assert check["latency_ms"] >= 0
    for name in OPTIONAL:
        assert body["checks"][name]["required"] is False
    # The graph server names its kind and version (ArcadeDB here, Neo4j 5 in production).
    assert re.match(r"(ArcadeDB|Neo4j) \d", body["checks"]["graph"]["detail"])


@pytest.mark.django_db
def test_healthz_is_503_when_the_graph_is_down(client: Client, settings) -> None:
    settings.GRAPH_URL = "bolt://127.0.0.1:1"  # nothing listens on port 1
    graph.close()
    try:
        response = client.get("/healthz")
    finally:
        graph.close()

    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "fail"
    assert body["checks"]["graph"]["ok"] is False
    assert "ServiceUnavailable" in body["checks"]["graph"]["detail"]
    assert body["checks"]["database"]["ok"] is True


def test_doctor_prints_every_check() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "doctor"], capture_output=True, text=True, timeout=120
    )
    for name in REQUIRED | OPTIONAL:
        assert name in result.stdout
    # No worker is guaranteed here, so only the shape is asserted, not the verdict.
    assert result.returncode in (0, 1)


def test_healthz_json_is_serialisable_shape() -> None:
    from core.health import CheckResult

    result = CheckResult("x", True, True, 1.5, "fine")
    assert json.loads(json.dumps(result.as_dict())) == {
        "name": "x", "ok": True, "required": True, "latency_ms": 1.5, "detail": "fine",
    }  # fmt: skip
