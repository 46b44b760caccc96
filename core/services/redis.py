"""Redis: the one on REDIS_URL; started here only when it is local and not running."""

import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings

from core.services.base import ServiceError, ServiceStatus, port_open, read_pid, terminate

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def _address() -> tuple[str, int]:
    url = urlparse(settings.REDIS_URL)
    return url.hostname or "127.0.0.1", url.port or 6379


def _root() -> Path:
    return settings.VAR_DIR / "redis"


def start() -> str:
    host, port = _address()
    if port_open(host, port):
        return f"running on {host}:{port}"
    if host not in LOCAL_HOSTS:
        raise ServiceError(f"redis: nothing answers on {host}:{port} (REDIS_URL)")
    binary = shutil.which("redis-server")
    if binary is None:
        raise ServiceError(
            "redis: redis-server is not installed; run: apt-get install redis-server"
        )
    _root().mkdir(parents=True, exist_ok=True)
    pidfile = _root() / "redis.pid"
    subprocess.run(
        [
            binary,
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--daemonize", "yes",
            "--pidfile", str(pidfile),
            "--dir", str(_root()),
            "--logfile", str(_root() / "redis.log"),
        ],
        check=True,
    )  # fmt: skip
    from core.services.base import wait_for_port

    wait_for_port(host, port, 10, _root() / "redis.log")
    return f"started on {host}:{port}"


def stop() -> str:
    pid = read_pid(_root() / "redis.pid")
    if pid is None:
        return "not started here"
    terminate(pid)
    return "stopped"


def status() -> ServiceStatus:
    host, port = _address()
    managed = read_pid(_root() / "redis.pid") is not None
    return ServiceStatus("redis", managed, port_open(host, port), settings.REDIS_URL)
