import os
import signal
import socket
import time
from dataclasses import dataclass
from pathlib import Path


class ServiceError(Exception):
    """A service could not be started or stopped; the message says why and what to do."""


@dataclass(frozen=True)
class ServiceStatus:
    name: str
    managed: bool  # run by this project (embedded), or configured elsewhere
    running: bool
    address: str
    detail: str = ""


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def wait_for_port(host: str, port: int, timeout: float, log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if port_open(host, port):
            return
        time.sleep(0.25)
    hint = f"; see {log}" if log else ""
    raise ServiceError(f"nothing answered on {host}:{port} after {timeout:.0f}s{hint}")


def ensure_port_free(name: str, host: str, port: int, setting: str) -> None:
    if port_open(host, port):
        raise ServiceError(
            f"{name}: port {port} on {host} is already taken by another program. "
            f"Stop that program, or set {setting} to a free port (or point the URL at it)."
        )


def read_pid(pidfile: Path) -> int | None:
    try:
        pid = int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    return pid


def terminate(pid: int, timeout: float = 20.0) -> None:
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
