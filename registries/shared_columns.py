"""Tables the schema gives no way to join, joined by a column they share, where the data
says one side refers to the other.

A class list and a teachers table that both hold `Classroom`, with no key between them:
"the students taught by X" needs that join, and nothing else in the schema offers one.
The edge is inferred only between tables no declared or inferred path connects (it adds
a way to join, it never shortens one), only for a column of the same name and kind in
both, and only when the data agrees: the column is unique and never empty in the table
referred to, and every sampled value of the referring column is found there."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

import networkx as nx

from .inclusion import included
from .inference import InferredRelationship
from .introspection import ColumnInfo, IntrospectedSchema, TableInfo, warehouse_connection

# Checked by the data, so above the agent's join threshold (SQL_CONFIDENCE_THRESHOLD,
# 0.7); below an edge whose name says its table and whose values were checked (0.85).
CONFIDENCE = 0.75


def shared_column_edges(
    url: str, schema: IntrospectedSchema, inferred: list[InferredRelationship]
) -> list[InferredRelationship]:
    joined = _joins(schema, inferred)
    candidates = _candidates(schema, joined)
    if not candidates:
        return []
    found: list[InferredRelationship] = []
    with warehouse_connection(url) as connection, connection.cursor() as cursor:
        quote = connection.ops.quote_name
        for (left, right), column in candidates:
            if nx.has_path(joined, left.name, right.name):
                continue  # an edge found earlier in this loop joined them already
            edge = _edge(cursor, quote, left, right, column)
            if edge is not None:
                found.append(edge)
                joined.add_edge(left.name, right.name)
    return found


def _joins(schema: IntrospectedSchema, inferred: list[InferredRelationship]) -> nx.Graph[str]:
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(t.name for t in schema.tables if not t.is_view)
    graph.add_edges_from((fk.from_table, fk.to_table) for fk in schema.foreign_keys)
    graph.add_edges_from((e.from_table, e.to_table) for e in inferred)
    return graph


def _candidates(
    schema: IntrospectedSchema, joined: nx.Graph[str]
) -> list[tuple[tuple[TableInfo, TableInfo], str]]:
    """Pairs of tables in different parts of the join graph with a column of one name and
    kind, that is no table's `id`."""
    parts = {name: n for n, part in enumerate(nx.connected_components(joined)) for name in part}
    tables = [t for t in schema.tables if not t.is_view]
    found = []
    for left, right in combinations(tables, 2):
        if parts[left.name] == parts[right.name]:
            continue
        theirs = {c.name.lower(): c for c in right.columns}
        for column in left.columns:
            other = theirs.get(column.name.lower())
            if other is None or column.name.lower() == "id":
                continue
            if column.data_type == other.data_type:
                found.append(((left, right), column.name))
    return found


def _edge(
    cursor: Any, quote: Any, left: TableInfo, right: TableInfo, name: str
) -> InferredRelationship | None:
    """The reference between the two tables through their column `name`, from the side whose
    values repeat to the side where each is unique; None when the data says neither."""
    unique = {t.name: _unique(cursor, quote, t, _column(t, name)) for t in (left, right)}
    if unique[left.name] == unique[right.name]:
        return None  # both unique (which refers to which?) or neither (no side is a key)
    child, parent = (right, left) if unique[left.name] else (left, right)
    column, key = _column(child, name), _column(parent, name)
    edge = InferredRelationship(
        child.name, column.name, parent.name, key.name, CONFIDENCE, "many_to_one", ""
    )
    found, sampled = included(cursor, quote, edge)
    if sampled == 0 or found < sampled:
        return None
    note = (
        f"both hold {name!r} and nothing else joins them; each of {sampled} sampled values "
        f"is one of {parent.name}.{key.name}, unique there"
    )
    return replace(edge, reason=note)


def _column(table: TableInfo, name: str) -> ColumnInfo:
    return next(c for c in table.columns if c.name.lower() == name.lower())


def _unique(cursor: Any, quote: Any, table: TableInfo, column: ColumnInfo) -> bool:
    """Every row holds a value, and no two rows the same one (two rows at least)."""
    if column.unique or column.primary_key:
        return True
    name = quote(column.name)
    cursor.execute(f"SELECT COUNT(*), COUNT(DISTINCT {name}) FROM {quote(table.name)}")  # noqa: S608 - names from the schema
    rows, distinct = cursor.fetchone()
    return int(rows) >= 2 and int(rows) == int(distinct)
