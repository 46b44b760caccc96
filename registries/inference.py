"""Relationships inferred from names where the database declares no foreign key.

`workOrderId` -> `workOrder.id`, `customer_id` -> `customers.customer_id`, `ArtistId` ->
`Artist.ArtistId`, and a column named like another table's single primary key. Such edges
are only likely, so they carry a confidence below a declared foreign key's 1.0 and the kind
`inferred`; the agent's path finder can weigh or drop them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .introspection import IntrospectedSchema, TableInfo
from .naming import key, singular, words

EXACT = 0.8  # the stem names a table exactly: workOrderId -> workOrder
PLURAL = 0.75  # ... a table named in the plural: customer_id -> customers
SHARED_KEY = 0.7  # the column is named like another table's primary key: invoice_number
SHORT_KEY = 0.65  # ... like a key named by its table's initial: aid in author, pid in paper
SUFFIX = 0.6  # only the stem's last words name a table: createdByUserId -> user

_ID_SUFFIX = re.compile(r"^(?P<stem>.+?)(?:_id|_ID|Id|ID)$")


@dataclass(frozen=True)
class InferredRelationship:
    from_table: str
    from_column: str
    to_table: str
    to_column: str
    confidence: float
    cardinality: str
    reason: str


def _own_key(table: TableInfo) -> str | None:
    """The table's single primary key; without one declared, a column named as its key:
    `id`, `<table>_id`, or the table's initial and `id` (`aid` in author)."""
    if len(table.primary_key) == 1:
        return table.primary_key[0]
    if table.primary_key:
        return None
    names = {key(c.name): c.name for c in table.columns}
    stem = key(table.name)
    for candidate in (f"{stem}id", f"{singular(stem)}id", f"{stem[:1]}id", "id"):
        if candidate in names:
            return names[candidate]
    return None


def _target_column(table: TableInfo, column: str) -> str | None:
    """The column a reference to `table` points at: its single primary key, else `id`."""
    own = _own_key(table)
    if own is not None:
        return own
    names = {c.name for c in table.columns}
    if "id" in names:
        return "id"
    same = next((c for c in table.columns if c.name == column), None)
    return same.name if same and (same.unique or same.primary_key) else None


def _compatible(a: str, b: str) -> bool:
    return a == b or "other" in (a, b)


class _Tables:
    def __init__(self, tables: list[TableInfo]) -> None:
        self.exact: dict[str, TableInfo] = {}
        self.singular: dict[str, TableInfo] = {}
        for table in tables:
            self.exact.setdefault(key(table.name), table)
            parts = words(table.name)
            if parts:
                parts[-1] = singular(parts[-1])
                self.singular.setdefault("".join(parts), table)

    def find(self, stem_words: list[str]) -> tuple[TableInfo, float] | None:
        stem = "".join(stem_words)
        if stem in self.exact:
            return self.exact[stem], EXACT
        if stem in self.singular:
            return self.singular[stem], PLURAL
        return None


def infer_relationships(schema: IntrospectedSchema) -> list[InferredRelationship]:
    tables = [t for t in schema.tables if not t.is_view]
    lookup = _Tables(tables)
    declared = {(fk.from_table, fk.from_column) for fk in schema.foreign_keys}
    primary_owners: dict[str, list[TableInfo]] = {}
    for table in tables:
        own = _own_key(table)
        if own is not None and own.lower() != "id":
            primary_owners.setdefault(own, []).append(table)
    found: list[InferredRelationship] = []
    for table in tables:
        own_key = table.primary_key
        for column in table.columns:
            if (table.name, column.name) in declared or column.name.lower() == "id":
                continue
            match = _by_stem(lookup, column.name) or _by_shared_key(
                primary_owners, table, column.name
            )
            if match is None:
                continue
            target, confidence, reason = match
            to_column = _target_column(target, column.name)
            if to_column is None or (target.name == table.name and to_column == column.name):
                continue
            target_type = next(c.data_type for c in target.columns if c.name == to_column)
            if not _compatible(column.data_type, target_type):
                continue
            one = column.unique or own_key == (column.name,)
            found.append(
                InferredRelationship(
                    table.name,
                    column.name,
                    target.name,
                    to_column,
                    confidence,
                    "one_to_one" if one else "many_to_one",
                    reason,
                )
            )
    return found


def _by_stem(lookup: _Tables, column: str) -> tuple[TableInfo, float, str] | None:
    match = _ID_SUFFIX.match(column)
    if not match:
        return None
    stem = words(match.group("stem"))
    for start in range(len(stem)):
        hit = lookup.find(stem[start:])
        if hit:
            table, confidence = hit
            if start:
                return table, SUFFIX, f"the end of {column!r} names table {table.name!r}"
            return table, confidence, f"{column!r} names table {table.name!r}"
    return None


def _by_shared_key(
    owners: dict[str, list[TableInfo]], table: TableInfo, column: str
) -> tuple[TableInfo, float, str] | None:
    candidates = [t for t in owners.get(column, []) if t.name != table.name]
    # A table whose own single key has the same name is a peer, not a child: no direction.
    if len(candidates) != 1 or _own_key(table) == column:
        return None
    target = candidates[0]
    if target.primary_key:
        return target, SHARED_KEY, f"{column!r} is the primary key of {target.name!r}"
    return target, SHORT_KEY, f"{column!r} is named as the key of {target.name!r}"
