"""The plan's reading of the question, as hints the SQL should follow. A filter value stays
in the prompt only when the question or the registry already says it, or when
SQL_SEND_VALUES_TO_LLM allows warehouse values."""

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.conf import settings

from registries.services import SemanticLayer
from sqlagent.plan import Filter, QueryPlan


def plan_text(plan: QueryPlan | None, question: str, layer: SemanticLayer) -> str:
    """The deterministic reading of the question, as hints the SQL should follow."""
    if plan is None:
        return ""
    lines = [f"The rows the question is about: {plan.anchor}"]
    known = _registry_words(layer)
    lines += _filter_lines(plan, question, known)
    lines += _grouping_lines(plan)
    lines += _absence_lines(plan, question, known)
    lines += _result_lines(plan)
    return "Reading of the question:\n" + "\n".join(lines) + "\n"


def _filter_lines(plan: QueryPlan, question: str, known: frozenset[str]) -> list[str]:
    lines = []
    dates = [f for f in plan.filters if f.reason.startswith(("from ", "until "))]
    others = [f for f in plan.filters if f not in dates]
    if others:
        lines.append("Filters the question implies:")
        lines += [f"- {_filter_text(f, question, known)}" for f in others]
    if dates:
        lines.append("Date range: " + " and ".join(_filter_text(f, question, known) for f in dates))
    return lines


def _grouping_lines(plan: QueryPlan) -> list[str]:
    lines = []
    if plan.aggregate:
        measured = f" of {plan.measure}" if plan.measure else ""
        lines.append(f"Aggregate: {plan.aggregate.upper()}{measured}")
    if plan.group_table:
        lines.append(f"Group by: each {plan.group_table} (show its label columns)")
    elif plan.group_column:
        lines.append(f"Group by: {plan.group_column}")
    if plan.having:
        op, value = plan.having
        counted = "how many groups pass" if plan.count_groups else "each group that passes"
        lines.append(f"Keep groups whose count {op} {value:g} (HAVING); show {counted}")
    return lines


def _absence_lines(plan: QueryPlan, question: str, known: frozenset[str]) -> list[str]:
    lines = []
    for absence in plan.absent:
        link = absence.link
        missing = " and ".join(_filter_text(f, question, known) for f in absence.filters)
        where = f" where {missing}" if missing else ""
        lines.append(
            f"Rows that must not exist: {link.left_table}.{link.left_column} NOT IN the "
            f"{link.right_table}.{link.right_column} values of {link.right_table}{where}"
        )
    return lines


def _result_lines(plan: QueryPlan) -> list[str]:
    lines = []
    if plan.span:
        first, second = plan.span
        lines.append(f"Days from {first} to {second} (a date difference in days)")
    if plan.columns:
        lines.append("Columns asked for: " + ", ".join(str(c) for c in plan.columns))
    if plan.order_by or (plan.aggregate and plan.limit):
        key = str(plan.order_by) if plan.order_by else "the aggregate"
        lines.append(f"Order by: {key} {'descending' if plan.descending else 'ascending'}")
    if plan.limit:
        lines.append(f"Limit: {plan.limit}")
    return lines


def _filter_text(found: Filter, question: str, known: frozenset[str]) -> str:
    columns = " or ".join(str(c) for c in found.columns)
    value = _value_text(found.value, question, known)
    if found.op in ("like", "not_like"):
        negation = "does not contain" if found.op == "not_like" else "contains"
        return f"{columns} {negation} {value} (case-insensitive)"
    if found.op in ("is_null", "is_not_null"):
        return f"{columns} {'IS NULL' if found.op == 'is_null' else 'IS NOT NULL'}"
    return f"{columns} {found.op} {value}"


def _value_text(value: Any, question: str, known: frozenset[str]) -> str:
    """A filter's value, unless it is a warehouse value the question does not itself say."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float | Decimal):
        return str(value)
    if isinstance(value, date | datetime):
        return f"'{value.isoformat()}'"
    text = str(value)
    said = text.lower() in question.lower() or text.lower() in known
    if said or settings.SQL_SEND_VALUES_TO_LLM:
        return "'" + text.replace("'", "''") + "'"
    return "the value the question names (spelled as in the question)"


def _registry_words(layer: SemanticLayer) -> frozenset[str]:
    """Strings the registry itself holds (term names, synonyms, resolution values)."""
    found = {t.name.lower() for t in layer.terms}
    found |= {s.lower() for t in layer.terms for s in t.synonyms}
    found |= {r.value.lower() for t in layer.terms for r in t.resolutions if r.value}
    return frozenset(found)
