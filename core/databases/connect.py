"""Connections the SQL agent uses: its read-only login, with key and scope set."""

from __future__ import annotations

from django.conf import settings

from .agent_login import AgentLoginCanWrite, ensure_read_only
from .base import Connection, Database
from .mysql import MySQLDatabase
from .postgres import PostgresDatabase
from .scope import Scope
from .urls import EngineName, WarehouseUrl


def database_for(url: WarehouseUrl) -> Database:
    return MySQLDatabase() if url.engine == "mysql" else PostgresDatabase()


def connect_agent(
    url: str,
    *,
    user: str,
    password: str,
    aes_key: str | None,
    scope: Scope | None = None,
) -> Connection:
    """Open an autocommit connection to url's database as the agent login.

    `url` is the warehouse URL (its credentials are replaced by `user`/`password`). The
    session gets the AES key the secure views decrypt with (None: personal data reads as
    NULL) and the scope lists that limit which customer-owned rows it sees. A login that
    can write raises AgentLoginCanWrite.
    Returns a PyMySQL connection for mysql:// URLs and a psycopg one for postgres:// URLs.
    """
    target = WarehouseUrl.parse(url).as_user(user, password)
    database = database_for(target)
    conn = database.connect(target)
    try:
        ensure_read_only(database, conn, target)
        database.start_session(conn, aes_key, scope or Scope())
    except Exception:
        conn.close()
        raise
    return conn


def set_session(
    conn: Connection, url: str, aes_key: str | None, scope: Scope | None = None
) -> None:
    """Change the key and scope of an open connection to url's warehouse."""
    database_for(WarehouseUrl.parse(url)).start_session(conn, aes_key, scope or Scope())


def engine_of(url: str) -> EngineName:
    """ "mysql" or "postgres": the SQL dialect queries for url must be written in."""
    return WarehouseUrl.parse(url).engine


def check_configured_agent() -> str:
    """Check WAREHOUSE_AGENT_USER on WAREHOUSE_URL now. Raises AgentLoginCanWrite, or the
    driver's error when the warehouse cannot be reached; returns a line for the logs."""
    target = WarehouseUrl.parse(settings.WAREHOUSE_URL).as_user(
        settings.WAREHOUSE_AGENT_USER, settings.WAREHOUSE_AGENT_PASSWORD
    )
    database = database_for(target)
    conn = database.connect(target)
    try:
        ensure_read_only(database, conn, target)
    finally:
        conn.close()
    return f"{target.user} reads {target.engine}://{target.host}:{target.port}/{target.database}"


def check_at_start() -> str:
    """The start-up check of servers and workers: a line to log. A warehouse out of reach
    is not a configuration error (its questions are declined while it is down); a login
    that can write is, and raises AgentLoginCanWrite."""
    try:
        return "warehouse agent login: " + check_configured_agent()
    except AgentLoginCanWrite:
        raise
    except Exception as error:  # each driver has its own error classes
        return f"warehouse agent login not checked, the warehouse is not reachable: {error}"
