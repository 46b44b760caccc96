"""Read a warehouse's schema through Django's database introspection.

The warehouse is reached through a Django database connection configured at run time from
its URL (django-environ's parser), so any engine Django supports works the same way and no
second set of drivers is needed.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import environ
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import load_backend

from core.databases.postgres import set_search_path
from core.databases.urls import WarehouseUrl, without_schema

from . import sql

# What Django's ConnectionHandler fills in for configured databases; a connection made at
# run time has to bring them itself.
_ALIAS_DEFAULTS: dict[str, Any] = {
    "ATOMIC_REQUESTS": False,
    "AUTOCOMMIT": True,
    "CONN_MAX_AGE": 0,
    "CONN_HEALTH_CHECKS": False,
    "OPTIONS": {},
    "TIME_ZONE": None,
    "TEST": {},
}
_SCHEME_ALIASES = {"mariadb": "mysql", "pgsql": "postgres"}

_INTEGER = {
    "AutoField",
    "BigAutoField",
    "SmallAutoField",
    "IntegerField",
    "BigIntegerField",
    "SmallIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "PositiveSmallIntegerField",
}
_TYPES = {
    **dict.fromkeys(_INTEGER, "integer"),
    **dict.fromkeys(("DecimalField", "FloatField"), "decimal"),
    **dict.fromkeys(("BooleanField", "NullBooleanField"), "boolean"),
    **dict.fromkeys(
        ("CharField", "TextField", "UUIDField", "GenericIPAddressField", "EmailField"), "text"
    ),
    "DateField": "date",
    "DateTimeField": "datetime",
    "BinaryField": "binary",
}
_MYSQL_BINARY = {"binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob"}


@dataclass(frozen=True)
class ColumnInfo:
    name: str
    data_type: str
    db_type: str
    nullable: bool
    unique: bool = False
    primary_key: bool = False


@dataclass(frozen=True)
class TableInfo:
    name: str
    is_view: bool
    columns: tuple[ColumnInfo, ...]
    row_estimate: int = 0
    comment: str = ""

    @property
    def primary_key(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns if c.primary_key)


@dataclass(frozen=True)
class ForeignKey:
    from_table: str
    from_column: str
    to_table: str
    to_column: str


@dataclass(frozen=True)
class IntrospectedSchema:
    tables: tuple[TableInfo, ...]
    foreign_keys: tuple[ForeignKey, ...]

    def table(self, name: str) -> TableInfo:
        return next(t for t in self.tables if t.name == name)


def database_config(url: str) -> dict[str, Any]:
    scheme, sep, rest = without_schema(url).partition("://")
    base = scheme.split("+")[0].lower()
    config = environ.Env.db_url_config(f"{_SCHEME_ALIASES.get(base, base)}{sep}{rest}")
    for key, value in _ALIAS_DEFAULTS.items():
        config.setdefault(key, value.copy() if isinstance(value, dict) else value)
    return config


@contextmanager
def warehouse_connection(url: str) -> Iterator[BaseDatabaseWrapper]:
    """A Django connection to the database at url, under an alias of its own.

    The wrapper is built from the backend directly rather than added to the global
    `connections`, so concurrent requests never share it and it disappears when done.
    """
    config = database_config(url)
    backend = load_backend(config["ENGINE"])
    connection = backend.DatabaseWrapper(config, f"registries-{uuid.uuid4().hex[:12]}")
    try:
        if connection.vendor == "postgresql":
            connection.ensure_connection()
            set_search_path(connection.connection, WarehouseUrl.parse(url).schemas)
        yield connection
    finally:
        connection.close()


def _data_type(connection: BaseDatabaseWrapper, info: Any) -> tuple[str, str]:
    try:
        field_type = connection.introspection.get_field_type(info.type_code, info)
    except KeyError:  # a type Django has no field for (arrays, geometry, ...)
        field_type = "other"
    raw = getattr(info, "data_type", "") or ""  # MySQL reports the declared type
    if raw == "tinyint" and info.internal_size == 1:  # MySQL's BOOLEAN is tinyint(1)
        return "boolean", "tinyint(1)"
    if raw in _MYSQL_BINARY:
        return "binary", raw
    return _TYPES.get(field_type, "other"), raw or field_type


def _row_estimates(connection: BaseDatabaseWrapper, cursor: Any) -> dict[str, int]:
    query = sql.MYSQL_ROW_ESTIMATES if connection.vendor == "mysql" else sql.POSTGRES_ROW_ESTIMATES
    cursor.execute(query)
    return {name: int(rows) for name, rows in cursor.fetchall()}


@dataclass(frozen=True)
class _Keys:
    primary: frozenset[str]
    single_unique: frozenset[str]  # columns unique on their own


def _keys(connection: BaseDatabaseWrapper, cursor: Any, table: str) -> _Keys:
    constraints = connection.introspection.get_constraints(cursor, table)
    return _Keys(
        frozenset(c for k in constraints.values() if k["primary_key"] for c in k["columns"]),
        frozenset(
            k["columns"][0] for k in constraints.values() if k["unique"] and len(k["columns"]) == 1
        ),
    )


def _mysql_keys(cursor: Any) -> dict[str, _Keys]:
    """The keys of every table of a MySQL schema, from its indexes, in one query."""
    cursor.execute(sql.MYSQL_INDEXES)
    indexes: dict[tuple[str, str], tuple[bool, list[str]]] = {}
    for table, index, non_unique, column in cursor.fetchall():
        indexes.setdefault((table, index), (not int(non_unique), []))[1].append(column)
    primary: dict[str, set[str]] = {}
    unique: dict[str, set[str]] = {}
    for (table, index), (is_unique, columns) in indexes.items():
        if index == "PRIMARY":
            primary.setdefault(table, set()).update(columns)
        if is_unique and len(columns) == 1:  # a one-column primary key too, as Django says
            unique.setdefault(table, set()).add(columns[0])
    return {
        table: _Keys(frozenset(primary.get(table, ())), frozenset(unique.get(table, ())))
        for table in {t for t, _ in indexes}
    }


def read_schema(url: str) -> IntrospectedSchema:
    """Tables and views, their columns, keys and row estimates, and the foreign keys."""
    with warehouse_connection(url) as connection, connection.cursor() as cursor:
        introspection = connection.introspection
        estimates = _row_estimates(connection, cursor)
        every_key = _mysql_keys(cursor) if connection.vendor == "mysql" else None
        no_keys = _Keys(frozenset(), frozenset())
        tables: list[TableInfo] = []
        foreign_keys: list[ForeignKey] = []
        for entry in sorted(introspection.get_table_list(cursor), key=lambda t: t.name):
            is_view = entry.type not in ("t", "p")
            if is_view:
                keys = no_keys
            elif every_key is not None:
                keys = every_key.get(entry.name, no_keys)
            else:
                keys = _keys(connection, cursor, entry.name)
            primary, single_unique = keys.primary, keys.single_unique
            columns = []
            for info in introspection.get_table_description(cursor, entry.name):
                data_type, db_type = _data_type(connection, info)
                columns.append(
                    ColumnInfo(
                        name=info.name,
                        data_type=data_type,
                        db_type=db_type[:100],
                        nullable=bool(info.null_ok),
                        unique=info.name in single_unique,
                        primary_key=info.name in primary,
                    )
                )
            rows = estimates.get(entry.name, 0)
            if not is_view and rows < 0:
                cursor.execute(sql.count_rows(connection.ops.quote_name(entry.name)))
                rows = int(cursor.fetchone()[0])
            # MySQL reports the word VIEW as every view's comment.
            comment = getattr(entry, "comment", "") or ""
            comment = "" if is_view and comment == "VIEW" else comment
            tables.append(TableInfo(entry.name, is_view, tuple(columns), max(rows, 0), comment))
            if not is_view:
                relations = introspection.get_relations(cursor, entry.name)
                for column, (to_column, to_table) in sorted(relations.items()):
                    foreign_keys.append(ForeignKey(entry.name, column, to_table, to_column))
    return IntrospectedSchema(tuple(tables), tuple(foreign_keys))
