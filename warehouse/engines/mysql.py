"""MariaDB / MySQL: AES_ENCRYPT at rest, the key in @aesKey, scope in @customerIds etc."""

from __future__ import annotations

from typing import Any

from core.databases.base import Connection
from core.databases.mysql import MySQLDatabase
from core.databases.scope import MYSQL_KEY_VARIABLE, ScopeList

from ..schema import Column, Kind, Table
from .base import META_TABLE, Engine

# Binary collation: case-sensitive and byte-ordered, like PostgreSQL's "C" collation, so
# one query gives the same answer on both engines.
CHARSET = "CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
BATCH_ROWS = 2000
# Views may not read user variables directly, so small functions hand them over.
SCOPE_FUNCTIONS = {scope: f"sb_{scope.value[1]}" for scope in ScopeList}


class MySQLEngine(MySQLDatabase, Engine):
    types = {
        Kind.INT: "INT",
        Kind.STRING: "VARCHAR({length})",
        Kind.TEXT: "TEXT",
        Kind.BOOL: "BOOLEAN",
        Kind.DATE: "DATE",
        Kind.TIMESTAMP: "DATETIME",
        Kind.DECIMAL: "DECIMAL({precision}, {scale})",
    }
    unique_key = "UNIQUE KEY"
    table_options = f" ENGINE=InnoDB {CHARSET}"

    def database_exists(self, server: Connection, name: str) -> bool:
        with server.cursor() as cur:
            cur.execute("SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = %s", (name,))
            return cur.fetchone() is not None

    def create_database(self, server: Connection, name: str) -> None:
        with server.cursor() as cur:
            cur.execute(f"CREATE DATABASE IF NOT EXISTS {self.quote(name)} {CHARSET}")

    def drop_database(self, server: Connection, name: str) -> None:
        with server.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS {self.quote(name)}")

    def encrypted_type(self, column: Column) -> str:
        # AES output: whole 16-byte blocks; allow 4 bytes per character.
        return f"VARBINARY({16 * (4 * max(column.length, 10) // 16 + 1)})"

    def early_constraints(self, table: Table) -> list[str]:
        # InnoDB indexes each foreign key column itself.
        return [self.foreign_key(table, c) for c in table.foreign_keys]

    def install_functions(self, cur: Any) -> None:
        q, key = self.quote, f"@{MYSQL_KEY_VARIABLE}"
        cur.execute(
            "CREATE FUNCTION sb_aes_key() RETURNS VARBINARY(255) READS SQL DATA "  # noqa: S608
            f"RETURN (SELECT IF({q('keyCheck')} = SHA2(CONCAT('switchboard:', {key}), 256), "
            f"{key}, NULL) FROM {q(META_TABLE)} LIMIT 1)"
        )
        for scope, function in SCOPE_FUNCTIONS.items():
            cur.execute(
                f"CREATE FUNCTION {function}() RETURNS TEXT {CHARSET} NO SQL "
                f"RETURN @{scope.mysql_variable}"
            )

    def decrypt(self, ref: str, column: Column) -> str:
        # The scalar subquery runs once per query, not once per row.
        text = f"CONVERT(AES_DECRYPT({ref}, (SELECT sb_aes_key())) USING utf8mb4)"
        if column.kind == Kind.DATE:
            return f"CAST({text} AS DATE)"
        return f"CAST({text} AS CHAR({column.length})) COLLATE utf8mb4_bin"

    def in_scope(self, ref: str, scope: ScopeList) -> str:
        ids = f"(SELECT {SCOPE_FUNCTIONS[scope]}())"
        return f"({ids} IS NULL OR FIND_IN_SET({ref}, {ids}) > 0)"

    def set_load_key(self, cur: Any, aes_key: str) -> None:
        cur.execute(f"SET @{MYSQL_KEY_VARIABLE} = %s", (aes_key,))

    def insert(self, cur: Any, table: Table, rows: list[tuple[Any, ...]]) -> None:
        q = self.quote
        names = ", ".join(q(c.name) for c in table.columns)
        slot = (
            "("
            + ", ".join("AES_ENCRYPT(%s, sb_aes_key())" if c.pii else "%s" for c in table.columns)
            + ")"
        )
        for start in range(0, len(rows), BATCH_ROWS):
            batch = rows[start : start + BATCH_ROWS]
            values = ", ".join([slot] * len(batch))
            cur.execute(
                f"INSERT INTO {q(table.name)} ({names}) VALUES {values}",  # noqa: S608
                [value for row in batch for value in row],
            )

    def grant_agent(
        self, conn: Connection, database: str, user: str, password: str, readable: list[str]
    ) -> None:
        q = self.quote
        with conn.cursor() as cur:
            cur.execute("CREATE USER IF NOT EXISTS %s@'%%' IDENTIFIED BY %s", (user, password))
            cur.execute("ALTER USER %s@'%%' IDENTIFIED BY %s", (user, password))
            # Start from nothing on this database: grants outlive dropped tables in MySQL.
            cur.execute(
                "SELECT Table_name FROM mysql.tables_priv "
                "WHERE User = %s AND Host = '%%' AND Db = %s",
                (user, database),
            )
            for (name,) in cur.fetchall():
                cur.execute(
                    f"REVOKE ALL PRIVILEGES ON {q(database)}.{q(name)} FROM %s@'%%'", (user,)
                )
            cur.execute(
                "SELECT 1 FROM mysql.db WHERE User = %s AND Host = '%%' AND Db = %s",
                (user, database),
            )
            if cur.fetchone():
                cur.execute(f"REVOKE ALL PRIVILEGES ON {q(database)}.* FROM %s@'%%'", (user,))
            for name in readable:
                cur.execute(f"GRANT SELECT ON {q(database)}.{q(name)} TO %s@'%%'", (user,))
