"""`manage.py serve`: server processes that share a port, stop together and refuse a port
that is taken."""

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from core.management.commands.serve import FAILED_START_SECONDS

ROOT = Path(__file__).resolve().parents[2]
READY: dict[int, float] = {}  # pid of a `serve` -> when both its processes listened


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _status(port: int) -> int | None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/accounts/login/")
        return connection.getresponse().status
    except OSError:
        return None
    finally:
        connection.close()


def _serve(
    port: int, workers: int, output: Any = subprocess.PIPE, **env: str
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", str(workers),
         "--no-access-log"],
        cwd=ROOT, env={**os.environ, **env}, stdout=output, stderr=subprocess.STDOUT,
    )  # fmt: skip


def _listeners(port: int) -> set[int]:
    return {
        c.pid
        for c in psutil.net_connections("tcp")
        if c.laddr and c.laddr.port == port and c.status == psutil.CONN_LISTEN and c.pid
    }


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = _free_port()
    log = tmp_path / "serve.log"  # not a pipe: a full pipe would stop the servers' logging
    process = _serve(port, workers=2, output=log.open("wb"))
    deadline = time.monotonic() + 90
    while _status(port) != 200 or len(_listeners(port)) < 2:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            pytest.fail(f"the server did not start: {log.read_text()[-2000:]}")
        time.sleep(0.5)
    READY[process.pid] = time.monotonic()
    yield port, process
    if process.poll() is None:
        process.kill()
        process.wait()


def test_each_process_listens_on_the_port_and_all_stop_together(
    served: tuple[int, subprocess.Popen[bytes]],
) -> None:
    port, process = served
    listeners = _listeners(port)
    assert len(listeners) == 2  # a socket each, not one shared
    assert listeners <= {p.pid for p in psutil.Process(process.pid).children()}
    servers = [psutil.Process(pid) for pid in listeners]

    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    _, alive = psutil.wait_procs(servers, timeout=5)
    assert not alive
    assert _status(port) is None


def test_a_killed_parent_takes_its_processes_with_it(
    served: tuple[int, subprocess.Popen[bytes]],
) -> None:
    port, process = served
    servers = [psutil.Process(pid) for pid in _listeners(port)]
    process.kill()
    process.wait()
    _, alive = psutil.wait_procs(servers, timeout=30)
    assert not alive
    assert _status(port) is None


def test_a_taken_port_is_refused(served: tuple[int, subprocess.Popen[bytes]]) -> None:
    port, _ = served
    second = _serve(port, workers=1)
    output = second.communicate(timeout=60)[0].decode()
    assert second.returncode != 0
    assert f"127.0.0.1:{port} is already taken" in output
    assert _status(port) == 200  # the first server is untouched


def test_a_process_that_dies_is_started_again(
    served: tuple[int, subprocess.Popen[bytes]],
) -> None:
    port, process = served
    before = _listeners(port)
    # One that ends soon after starting failed to start; one that served a while is replaced.
    time.sleep(max(0.0, FAILED_START_SECONDS - (time.monotonic() - READY[process.pid]) + 1))
    victim = psutil.Process(min(before))
    victim.kill()
    victim.wait(timeout=10)
    deadline = time.monotonic() + 90
    while len(_listeners(port) - {victim.pid}) < 2:
        assert time.monotonic() < deadline, "no process took the place of the one that died"
        time.sleep(0.5)
    assert process.poll() is None
    assert _status(port) == 200


def _probe(port: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PORT": str(port), "ALLOWED_HOSTS": "127.0.0.1,localhost"}
    return subprocess.run(
        [sys.executable, "-m", "core.probe"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.django_db  # the server reads the test database (settings name it only then)
def test_the_container_probe_passes_only_while_healthz_does(
    celery_worker: str, tmp_path: Path
) -> None:
    from tests.conftest import _database_url

    port = _free_port()
    log = tmp_path / "serve.log"
    process = _serve(port, workers=1, output=log.open("wb"), DATABASE_URL=_database_url())
    try:
        deadline = time.monotonic() + 120  # the first /healthz of a process loads the model
        while (result := _probe(port)).returncode != 0:
            assert process.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, result.stderr
            time.sleep(2)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    stopped = _probe(port)
    assert stopped.returncode == 1 and "unhealthy" in stopped.stderr
