"""PostgreSQL connections: the key and scope in custom settings (switchboard.*)."""

from __future__ import annotations

import psycopg

from .base import Connection, Database
from .scope import POSTGRES_KEY_SETTING, Scope
from .urls import EngineName, WarehouseUrl

# Schemas that hold the server's own catalogue, never a warehouse's tables.
_USER_SCHEMAS = """
SELECT nspname FROM pg_catalog.pg_namespace
WHERE nspname <> 'information_schema' AND nspname NOT LIKE 'pg\\_%'
ORDER BY nspname <> 'public', nspname
"""


def set_search_path(conn: Connection, schemas: tuple[str, ...]) -> None:
    """Unqualified names find tables in `schemas`, or in every non-system schema when none
    are named (a database whose tables live outside `public` reads like any other)."""
    with conn.cursor() as cursor:
        if not schemas:
            cursor.execute(_USER_SCHEMAS)
            schemas = tuple(row[0] for row in cursor.fetchall())
        path = ", ".join('"' + s.replace('"', '""') + '"' for s in schemas) or "public"
        cursor.execute("SELECT set_config('search_path', %s, false)", (path,))


class PostgresDatabase(Database):
    name: EngineName = "postgres"

    def connect(self, url: WarehouseUrl, *, server_only: bool = False) -> Connection:
        conn = psycopg.connect(
            host=url.host,
            port=url.port,
            user=url.user,
            password=url.password or None,
            dbname="postgres" if server_only else url.database,
            autocommit=True,
        )
        if not server_only:
            set_search_path(conn, url.schemas)
        return conn

    def table_names(self, conn: Connection) -> set[str]:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
        return {row[0] for row in rows}

    def quote(self, name: str) -> str:
        return '"' + name.replace('"', '""') + '"'

    def start_session(self, conn: Connection, aes_key: str | None, scope: Scope) -> None:
        settings = [(POSTGRES_KEY_SETTING, aes_key or "")]
        settings += [(s.postgres_setting, ids or "") for s, ids in scope.lists().items()]
        for name, value in settings:
            conn.execute("SELECT set_config(%s, %s, false)", (name, value))
