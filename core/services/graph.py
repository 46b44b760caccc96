"""The Bolt graph server: ArcadeDB with its Bolt plugin, from the arcadedb-embedded wheel."""

import os
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings

from core.services.base import (
    ServiceError,
    ServiceStatus,
    ensure_port_free,
    port_open,
    read_pid,
    terminate,
)

HOST = "127.0.0.1"


def _root() -> Path:
    return settings.VAR_DIR / "arcadedb"


def _pidfile() -> Path:
    return _root() / "server.pid"


def _log_file() -> Path:
    return _root() / "server.log"


def start() -> str:
    if not settings.EMBEDDED_GRAPH:
        return "configured by GRAPH_URL: not managed here"
    port = settings.EMBEDDED_GRAPH_BOLT_PORT
    if read_pid(_pidfile()):
        return f"already running on {HOST}:{port}"
    ensure_port_free("graph", HOST, port, "EMBEDDED_GRAPH_BOLT_PORT")
    ensure_port_free(
        "graph (http)", HOST, settings.EMBEDDED_GRAPH_HTTP_PORT, "EMBEDDED_GRAPH_HTTP_PORT"
    )
    root = _root()
    (root / "databases").mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "core.services.arcadedb_server",
        "--root",
        str(root / "databases"),
        "--database",
        settings.GRAPH_DATABASE,
        "--password",
        settings.GRAPH_PASSWORD,
        "--bolt-port",
        str(port),
        "--http-port",
        str(settings.EMBEDDED_GRAPH_HTTP_PORT),
        "--heap",
        settings.EMBEDDED_GRAPH_HEAP,
    ]
    with _log_file().open("ab") as log:
        process = subprocess.Popen(
            command,
            cwd=root,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C in the starting shell must not reach it
            env={**os.environ, "PYTHONPATH": str(settings.BASE_DIR)},
        )
    _pidfile().write_text(str(process.pid))
    _wait_ready(process)
    return f"started on {HOST}:{port}"


def _wait_ready(process: subprocess.Popen[bytes], timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            _pidfile().unlink(missing_ok=True)
            raise ServiceError(f"graph: the server exited during start-up; see {_log_file()}")
        if port_open(HOST, settings.EMBEDDED_GRAPH_BOLT_PORT) and _log_says_ready():
            return
        time.sleep(0.5)
    raise ServiceError(f"graph: not ready after {timeout:.0f}s; see {_log_file()}")


def _log_says_ready() -> bool:
    try:
        tail = _log_file().read_bytes()[-4000:]
    except OSError:
        return False
    return b"ready: bolt" in tail


def stop() -> str:
    if not settings.EMBEDDED_GRAPH:
        return "configured by GRAPH_URL: not managed here"
    pid = read_pid(_pidfile())
    if pid is None:
        return "not running"
    terminate(pid)
    _pidfile().unlink(missing_ok=True)
    return "stopped"


def status() -> ServiceStatus:
    if not settings.EMBEDDED_GRAPH:
        host, _, port = settings.GRAPH_URL.split("://", 1)[-1].partition(":")
        reachable = port_open(host, int(port or 7687))
        return ServiceStatus("graph", False, reachable, settings.GRAPH_URL, "GRAPH_URL")
    running = read_pid(_pidfile()) is not None
    return ServiceStatus("graph", True, running, settings.GRAPH_URL, str(_root()))
