import socket

from celery import shared_task


@shared_task(name="core.ping")
def ping(value: str) -> dict[str, str]:
    """Echo through the broker and a worker: proves the round trip."""
    return {"echo": value, "worker": socket.gethostname()}
