"""MariaDB / MySQL connections: the key in @aesKey, the scope in @customerIds etc."""

from __future__ import annotations

import ipaddress

import pymysql

from .base import Connection, Database
from .scope import MYSQL_KEY_VARIABLE, Scope, ScopeList
from .urls import EngineName, WarehouseUrl

_SESSION_VARIABLES = [MYSQL_KEY_VARIABLE, *(scope.mysql_variable for scope in ScopeList)]
SET_SESSION = "SET " + ", ".join(f"@{name} = %s" for name in _SESSION_VARIABLES)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class MySQLDatabase(Database):
    name: EngineName = "mysql"

    def connect(self, url: WarehouseUrl, *, server_only: bool = False) -> Connection:
        return pymysql.connect(
            host=url.host,
            port=url.port,
            user=url.user,
            password=url.password,
            database=None if server_only else url.database,
            charset="utf8mb4",
            autocommit=True,
            # TLS over loopback protects nothing, and pymysql builds a new SSL context for
            # every connection (about 10 ms of CPU per question); elsewhere TLS is preferred.
            ssl_disabled=_loopback(url.host),
        )

    def table_names(self, conn: Connection) -> set[str]:
        with conn.cursor() as cur:
            cur.execute(
                "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()"
            )
            return {row[0] for row in cur.fetchall()}

    def quote(self, name: str) -> str:
        return "`" + name.replace("`", "``") + "`"

    def start_session(self, conn: Connection, aes_key: str | None, scope: Scope) -> None:
        lists = scope.lists()
        with conn.cursor() as cur:
            cur.execute(SET_SESSION, (aes_key, *(lists[s] for s in ScopeList)))
