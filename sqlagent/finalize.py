"""Step 10: rows a person can read, a short answer in words, and questions to ask next.

The words are built from the rows and the plan, never invented: a count says the number
and what was counted, a list names its first few rows, a grouped result names its leader.
"""

import datetime as dt
from decimal import Decimal
from typing import Any

from django.urls import reverse
from sqlglot import exp

from registries.services import SemanticLayer
from sqlagent.answer import SqlAnswer, StepClock
from sqlagent.execution import ExecutionResult
from sqlagent.join_paths import JoinStep
from sqlagent.plan import QueryPlan
from sqlagent.verified import Match
from sqlagent.vocabulary import phrase

SHOWN_IN_WORDS = 5


def join_text(step: JoinStep) -> str:
    return f"{step.left_table}.{step.left_column} = {step.right_table}.{step.right_column}"


def describe_tables(answer: SqlAnswer, plan: QueryPlan) -> None:
    answer.tables = [{"table": t, "reason": plan.reasons.get(t, "")} for t in _tables(plan)]
    answer.join_path = [join_text(step) for step in plan.joins.joins] if plan.joins else []


def describe_verified(answer: SqlAnswer, match: Match) -> None:
    """The verified query the answer rests on, with where to see it in the admin."""
    number = match.known.id
    answer.verified = {
        "id": number,
        "question": match.known.question,
        "url": reverse("admin:sqlagent_verifiedquery_change", args=[number]),
        "probability": round(match.probability, 4),
        "swapped": [{"confirmed": old, "asked": new} for old, new in match.swapped],
    }
    tables = dict.fromkeys(t.name for t in match.statement.find_all(exp.Table))
    answer.tables = [{"table": t, "reason": f"in verified query #{number}"} for t in tables]


def _tables(plan: QueryPlan) -> list[str]:
    return list(plan.joins.tables) if plan.joins else plan.tables


def answered(
    answer: SqlAnswer, clock: StepClock, result: ExecutionResult, layer: SemanticLayer
) -> SqlAnswer:
    with clock.step("finalize"):
        answer.columns = result.columns
        answer.rows = [[cell(v) for v in row] for row in result.rows]
        answer.truncated = result.truncated
        answer.status = "answered" if result.rows else "empty"
        answer.answer = _words(answer, answer.plan)
        if answer.verified:
            answer.answer = f"Based on verified query #{answer.verified['id']}: {answer.answer}"
        answer.follow_ups = _follow_ups(answer.plan, layer) if answer.plan else []
    clock.finish()
    return answer


def failed(answer: SqlAnswer, clock: StepClock) -> SqlAnswer:
    refused = answer.reason.startswith("refused")
    answer.status = "declined" if refused else "error"
    answer.answer = (
        f"I will not run that: {answer.reason.removeprefix('refused: ')}."
        if refused
        else f"I could not get a working query: {answer.reason}."
    )
    clock.finish()
    return answer


def cell(value: Any) -> Any:
    """A value JSON can carry, exactly: decimals stay exact as text."""
    if isinstance(value, Decimal):
        return str(int(value)) if value == value.to_integral() else format(value.normalize(), "f")
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "replace")
    return value


def _things(plan: QueryPlan | None, count: int) -> str:
    if plan is None:
        return "row" if count == 1 else "rows"
    name = phrase(plan.anchor)
    return name if count == 1 else _plural(name)


def _plural(name: str) -> str:
    if name.endswith("y") and not name.endswith(("ay", "ey", "oy")):
        return name[:-1] + "ies"
    return name + ("es" if name.endswith(("s", "x", "ch", "sh")) else "s")


def _words(answer: SqlAnswer, plan: QueryPlan | None) -> str:
    rows, columns = answer.rows, answer.columns
    loosened = " (after loosening: " + "; ".join(answer.loosened) + ")" if answer.loosened else ""
    if not rows:
        return f"None found: no {_things(plan, 2)} match the question."
    if plan is not None and plan.count_groups and plan.group_table:
        # "How many customers have more than 40 work orders": the groups were counted.
        count = rows[0][0]
        name = phrase(plan.group_table)
        return f"{count} {name if count == 1 else _plural(name)}{loosened}."
    grouped = plan is not None and bool(plan.group_table or plan.group_column)
    if len(rows) == 1 and plan is not None and plan.aggregate and not grouped:
        parts = [f"{_label(c)}: {v}" for c, v in zip(columns, rows[0], strict=False)]
        if plan.aggregate == "count" and len(columns) == 1:
            return f"{rows[0][0]} {_things(plan, int(rows[0][0] or 0))}{loosened}."
        return "; ".join(parts) + loosened + "."
    if grouped and plan is not None and plan.aggregate:
        first = rows[0]
        label = " ".join(str(v) for v in first[:-1])
        lead = "Top" if plan.descending else "First"
        more = f" ({len(rows)} groups)" if len(rows) > 1 else ""
        # A count names what it counted: "with 12 work orders", not "with 12 (count)".
        if plan.aggregate == "count":
            counted = _things(plan, int(first[-1] or 0))
            return f"{lead}: {label} with {first[-1]} {counted}{more}{loosened}."
        return f"{lead}: {label} with {first[-1]} ({_label(columns[-1])}){more}{loosened}."
    names = [" ".join(str(v) for v in row[:2] if v is not None) for row in rows[:SHOWN_IN_WORDS]]
    more = ", …" if len(rows) > SHOWN_IN_WORDS else ""
    total = f"{len(rows)}{'+' if answer.truncated else ''}"
    return f"{total} {_things(plan, len(rows))}: {', '.join(names)}{more}{loosened}."


def _label(column: str) -> str:
    head, _, rest = column.partition("_")
    names = {"sum": "total", "avg": "average", "min": "lowest", "max": "highest"}
    return f"{names[head]} {phrase(rest)}" if head in names and rest else phrase(column)


def _follow_ups(plan: QueryPlan, layer: SemanticLayer) -> list[str]:
    """Questions that change one thing about this one: its shape, its grouping, its range."""
    things = _plural(phrase(plan.anchor))
    suggestions: list[str] = []
    if plan.aggregate == "count" and not plan.group_table:
        suggestions.append(f"List the {things}")
    if plan.aggregate is None:
        suggestions.append(f"How many {things} are there?")
    if not plan.group_table and not plan.group_column:
        for step in plan.joins.joins if plan.joins else ():
            parent = step.right_table if not step.fans_out else None
            if parent and layer.tables[parent].role in (None, "instance", "reference"):
                suggestions.append(f"How many {things} per {phrase(parent)}?")
                break
    dated = any(
        c.data_type in ("date", "datetime") and c.name not in ("createdAt", "updatedAt")
        for c in layer.tables[plan.anchor].columns.values()
    )
    if dated and not any(f.reason.startswith(("from", "until")) for f in plan.filters):
        suggestions.append(f"How many {things} were there last month?")
    return suggestions[:3]
