"""The values a question can name: small enumerations ("completed", "Overtime"), the labels
of small tables ("Denver", "Westgate Power Group") and the shapes of codes ("WO-001234").

Read from the warehouse once per semantic-layer version and kept in the cache (Redis), so
every process shares it, and in each process (unpickling it per question costs more than
the rest of planning). The values stay inside Switchboard: they are matched against
questions here and never put in an LLM prompt.
"""

import hashlib
import logging
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from core.databases.scope import Scope
from core.databases.urls import WarehouseUrl
from registries.services import SemanticLayer
from sqlagent.execution import open_connection

log = logging.getLogger(__name__)

ENUM_LIMIT = 60  # distinct values for a column to count as an enumeration
LABEL_LIMIT = 3000  # distinct labels of a table worth knowing by name
CODE = re.compile(r"^[A-Z]{1,4}-?\d{2,}$")
# Names people ask by belong to things, not to side records (signatures, attachments).
NAMED_ROLES = frozenset({None, "instance", "reference", "template", "bridge"})
FREE_TEXT = re.compile(r"(description|note|comment|answer|fileName|text|body|message)", re.I)
CACHE_SECONDS = 7 * 24 * 3600
KEPT_HERE = 8  # indexes a process keeps (a key per data source, version and database)


@dataclass(frozen=True)
class ValueIndex:
    values: tuple[tuple[str, str, str], ...]  # (table, column, value)
    codes: tuple[tuple[str, str, str], ...]  # (table, column, regex of the code's shape)

    def code_columns(self, code: str) -> list[tuple[str, str]]:
        return [(t, c) for t, c, pattern in self.codes if re.fullmatch(pattern, code)]


def _shape(sample: str) -> str:
    """WO-001234 -> ^WO-\\d{6}$"""
    return "".join(
        rf"\d{{{len(part)}}}" if part.isdigit() else re.escape(part)
        for part in re.findall(r"\d+|\D+", sample)
    )


def _quote(name: str, engine: str) -> str:
    return f'"{name}"' if engine == "postgres" else f"`{name}`"


@contextmanager
def reading_tables(
    layer: SemanticLayer, url: str, *, agent: bool
) -> Iterator[tuple[Any, Callable[[str], str]]]:
    """A cursor on the warehouse, unscoped, and how to quote a name there."""
    engine = WarehouseUrl.parse(url).engine
    conn = open_connection(url, agent=agent, scope=Scope())
    try:
        with conn.cursor() as cursor:
            yield cursor, lambda name: _quote(name, engine)
    finally:
        conn.close()


def build_value_index(layer: SemanticLayer, url: str, *, agent: bool) -> ValueIndex:
    values: list[tuple[str, str, str]] = []
    codes: list[tuple[str, str, str]] = []
    with reading_tables(layer, url, agent=agent) as (cursor, quote):
        for name, table in layer.tables.items():
            relation = quote(table.secure_view or name)
            text = [
                c for c in table.columns.values() if c.data_type == "text" and not c.primary_key
            ]
            if not text:
                continue
            counts = ", ".join(f"COUNT(DISTINCT {quote(c.name)})" for c in text)
            cursor.execute(f"SELECT {counts} FROM {relation}")  # noqa: S608 - names from the schema
            distinct = dict(zip((c.name for c in text), cursor.fetchone() or (), strict=False))
            for column in text:
                n = distinct.get(column.name) or 0
                named = column.name in table.label_columns and table.role in NAMED_ROLES
                limit = LABEL_LIMIT if named else ENUM_LIMIT
                if FREE_TEXT.search(column.name) and not column.unique:
                    continue
                if n == 0 or (n > limit and not column.unique):
                    continue
                quoted = quote(column.name)
                if n > limit:  # a unique code column: remember the shape of its values
                    cursor.execute(
                        f"SELECT {quoted} FROM {relation} WHERE {quoted} IS NOT NULL LIMIT 1"  # noqa: S608
                    )
                    row = cursor.fetchone()
                    if row and CODE.match(str(row[0])):
                        codes.append((name, column.name, _shape(str(row[0]))))
                    continue
                cursor.execute(
                    f"SELECT DISTINCT {quoted} FROM {relation} WHERE {quoted} IS NOT NULL"  # noqa: S608
                )
                for (value,) in cursor.fetchall():
                    if isinstance(value, str) and 0 < len(value) <= 80:
                        values.append((name, column.name, value))
    return ValueIndex(tuple(values), tuple(codes))


_here: dict[str, ValueIndex] = {}
_here_lock = threading.Lock()


def value_index(layer: SemanticLayer, url: str, *, agent: bool) -> ValueIndex:
    # The URL is part of the key: two databases may carry a data source of one name.
    where = hashlib.sha256(url.encode()).hexdigest()[:12]
    key = f"sqlagent:values:{layer.data_source}:{layer.version}:{where}"
    found = _here.get(key)
    if found is not None:
        return found
    found = cache.get(key)
    if found is None:
        found = build_value_index(layer, url, agent=agent)
        cache.set(key, found, CACHE_SECONDS)
    with _here_lock:
        if len(_here) >= KEPT_HERE:
            _here.clear()  # older versions: a registry edit bumped the version
        _here[key] = found
    return found
