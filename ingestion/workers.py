"""Who holds a claim on a file or a job, and whether that holder is still alive."""

import os
import socket
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def holder_alive(holder: str, heartbeat: datetime | None) -> bool:
    """A holder on this host is alive while its process is; on another host, while its
    heartbeat is recent."""
    if not holder:
        return False
    host, _, pid = holder.rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        return _pid_alive(int(pid))
    stale = timezone.now() - timedelta(seconds=settings.INGESTION_STALE_SECONDS)
    return heartbeat is not None and heartbeat > stale
