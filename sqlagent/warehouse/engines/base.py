"""What the loader needs from a database engine, and the SQL both engines share."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from ..schema import TABLE_BY_NAME, Column, Table
from ..security import ScopeList, SecureView, secure_view_name
from ..urls import WarehouseUrl

# A DB-API connection (pymysql or psycopg); both take %s placeholders.
Connection = Any

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


@dataclass(frozen=True)
class Scope:
    """Row-level scope of a session; None means unrestricted, an empty list means nothing."""

    customer_ids: Sequence[int] | None = None
    service_location_ids: Sequence[int] | None = None
    work_order_ids: Sequence[int] | None = None

    def lists(self) -> dict[ScopeList, str | None]:
        def encode(ids: Sequence[int] | None) -> str | None:
            # An empty list becomes "0", an id no row has, so the session sees nothing.
            return None if ids is None else ",".join(str(int(i)) for i in ids) or "0"

        return {
            ScopeList.CUSTOMERS: encode(self.customer_ids),
            ScopeList.LOCATIONS: encode(self.service_location_ids),
            ScopeList.WORK_ORDERS: encode(self.work_order_ids),
        }


class Engine(ABC):
    name: str

    # --- connections and databases ------------------------------------------------------

    @abstractmethod
    def connect(self, url: WarehouseUrl, *, server_only: bool = False) -> Connection:
        """A connection to url's database, or to the server alone (to create databases)."""

    @abstractmethod
    def database_exists(self, server: Connection, name: str) -> bool: ...

    @abstractmethod
    def create_database(self, server: Connection, name: str) -> None: ...

    @abstractmethod
    def drop_database(self, server: Connection, name: str) -> None: ...

    @abstractmethod
    def table_names(self, conn: Connection) -> set[str]: ...

    def atomic(self, conn: Connection) -> AbstractContextManager[Any]:
        """Where the engine can, build everything in one transaction."""
        return nullcontext()

    # --- schema -------------------------------------------------------------------------

    @abstractmethod
    def quote(self, name: str) -> str: ...

    @abstractmethod
    def create_table(self, table: Table) -> list[str]:
        """Statements creating the table (with its keys where the engine wants them early)."""

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

    @abstractmethod
    def start_session(self, conn: Connection, aes_key: str | None, scope: Scope) -> None:
        """Set the session's decryption key and scope lists."""
