"""What the loader needs from a database engine, and the SQL both engines share."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from core.databases.base import Connection, Database
from core.databases.scope import ScopeList

from ..schema import TABLE_BY_NAME, Column, Kind, Table
from ..security import SecureView, secure_view_name

# Bookkeeping table of the loader; never granted to the agent.
META_TABLE = "warehouseMeta"
META_COLUMNS = ("schemaVersion", "buildHash", "seed", "keyCheck", "status")


@dataclass(frozen=True)
class Meta:
    schema_version: str
    build_hash: str
    seed: int
    key_check: str  # sha256 of "switchboard:" + the AES key: tells a right key from a wrong one
    status: str = "ready"


class Engine(Database, ABC):
    """A core connection class (connect, tables, sessions) that can also build the warehouse."""

    # Column types by kind, in the engine's spelling; personal data has a type of its own.
    types: dict[Kind, str]
    unique_key = "UNIQUE"
    table_options = ""  # after the closing parenthesis of CREATE TABLE

    # --- databases ----------------------------------------------------------------------

    @abstractmethod
    def database_exists(self, server: Connection, name: str) -> bool: ...

    @abstractmethod
    def create_database(self, server: Connection, name: str) -> None: ...

    @abstractmethod
    def drop_database(self, server: Connection, name: str) -> None: ...

    def atomic(self, conn: Connection) -> AbstractContextManager[Any]:
        """Where the engine can, build everything in one transaction."""
        return nullcontext()

    # --- schema -------------------------------------------------------------------------

    @abstractmethod
    def encrypted_type(self, column: Column) -> str:
        """The type storing a personal-data column's ciphertext."""

    def column_type(self, column: Column) -> str:
        if column.pii:
            return self.encrypted_type(column)
        precision, scale = column.scale
        return self.types[column.kind].format(
            length=column.length, precision=precision, scale=scale
        )

    def create_table(self, table: Table) -> list[str]:
        """Statements creating the table (with its keys where the engine wants them early)."""
        q = self.quote
        lines = [
            f"{q(c.name)} {self.column_type(c)} {'NULL' if c.nullable else 'NOT NULL'}"
            for c in table.columns
        ]
        lines.append(f"PRIMARY KEY ({q('id')})")
        lines += [f"{self.unique_key} ({q(c.name)})" for c in table.columns if c.unique]
        lines += self.early_constraints(table)
        body = ",\n  ".join(lines)
        return [f"CREATE TABLE {q(table.name)} (\n  {body}\n){self.table_options}"]

    def early_constraints(self, table: Table) -> list[str]:
        """Constraints declared with the table itself rather than after the data."""
        return []

    def foreign_key(self, table: Table, column: Column) -> str:
        q = self.quote
        return (
            f"CONSTRAINT {q(f'fk_{table.name}_{column.name}')} FOREIGN KEY ({q(column.name)}) "
            f"REFERENCES {q(column.references or '')} ({q('id')})"
        )

    def finish_tables(self, tables: Sequence[Table]) -> list[str]:
        """Statements to run once the data is in (late foreign keys and indexes)."""
        return []

    @abstractmethod
    def install_functions(self, cur: Any) -> None:
        """Helper functions the views use to read the session's key and scope."""

    @abstractmethod
    def decrypt(self, ref: str, column: Column) -> str:
        """SQL giving the plaintext of an encrypted column, typed like the logical column."""

    @abstractmethod
    def in_scope(self, ref: str, scope: ScopeList) -> str:
        """SQL that is true when the scope list is unset or contains the id in ref."""

    def view(self, secure: SecureView) -> str:
        q = self.quote
        table = TABLE_BY_NAME[secure.table]
        columns = ", ".join(
            f"{self.decrypt(f't.{q(c.name)}', c)} AS {q(c.name)}" if c.pii else f"t.{q(c.name)}"
            for c in table.columns
        )
        where = [self.in_scope(f"t.{q(column)}", scope) for column, scope in secure.anchor_filters]
        if secure.owner:
            fk = f"t.{q(secure.owner.column)}"
            parent_view = q(secure_view_name(secure.owner.table))
            parent = f"{fk} IN (SELECT {q('id')} FROM {parent_view})"  # noqa: S608
            where.append(f"({fk} IS NULL OR {parent})" if secure.owner.nullable else parent)
        sql = f"CREATE VIEW {q(secure.view)} AS SELECT {columns} FROM {q(table.name)} t"  # noqa: S608
        return sql + (" WHERE " + " AND ".join(where) if where else "")

    # --- data ---------------------------------------------------------------------------

    @abstractmethod
    def set_load_key(self, cur: Any, aes_key: str) -> None: ...

    @abstractmethod
    def insert(self, cur: Any, table: Table, rows: list[tuple[Any, ...]]) -> None:
        """Insert rows (in column order), encrypting the table's personal data."""

    # --- bookkeeping, agent and sessions ------------------------------------------------

    def create_meta(self) -> str:
        q = self.quote
        columns = ", ".join(f"{q(name)} VARCHAR(64) NOT NULL" for name in META_COLUMNS)
        return f"CREATE TABLE {q(META_TABLE)} ({columns})"

    def read_meta(self, conn: Connection) -> Meta | None:
        if META_TABLE not in self.table_names(conn):
            return None
        columns = ", ".join(map(self.quote, META_COLUMNS))
        with conn.cursor() as cur:
            cur.execute(f"SELECT {columns} FROM {self.quote(META_TABLE)}")  # noqa: S608
            row = cur.fetchone()
        if row is None:
            return None
        version, build, seed, key_check, status = row
        return Meta(version, build, int(seed), key_check, status)

    def write_meta(self, cur: Any, meta: Meta) -> None:
        q = self.quote
        cur.execute(f"DELETE FROM {q(META_TABLE)}")  # noqa: S608
        cur.execute(
            f"INSERT INTO {q(META_TABLE)} VALUES (%s, %s, %s, %s, %s)",  # noqa: S608
            (meta.schema_version, meta.build_hash, str(meta.seed), meta.key_check, meta.status),
        )

    @abstractmethod
    def grant_agent(
        self, conn: Connection, database: str, user: str, password: str, readable: list[str]
    ) -> None:
        """Create or update the read-only agent login: SELECT on `readable`, nothing else."""
