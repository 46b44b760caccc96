"""The parts of a prompt that describe the database: the dialect, the selected tables with
their columns, the relationships among them, and the conversation's earlier SQL. SQL shown
to the LLM speaks the logical table names, not the secure views it runs on."""

import re
from collections.abc import Sequence
from typing import Any

from django.conf import settings

from registries.services import Column, SemanticLayer
from sqlagent import prompts
from sqlagent.answer import Turn
from sqlagent.plan import QueryPlan
from sqlagent.sql_compiler import display_columns, label_columns


def dialect_name(layer: SemanticLayer) -> str:
    return prompts.DIALECTS.get(layer.dialect, layer.dialect)


def schema_text(
    layer: SemanticLayer, tables: list[str], max_columns: int, plan: QueryPlan | None
) -> str:
    lines = ["Tables (only these exist for this question):"]
    wanted = _plan_columns(plan)
    linked = {
        (end_table, end_column)
        for rel in _relationships_among(layer, tables)
        for end_table, end_column in (
            (rel.from_table, rel.from_column),
            (rel.to_table, rel.to_column),
        )
    }
    for name in tables:
        table = layer.tables[name]
        lines.append(f"- {name}" + (f": {table.description}" if table.description else ""))
        columns = _ordered_columns(name, layer, wanted | linked)
        shown = columns[:max_columns]
        listed = ", ".join(_column_text(c) for c in shown)
        hidden = len(columns) - len(shown)
        lines.append(f"  columns: {listed}" + (f" (+{hidden} more not shown)" if hidden else ""))
        lines.append(f"  display columns: {', '.join(display_columns(table))}")
        lines.append(f"  label columns: {', '.join(label_columns(table))}")
    return "\n".join(lines) + "\n"


def _plan_columns(plan: QueryPlan | None) -> set[tuple[str, str]]:
    if plan is None:
        return set()
    refs = [c for f in plan.filters for c in f.columns] + list(plan.columns)
    refs += [r for r in (plan.measure, plan.group_column, plan.order_by) if r is not None]
    return {(r.table, r.column) for r in refs}


def _ordered_columns(name: str, layer: SemanticLayer, wanted: set[tuple[str, str]]) -> list[Column]:
    """Keys, display and label columns, then the columns joins and the plan use, then the rest."""
    table = layer.tables[name]
    first = {table.primary_key, *display_columns(table), *label_columns(table)}
    rank = {
        c: (0 if c in first else 1 if (name, c) in wanted else 2, i)
        for i, c in enumerate(table.columns)
    }
    return [table.columns[c] for c in sorted(table.columns, key=lambda c: rank[c])]


def _column_text(column: Column) -> str:
    return f"{column.name} {column.data_type}" + (" primary key" if column.primary_key else "")


def _relationships_among(layer: SemanticLayer, tables: list[str]) -> list[Any]:
    chosen = set(tables)
    threshold = settings.SQL_CONFIDENCE_THRESHOLD
    found = [
        rel
        for rel in layer.relationships
        if rel.enabled
        and rel.confidence >= threshold
        and rel.from_table in chosen
        and rel.to_table in chosen
    ]
    found.sort(key=lambda r: (-r.confidence, r.from_table, r.from_column))
    return found


def relationships_text(layer: SemanticLayer, tables: list[str], plan: QueryPlan | None) -> str:
    lines: list[str] = []
    if plan is not None and plan.joins is not None:
        for step in plan.joins.joins:
            lines.append(
                f"{step.left_table}.{step.left_column} = {step.right_table}.{step.right_column}"
                " (join path of the plan)"
            )
    for rel in _relationships_among(layer, tables):
        text = f"{rel.from_table}.{rel.from_column} = {rel.to_table}.{rel.to_column}"
        if not any(line.startswith(text) or _reversed(line, rel) for line in lines):
            lines.append(f"{text} ({rel.cardinality.replace('_', ' ')})")
    lines = lines[: settings.SQL_MAX_RELATIONSHIPS_IN_PROMPT]
    if not lines:
        return "Relationships: none among these tables.\n"
    return "Relationships (join only on these):\n" + "\n".join(f"- {x}" for x in lines) + "\n"


def _reversed(line: str, rel: Any) -> bool:
    return line.startswith(f"{rel.to_table}.{rel.to_column} = {rel.from_table}.{rel.from_column}")


def history_text(history: Sequence[Turn], layer: SemanticLayer) -> str:
    if not history:
        return ""
    lines = ["Conversation so far (earlier questions and their SQL):"]
    for turn in history:
        lines.append(f"- Q: {turn.question}")
        if turn.sql:
            lines.append(f"  SQL: {shown_sql(turn.sql, layer)}")
    return "\n".join(lines) + "\n"


def shown_sql(sql: str, layer: SemanticLayer) -> str:
    """SQL as a prompt shows it: in logical names, clipped to SQL_MAX_SQL_HISTORY_LENGTH."""
    limit = settings.SQL_MAX_SQL_HISTORY_LENGTH
    logical = logical_text(sql, layer)
    return logical if len(logical) <= limit else logical[: limit - 1] + "…"


def logical_names(layer: SemanticLayer) -> dict[str, str]:
    return {t.secure_view: name for name, t in layer.tables.items() if t.secure_view}


def logical_text(text: str, layer: SemanticLayer) -> str:
    """Secure-view names back to the logical names the prompt speaks in."""
    logical = logical_names(layer)
    if not logical:
        return text
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, logical)) + r")\b")
    return pattern.sub(lambda m: logical[m.group(1)], text)
