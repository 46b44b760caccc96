"""Checking inferred relationships against the data: a reference is likely when the values
it holds are values of the key it points at. A sample of distinct values is read from each
referring column; an edge whose sample is all found gains confidence, one whose sample
is mostly missing is dropped, and the reason says what was checked."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .inference import InferredRelationship
from .introspection import warehouse_connection

SAMPLE = 200  # distinct values read from each referring column
CHECKED = 0.85  # the confidence of an edge whose every sampled value was found
MIN_FOUND = 0.9  # below this share found, the edge is dropped
# ... unless one value alone is missing among this many found: a row left dangling (a
# department at a location nobody entered), not values of another kind
STRAY_AMONG = 5


def check_inclusion(url: str, edges: list[InferredRelationship]) -> list[InferredRelationship]:
    if not edges:
        return edges
    kept: list[InferredRelationship] = []
    with warehouse_connection(url) as connection, connection.cursor() as cursor:
        quote = connection.ops.quote_name
        for edge in edges:
            found, sampled = included(cursor, quote, edge)
            if sampled == 0:
                kept.append(edge)  # an empty column: names are all the evidence there is
            elif found / sampled >= MIN_FOUND or (sampled - found == 1 and found >= STRAY_AMONG):
                share = f"{found} of {sampled} sampled values found in {edge.to_table}"
                confidence = max(edge.confidence, CHECKED) if found == sampled else edge.confidence
                kept.append(replace(edge, confidence=confidence, reason=f"{edge.reason}; {share}"))
    return kept


def included(cursor: Any, quote: Any, edge: InferredRelationship) -> tuple[int, int]:
    """Of up to SAMPLE distinct values of the referring column, how many are found in the
    column referred to, and how many were sampled."""
    child, parent = quote(edge.from_table), quote(edge.to_table)
    column, key = quote(edge.from_column), quote(edge.to_column)
    sample = f"SELECT DISTINCT {column} AS v FROM {child} WHERE {column} IS NOT NULL LIMIT {SAMPLE}"  # noqa: S608 - names from the schema
    cursor.execute(
        f"SELECT COUNT(*), COUNT(p.{key}) FROM ({sample}) s "  # noqa: S608
        f"LEFT JOIN {parent} p ON p.{key} = s.v"
    )
    sampled, found = cursor.fetchone()
    return int(found), int(sampled)
