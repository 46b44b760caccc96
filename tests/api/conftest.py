"""The API as its clients see it: `manage.py serve` as `scripts/run` runs it (DEBUG off), on
the test database and the demo warehouse, with a plain user and an admin who hold tokens."""

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from ..chat.test_e2e import _free_port, _request
from ..conftest import ROOT
from ..sqlagent.agent_fixtures import (
    agent_warehouse_schema,
    agent_warehouse_url,
    server_environment,
    warehouse,
)

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "warehouse"]

QUEUE = f"switchboard-api-{os.getpid()}"  # uploads wait here; no worker takes them


@dataclass(frozen=True)
class Api:
    base: str
    plain_token: str
    admin_token: str
    log: Path

    def schema(self) -> dict[str, Any]:
        response = httpx.get(
            f"{self.base}/api/schema/?format=json",
            headers={"Authorization": f"Token {self.plain_token}"},
            timeout=30,
        )
        response.raise_for_status()
        return dict(response.json())


@pytest.fixture(scope="module")
def api_server(
    django_db_setup: None, agent_warehouse_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    port = _free_port()
    env = server_environment(
        agent_warehouse_url,
        DEBUG="false",  # as scripts/run serves: no debug page, ever
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        SECURE_HSTS_SECONDS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CELERY_QUEUE=QUEUE,
        MEDIA_ROOT=str(tmp_path_factory.mktemp("api-media")),
    )
    log_path = ROOT / "var" / f"api-server-{os.getpid()}.log"
    log_path.parent.mkdir(exist_ok=True)
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", "2"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 90
            while _request(port, "GET", "/api/schema/", timeout=5) not in (200, 401):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start; see {log_path}")
                time.sleep(0.3)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            _purge_queue()


def _purge_queue() -> None:
    from config.celery import app

    with app.connection_for_write() as connection:
        connection.default_channel.queue_purge(QUEUE)  # type: ignore[attr-defined]


@pytest.fixture
def api(api_server: str, transactional_db: None, warehouse: Any) -> Api:
    plain = User.objects.create_user("plain", password="plain-pass-123")
    admin = User.objects.create_superuser("admin", password="admin-pass-123")
    return Api(
        base=api_server,
        plain_token=Token.objects.create(user=plain).key,
        admin_token=Token.objects.create(user=admin).key,
        log=ROOT / "var" / f"api-server-{os.getpid()}.log",
    )
