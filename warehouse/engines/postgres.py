"""PostgreSQL: pgcrypto at rest, the key and scope in custom settings (switchboard.*)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from psycopg import sql

from core.databases.base import Connection
from core.databases.postgres import PostgresDatabase
from core.databases.scope import POSTGRES_KEY_SETTING, ScopeList

from ..schema import Column, Kind, Table
from .base import META_TABLE, Engine


class PostgresEngine(PostgresDatabase, Engine):
    types = {
        Kind.INT: "integer",
        Kind.STRING: "varchar({length})",
        Kind.TEXT: "text",
        Kind.BOOL: "boolean",
        Kind.DATE: "date",
        Kind.TIMESTAMP: "timestamp",
        Kind.DECIMAL: "numeric({precision}, {scale})",
    }

    def database_exists(self, server: Connection, name: str) -> bool:
        row = server.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        return row is not None

    def create_database(self, server: Connection, name: str) -> None:
        # "C" collation: case-sensitive, byte-ordered, like utf8mb4_bin on MySQL.
        server.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'").format(
                sql.Identifier(name)
            )
        )

    def drop_database(self, server: Connection, name: str) -> None:
        server.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )

    def atomic(self, conn: Connection) -> AbstractContextManager[Any]:
        return conn.transaction()

    def encrypted_type(self, column: Column) -> str:
        return "bytea"

    def finish_tables(self, tables: Sequence[Table]) -> list[str]:
        # Foreign keys and their indexes come after the data, not in CREATE TABLE: much faster.
        q = self.quote
        statements = []
        for table in tables:
            for c in table.foreign_keys:
                statements.append(f"ALTER TABLE {q(table.name)} ADD {self.foreign_key(table, c)}")
                statements.append(f"CREATE INDEX ON {q(table.name)} ({q(c.name)})")
        return [*statements, "ANALYZE"]

    def install_functions(self, cur: Any) -> None:
        cur.execute("CREATE EXTENSION IF NOT EXISTS pgcrypto")
        # The key is only handed out when it is the one the data was encrypted with, so a
        # wrong key reads NULLs (as on MySQL) instead of failing inside decrypt().
        cur.execute(
            f"""
            CREATE FUNCTION sb_aes_key() RETURNS bytea LANGUAGE sql STABLE SECURITY DEFINER
            SET search_path = public, pg_temp AS $$
              SELECT digest(s.k, 'sha256')
              FROM (SELECT current_setting('{POSTGRES_KEY_SETTING}', true) AS k) s
              JOIN {self.quote(META_TABLE)} m
                ON m."keyCheck" = encode(digest('switchboard:' || s.k, 'sha256'), 'hex')
            $$"""  # noqa: S608
        )
        cur.execute(
            """
            CREATE FUNCTION sb_scope_ids(setting text) RETURNS bigint[] LANGUAGE sql STABLE AS $$
              SELECT string_to_array(nullif(current_setting(setting, true), ''), ',')::bigint[]
            $$"""
        )

    def decrypt(self, ref: str, column: Column) -> str:
        # The scalar subquery is an InitPlan: evaluated once per query.
        text = f"convert_from(decrypt({ref}, (SELECT sb_aes_key()), 'aes'), 'UTF8')"
        plain = {Kind.DATE: "date", Kind.STRING: f"varchar({column.length})"}
        return f"CAST({text} AS {plain.get(column.kind, 'text')})"

    def in_scope(self, ref: str, scope: ScopeList) -> str:
        ids = f"(SELECT sb_scope_ids('{scope.postgres_setting}'))"
        # The cast makes ANY read an array, not the rows of a subquery.
        return f"({ids} IS NULL OR {ref} = ANY (CAST({ids} AS bigint[])))"

    def set_load_key(self, cur: Any, aes_key: str) -> None:
        cur.execute("SELECT set_config(%s, %s, false)", (POSTGRES_KEY_SETTING, aes_key))

    def insert(self, cur: Any, table: Table, rows: list[tuple[Any, ...]]) -> None:
        q = self.quote
        names = ", ".join(q(c.name) for c in table.columns)
        if not table.pii_columns:
            with cur.copy(f"COPY {q(table.name)} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        # Personal data goes through a plaintext temporary table and is encrypted on the way
        # into the real one, so nothing but ciphertext is ever stored there.
        stage = q(f"stage_{table.name}")
        stage_columns = ", ".join(
            f"{q(c.name)} {'text' if c.pii else self.column_type(c)}" for c in table.columns
        )
        cur.execute(f"CREATE TEMP TABLE {stage} ({stage_columns}) ON COMMIT DROP")
        with cur.copy(f"COPY {stage} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        values = ", ".join(
            f"encrypt(convert_to({q(c.name)}, 'UTF8'), sb_aes_key(), 'aes')" if c.pii else q(c.name)
            for c in table.columns
        )
        insert = f"INSERT INTO {q(table.name)} ({names}) SELECT {values} FROM {stage}"  # noqa: S608
        cur.execute(insert)

    def grant_agent(
        self, conn: Connection, database: str, user: str, password: str, readable: list[str]
    ) -> None:
        role, db = sql.Identifier(user), sql.Identifier(database)
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (user,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(role))
        conn.execute(
            sql.SQL(
                "ALTER ROLE {} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD {}"
            ).format(role, sql.Literal(password))
        )
        conn.execute(sql.SQL("ALTER ROLE {} SET default_transaction_read_only = on").format(role))
        # Nobody but the granted roles may connect or create temporary tables here.
        conn.execute(sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(db))
        conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(db, role))
        conn.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(role))
        conn.execute(sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {}").format(role))
        conn.execute(
            sql.SQL("GRANT SELECT ON {} TO {}").format(
                sql.SQL(", ").join(sql.Identifier(name) for name in readable), role
            )
        )
