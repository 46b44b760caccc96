"""MariaDB / MySQL connections: the key in @aesKey, the scope in @customerIds etc."""

from __future__ import annotations

import ipaddress
import re

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

    def write_grants(self, conn: Connection) -> list[str]:
        found = _beyond_reading(conn, _grants(conn, "SHOW GRANTS"), seen=set())
        return list(dict.fromkeys(found))


# Privileges that only read. Anything else (EXECUTE included: a procedure may write) is
# reported.
_READ_PRIVILEGES = {"SELECT", "USAGE", "SHOW VIEW"}
_GRANT = re.compile(r"^GRANT (?P<privileges>.+?) ON (?P<target>\S+) TO ", re.IGNORECASE)
_ROLE = re.compile(r"^GRANT (?P<roles>.+?) TO ", re.IGNORECASE)


def _grants(conn: Connection, statement: str) -> list[str]:
    with conn.cursor() as cur:
        cur.execute(statement)
        return [row[0] for row in cur.fetchall()]


def _role_grants(conn: Connection, role: str) -> list[str] | None:
    """A granted role's privileges: SHOW GRANTS FOR it, or (where the server lets a login
    read only its own grants, as MariaDB does) SHOW GRANTS with the role set for a moment.
    None when neither is allowed."""
    try:
        return _grants(conn, f"SHOW GRANTS FOR {role}")
    except pymysql.MySQLError:
        pass
    with conn.cursor() as cur:
        cur.execute("SELECT CURRENT_ROLE()")
        (current,) = cur.fetchone()
        try:
            cur.execute(f"SET ROLE {role}")
            return _grants(conn, "SHOW GRANTS")
        except pymysql.MySQLError:
            return None
        finally:
            cur.execute(f"SET ROLE {current or 'NONE'}")


def _beyond_reading(conn: Connection, lines: list[str], seen: set[str]) -> list[str]:
    found: list[str] = []
    for line in lines:
        if " WITH GRANT OPTION" in line.upper() or " WITH ADMIN OPTION" in line.upper():
            found.append(f"GRANT OPTION ({line.split(' TO ')[0][6:]})")
        granted = _GRANT.match(line)
        if granted:
            # Column lists ("SELECT (a, b)") name columns, not privileges.
            privileges = re.sub(r"\([^)]*\)", "", granted["privileges"])
            for privilege in (p.strip().upper() for p in privileges.split(",")):
                if privilege and privilege not in _READ_PRIVILEGES:
                    found.append(f"{privilege} ON {granted['target']}")
        elif role_grant := _ROLE.match(line):
            for role in (r.strip() for r in role_grant["roles"].split(",")):
                if not role or role in seen:
                    continue
                seen.add(role)  # a role's grants count as the login's own
                granted_lines = _role_grants(conn, role)
                if granted_lines is None:
                    found.append(f"ROLE {role} (its privileges could not be read)")
                else:
                    found += _beyond_reading(conn, granted_lines, seen)
    return found
