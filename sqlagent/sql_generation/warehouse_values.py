"""Warehouse values and sample rows for a prompt, only when SQL_SEND_VALUES_TO_LLM allows
them; sample rows never come from tables that hold personal data."""

from collections.abc import Iterable

from django.conf import settings
from sqlglot import exp

from registries.models import DataSource
from registries.services import SemanticLayer
from sqlagent.data_scope import NOTHING
from sqlagent.execution import ExecutionError, execute_read
from sqlagent.sql_compiler import display_columns
from sqlagent.value_index import value_index

MAX_VALUES_PER_COLUMN = 20


def values_text(layer: SemanticLayer, tables: list[str]) -> str:
    if not settings.SQL_SEND_VALUES_TO_LLM:
        return ""
    url = DataSource.objects.get(name=layer.data_source).resolved_url()
    agent = any(t.secure_view for t in layer.tables.values())
    chosen = set(tables)
    by_column: dict[str, list[str]] = {}
    for table, column, value in value_index(layer, url, agent=agent).values:
        if table in chosen:
            by_column.setdefault(f"{table}.{column}", []).append(value)
    lines = [
        f"- {column}: " + ", ".join(repr(v) for v in sorted(values)[:MAX_VALUES_PER_COLUMN])
        for column, values in sorted(by_column.items())
    ]
    lines += _sample_rows(layer, tables, url, agent)
    return "Values in the data:\n" + "\n".join(lines) + "\n" if lines else ""


def _sample_rows(layer: SemanticLayer, tables: Iterable[str], url: str, agent: bool) -> list[str]:
    """A few rows of each table that holds no personal data (SQL_SAMPLE_ROWS)."""
    if settings.SQL_SAMPLE_ROWS <= 0:
        return []
    lines = []
    for name in tables:
        table = layer.tables[name]
        if table.secure_view or table.sensitive_columns:
            continue
        shown = list(display_columns(table))
        query = exp.select(*(exp.column(c, table=name, quoted=True) for c in shown)).from_(
            exp.to_table(name, quoted=True)
        )
        try:
            result = execute_read(
                query.sql(dialect=layer.dialect),
                url=url,
                agent=agent,
                scope=NOTHING,
                max_rows=settings.SQL_SAMPLE_ROWS,
            )
        except ExecutionError:
            continue
        for row in result.rows:
            pairs = ", ".join(f"{c}={v!r}" for c, v in zip(shown, row, strict=False))
            lines.append(f"- sample {name}: {pairs}")
    return lines
