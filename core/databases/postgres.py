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

    def write_grants(self, conn: Connection) -> list[str]:
        found = [row[0] for row in conn.execute(_ROLE_POWERS).fetchall()]
        found += [row[0] for row in conn.execute(_WRITABLE).fetchall()]
        return found


_ROLE_POWERS = """
SELECT power FROM pg_roles r, LATERAL (VALUES
    ('SUPERUSER', r.rolsuper), ('CREATEROLE', r.rolcreaterole), ('CREATEDB', r.rolcreatedb),
    ('BYPASSRLS', r.rolbypassrls)) AS p(power, held)
WHERE r.rolname = current_user AND held
"""

# Writes on any table or view outside the catalogue, new objects in a schema, new schemas.
_WRITABLE = """
SELECT privilege || ' ON ' || quote_ident(n.nspname) || '.' || quote_ident(c.relname)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS p(privilege)
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
  AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
  AND has_table_privilege(c.oid, privilege)
UNION ALL
SELECT 'CREATE ON SCHEMA ' || quote_ident(nspname) FROM pg_namespace
WHERE nspname <> 'information_schema' AND nspname NOT LIKE 'pg\\_%'
  AND has_schema_privilege(oid, 'CREATE')
UNION ALL
SELECT 'CREATE ON DATABASE ' || quote_ident(current_database())
WHERE has_database_privilege(current_database(), 'CREATE')
"""
