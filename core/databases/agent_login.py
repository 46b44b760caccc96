"""The SQL agent's warehouse login may only read. A login that can write is refused when a
server or worker starts and on each process's first connection, with what it may do."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from .base import Connection, Database
from .urls import WarehouseUrl

SHOWN_GRANTS = 5
_READ_ONLY: set[tuple[str, int, str, str]] = set()  # logins this process found read-only


class AgentLoginCanWrite(ImproperlyConfigured):
    """The configured agent login holds privileges beyond reading."""


def refusal(user: str, grants: list[str]) -> str:
    shown = ", ".join(grants[:SHOWN_GRANTS])
    if len(grants) > SHOWN_GRANTS:
        shown += f" and {len(grants) - SHOWN_GRANTS} more"
    return (
        f"the SQL agent's warehouse login {user!r} can write ({shown}); give it SELECT only "
        "or set WAREHOUSE_AGENT_USER to a read-only login (docs/deployment.md)"
    )


def ensure_read_only(database: Database, conn: Connection, target: WarehouseUrl) -> None:
    """Raise AgentLoginCanWrite unless conn's login only reads (checked once a process)."""
    key = (target.host, target.port, target.database, target.user)
    if key in _READ_ONLY:
        return
    grants = database.write_grants(conn)
    if grants:
        raise AgentLoginCanWrite(refusal(target.user, grants))
    _READ_ONLY.add(key)
