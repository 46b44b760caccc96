"""Connections the SQL agent uses: its read-only login, with key and scope set."""

from __future__ import annotations

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
    NULL) and the scope lists that limit which customer-owned rows it sees.
    Returns a PyMySQL connection for mysql:// URLs and a psycopg one for postgres:// URLs.
    """
    target = WarehouseUrl.parse(url).as_user(user, password)
    database = database_for(target)
    conn = database.connect(target)
    try:
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
