import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from core.services import SERVICES, ServiceError, postgres

ROOT = Path(__file__).resolve().parents[2]


def test_status_reports_every_service_running() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "services", "status"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    for name in SERVICES:
        assert f"{name}" in result.stdout
    assert "down" not in result.stdout


def test_start_is_idempotent() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "services", "start"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "started on" not in result.stdout  # everything was already up


def test_a_taken_port_gets_a_clear_message(settings, tmp_path: Path) -> None:
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        settings.EMBEDDED_POSTGRES = True
        settings.EMBEDDED_POSTGRES_PORT = blocker.getsockname()[1]
        settings.VAR_DIR = tmp_path

        with pytest.raises(ServiceError) as error:
            postgres.start()

    message = str(error.value)
    assert f"port {settings.EMBEDDED_POSTGRES_PORT}" in message
    assert "EMBEDDED_POSTGRES_PORT" in message
    assert not (tmp_path / "postgres" / "data" / "PG_VERSION").exists()  # nothing was created


def test_unknown_service_name_is_an_error() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "services", "status", "mongo"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, env={**os.environ},
    )  # fmt: skip
    assert result.returncode != 0
    assert "unknown service" in result.stderr
