"""A semantic layer for the demo warehouse built straight from its schema declaration, for
tests of the planning steps that need no registry rows (join paths, rewrite, validation)."""

import pytest

from registries.semantic_layer import Column, Relationship, SemanticLayer, Table
from warehouse.schema import TABLES, Kind
from warehouse.security import secure_view_map

TYPES = {
    Kind.INT: "integer",
    Kind.STRING: "text",
    Kind.TEXT: "text",
    Kind.BOOL: "boolean",
    Kind.DATE: "date",
    Kind.TIMESTAMP: "datetime",
    Kind.DECIMAL: "decimal",
}


def layer_from_schema(dialect: str = "mysql") -> SemanticLayer:
    views = secure_view_map()
    tables = {}
    relationships = []
    for table in TABLES:
        view = views.get(table.name)
        tables[table.name] = Table(
            name=table.name,
            columns={
                c.name: Column(c.name, TYPES[c.kind], c.nullable, c.unique, c.name == "id")
                for c in table.columns
            },
            role=str(table.role),
            secure_view=view.view if view else None,
            sensitive_columns=frozenset(view.sensitive_columns) if view else frozenset(),
        )
        relationships += [
            Relationship(table.name, fk.name, fk.references or "", "id")
            for fk in table.foreign_keys
        ]
    return SemanticLayer("test-warehouse", dialect, 1, tables, tuple(relationships))


@pytest.fixture(scope="session")
def warehouse_layer() -> SemanticLayer:
    return layer_from_schema()
