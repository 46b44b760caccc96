"""The warehouse schema: every table declared once, in engine-neutral terms.

`TABLES` is in dependency order (a table comes after every table it references), which
is the order to create and fill them in.
"""

from graphlib import TopologicalSorter

from . import assets, customers, inspections, people, system, work
from .model import Column, Kind, Role, Table

# Bump when the schema or the generated data changes, so loaded warehouses rebuild.
SCHEMA_VERSION = "1"


def _in_dependency_order(tables: tuple[Table, ...]) -> tuple[Table, ...]:
    by_name = {t.name: t for t in tables}
    if len(by_name) != len(tables):
        raise ValueError("duplicate table name in the warehouse schema")
    graph: dict[str, set[str]] = {}
    for t in tables:
        for fk in t.foreign_keys:
            if fk.references not in by_name:
                raise ValueError(f"{t.name}.{fk.name} references unknown table {fk.references}")
        # Self references (employee.supervisorId) are filled in id order, not sorted.
        graph[t.name] = {
            target for fk in t.foreign_keys if (target := fk.references) and target != t.name
        }
    return tuple(by_name[name] for name in TopologicalSorter(graph).static_order())


TABLES = _in_dependency_order(
    people.TABLES
    + customers.TABLES
    + assets.TABLES
    + work.TABLES
    + inspections.TABLES
    + system.TABLES
)
TABLE_BY_NAME = {t.name: t for t in TABLES}

__all__ = ["SCHEMA_VERSION", "TABLES", "TABLE_BY_NAME", "Column", "Kind", "Role", "Table"]
