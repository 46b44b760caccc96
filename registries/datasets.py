"""Load third-party sample databases (Chinook, Spider) into MariaDB/MySQL or PostgreSQL.

They give introspection, bootstrap and the SQL agent's evaluation schemas nobody on this
project wrote. Loading is idempotent: a database that already holds every table is left
alone unless `force` is given; a load that fails half-way drops what it created.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pymysql
from django.conf import settings
from psycopg import sql as pgsql
from pymysql.constants import CLIENT

from core.databases.urls import WarehouseUrl

from . import sql

# Spider train databases that look like a business's own: orders, invoices, staff, assets.
BUSINESS_SPIDER_DBS = (
    "customers_and_invoices",
    "department_store",
    "customer_deliveries",
    "tracking_orders",
    "products_for_hire",
    "customers_campaigns_ecommerce",
    "assets_maintenance",
    "hr_1",
)
CHINOOK_TABLES = 11
SPIDER_SPLITS = ("dev", "held-out")


def spider_split(name: str) -> str:
    """A Spider database's half, from its name alone (a quarter held out): development never
    sees the held-out databases, and the split never depends on results."""
    return "held-out" if hashlib.sha256(name.encode("utf-8")).digest()[0] % 4 == 0 else "dev"


class DatasetError(RuntimeError):
    pass


# A database on a MariaDB/MySQL or PostgreSQL server; its database may be empty (a server URL).
Target = WarehouseUrl


def _target(url: str) -> Target:
    try:
        return Target.parse(url, require_database=False)
    except ValueError as error:
        raise DatasetError(f"{error}: use mysql:// or postgres://") from error


def datasets_dir() -> Path:
    return Path(settings.DATASETS_DIR)


def _mysql(target: Target, *, database: bool = True) -> pymysql.connections.Connection[Any]:
    return pymysql.connect(
        host=target.host,
        port=target.port,
        user=target.user,
        password=target.password,
        database=target.database if database else None,
        charset="utf8mb4",
        client_flag=CLIENT.MULTI_STATEMENTS,
        autocommit=True,
    )


def _postgres(target: Target, database: str) -> psycopg.Connection[Any]:
    return psycopg.connect(
        host=target.host,
        port=target.port,
        user=target.user,
        password=target.password or None,
        dbname=database,
        autocommit=True,
    )


def _mysql_q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _run_script(cursor: Any, script: str) -> None:
    cursor.execute(script)
    while cursor.nextset():  # a multi-statement script answers once per statement
        pass


def existing_tables(target: Target) -> set[str] | None:
    """Tables in the target database, or None when the database does not exist."""
    if target.engine == "mysql":
        with closing(_mysql(target, database=False)) as conn, conn.cursor() as cur:
            cur.execute(sql.MYSQL_DATABASE_TABLES, {"database": target.database})
            names = {row[0] for row in cur.fetchall()}
            cur.execute(sql.MYSQL_DATABASE_EXISTS, {"database": target.database})
            return names if cur.fetchone() else None
    with closing(_postgres(target, "postgres")) as server:
        found = server.execute(sql.POSTGRES_DATABASE_EXISTS, {"database": target.database})
        if not found.fetchone():
            return None
    with closing(_postgres(target, target.database)) as pg:
        return {row[0] for row in pg.execute(sql.POSTGRES_TABLES).fetchall()}


@contextmanager
def _fresh_database(target: Target) -> Iterator[None]:
    """(Re)create the database; drop it again if filling it fails."""
    if target.engine == "mysql":
        with closing(_mysql(target, database=False)) as conn, conn.cursor() as cur:
            _run_script(cur, sql.mysql_recreate_database(_mysql_q(target.database)))
    else:
        with closing(_postgres(target, "postgres")) as server:
            name = pgsql.Identifier(target.database).as_string(server)
            server.execute(sql.drop_database(name))
            server.execute(sql.create_database(name))
    try:
        yield
    except BaseException:
        drop(target)
        raise


def drop(target: Target) -> None:
    if target.engine == "mysql":
        with closing(_mysql(target, database=False)) as conn, conn.cursor() as cur:
            cur.execute(sql.drop_database(_mysql_q(target.database)))
    else:
        with closing(_postgres(target, "postgres")) as server:
            name = pgsql.Identifier(target.database).as_string(server)
            server.execute(sql.drop_database(name))


def load_chinook(url: str, *, force: bool = False) -> bool:
    """Chinook into the database named by url (mysql:// or postgres://); True if loaded."""
    target = _target(url)
    if not target.database:
        raise DatasetError("the URL must name the database to create, e.g. .../chinook")
    tables = existing_tables(target)
    if tables is not None and len(tables) >= CHINOOK_TABLES and not force:
        return False
    folder = datasets_dir() / "chinook"
    if target.engine == "mysql":
        script = (folder / "Chinook_MySql.sql").read_text(encoding="utf-8")
        body = script.split("USE `Chinook`;", 1)[1]
        with _fresh_database(target), closing(_mysql(target)) as conn, conn.cursor() as cur:
            _run_script(cur, body)
    else:
        script = (folder / "Chinook_PostgreSql.sql").read_text(encoding="utf-8")
        body = script.split("\\c chinook;", 1)[1]
        with _fresh_database(target), closing(_postgres(target, target.database)) as pg:
            pg.execute(body)  # a trusted script and no parameters: several statements are fine
    return True


def spider_schema(name: str, *, foreign_keys: bool = True) -> str:
    path = datasets_dir() / "spider_train" / "databases" / name / "schema.sql"
    if not path.is_file():
        raise DatasetError(f"no Spider database named {name!r} under {path.parent.parent}")
    ddl = path.read_text(encoding="utf-8").replace(f"`{name}`.", "")
    if not foreign_keys:
        # For testing inference: the same schema with nothing declared between tables.
        ddl = "\n".join(line for line in ddl.splitlines() if "FOREIGN KEY" not in line)
        ddl = re.sub(r",(\s*\n\s*\);)", r"\1", ddl)
    return ddl


def _csv_rows(path: Path) -> tuple[list[str], list[list[str | None]]]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader, [])
        rows = [[None if v == "NULL" else v for v in row] for row in reader if row]
    return header, rows


def load_spider_db(
    name: str,
    server_url: str,
    *,
    database: str | None = None,
    foreign_keys: bool = True,
    force: bool = False,
    log: Callable[[str], None] = lambda message: None,
) -> tuple[Target, bool]:
    """One Spider train database into MariaDB/MySQL; (where it is, whether it was loaded)."""
    target = _target(server_url)
    if target.engine != "mysql":
        raise DatasetError("Spider databases ship as MySQL DDL: give a mysql:// server URL")
    target = target.with_database(database or f"spider_{name}")
    ddl = spider_schema(name, foreign_keys=foreign_keys)
    wanted = set(re.findall(r"CREATE TABLE `([^`]+)`", ddl))
    tables = existing_tables(target)
    if tables is not None and wanted <= tables and not force:
        return target, False
    data = datasets_dir() / "spider_train" / "databases" / name / "data"
    with _fresh_database(target), closing(_mysql(target)) as conn, conn.cursor() as cur:
        _run_script(cur, ddl)
        # Spider's data breaks some of its own keys and types; load it as it is.
        cur.execute("SET SESSION FOREIGN_KEY_CHECKS = 0, SESSION sql_mode = ''")
        for path in sorted(data.glob("*.csv")):
            header, rows = _csv_rows(path)
            table = next((t for t in wanted if t.lower() == path.stem.lower()), path.stem)
            if rows:
                statement = sql.insert_rows(_mysql_q(table), [_mysql_q(c) for c in header])
                cur.executemany(statement, rows)
            log(f"  {table}: {len(rows)} rows")
    return target, True
