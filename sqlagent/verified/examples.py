"""Related verified queries as examples for the SQL writer: how this team asks, and the
tables, joins and columns its confirmed answers use."""

from collections.abc import Sequence

from sqlglot import exp

from registries.services import SemanticLayer
from sqlagent.verified.matching import Match


def examples_text(found: Sequence[Match], layer: SemanticLayer) -> str:
    if not found:
        return ""
    lines = [
        f'- "{m.known.question}"\n  {m.known.statement.sql(dialect=layer.dialect)}' for m in found
    ]
    return (
        "Verified queries on this database (a person confirmed each SQL answers its question; "
        "follow their tables, joins and columns where the question is alike):\n"
        + "\n".join(lines)
        + "\n"
    )


def example_tables(found: Sequence[Match]) -> list[str]:
    tables = (t.name for m in found for t in m.known.statement.find_all(exp.Table))
    return list(dict.fromkeys(tables))


def example_columns(found: Sequence[Match]) -> frozenset[tuple[str, str]]:
    """(table, column), lower case, for each column the examples' SQL reads, and (table, "")
    for each table: where a column is not qualified, it is taken as any of its tables'."""
    used: set[tuple[str, str]] = set()
    for m in found:
        tables = {t.name.lower() for t in m.known.statement.find_all(exp.Table)}
        aliases = {
            t.alias_or_name.lower(): t.name.lower() for t in m.known.statement.find_all(exp.Table)
        }
        used |= {(t, "") for t in tables}
        for column in m.known.statement.find_all(exp.Column):
            owner = aliases.get(column.table.lower()) if column.table else None
            used |= {(t, column.name.lower()) for t in ([owner] if owner else tables)}
    return frozenset(used)
