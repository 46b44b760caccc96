"""What the agent needs of a database engine: a connection, the tables there, and a session
with the key and row scope set."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from .scope import Scope
from .urls import EngineName, WarehouseUrl

# A DB-API connection (pymysql or psycopg); both take %s placeholders.
Connection = Any


class Database(ABC):
    name: EngineName

    @abstractmethod
    def connect(self, url: WarehouseUrl, *, server_only: bool = False) -> Connection:
        """An autocommit connection to url's database, or to the server alone (to create
        databases)."""

    @abstractmethod
    def table_names(self, conn: Connection) -> set[str]: ...

    @abstractmethod
    def quote(self, name: str) -> str: ...

    @abstractmethod
    def start_session(self, conn: Connection, aes_key: str | None, scope: Scope) -> None:
        """Set the session's decryption key and scope lists."""

    @abstractmethod
    def write_grants(self, conn: Connection) -> list[str]:
        """What the connected login may do beyond reading ("INSERT ON shop.orders"); empty
        for a read-only login."""
