"""The answer to a business-database question, from what `sql_agent` returned: the agent's
words, a `table` event (columns, rows with their labels, the SQL, the join path, a chart
when the rows are a series) and the agent's follow-up questions. A declined question says
why and offers questions the database does answer."""

import re
from collections.abc import Sequence
from typing import Any

from chat.models import DisplayFormat, Outcome, Route
from chat.orchestrator.answers import elsewhere
from chat.orchestrator.answers.common import answer, example_questions, send_text

MAX_BAR_ROWS = 30
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}(?:-\d{2})?(?:[T ][\d:.]+)?$")
_TIME_WORDS = frozenset({"date", "day", "week", "month", "quarter", "year", "period", "time"})
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _numeric(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    return isinstance(value, str) and bool(_NUMBER.match(value.strip()))


def _column(rows: Sequence[Sequence[Any]], index: int) -> list[Any]:
    return [row[index] for row in rows if index < len(row) and row[index] is not None]


def _is_time(name: str, values: Sequence[Any]) -> bool:
    words = {w.lower() for w in re.split(r"[_\W]+", _CAMEL.sub("_", name)) if w}
    if words & _TIME_WORDS or any(w.endswith(("date", "month", "year")) for w in words):
        return True
    return bool(values) and all(isinstance(v, str) and _ISO_DATE.match(v) for v in values)


def detect_chart(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> dict[str, Any] | None:
    """A line for a time column (one row per period) with numbers beside it; bars for
    label columns with one number column over 2 to 30 rows; otherwise no chart."""
    if len(rows) < 2 or len(columns) < 2:
        return None
    values = [_column(rows, i) for i in range(len(columns))]
    numeric = [bool(v) and all(_numeric(x) for x in v) for v in values]
    time = next((i for i, c in enumerate(columns) if _is_time(c, values[i])), None)
    if time is not None:
        # A series has one row per period; a list of records that carry a date is neither
        # a series nor categories.
        y = [columns[i] for i in range(len(columns)) if numeric[i] and i != time]
        if y and len(set(map(str, values[time]))) == len(rows):
            return {"type": "line", "x": columns[time], "y": y}
        return None
    labels = [i for i in range(len(columns)) if not numeric[i]]
    numbers = [i for i in range(len(columns)) if numeric[i]]
    if labels and len(numbers) == 1 and len(rows) <= MAX_BAR_ROWS:
        return {
            "type": "bar",
            "x": columns[labels[0]],
            "x_columns": [columns[i] for i in labels],  # a row's label is these joined
            "y": [columns[numbers[0]]],
        }
    return None


def display_format(columns: Sequence[str], rows: Sequence[Sequence[Any]], chart: Any) -> str:
    if chart:
        return DisplayFormat.CHART
    if len(rows) > 1 or (rows and len(columns) > 1):
        return DisplayFormat.TABLE
    return DisplayFormat.TEXT


def table_payload(sql: dict[str, Any], chart: dict[str, Any] | None) -> dict[str, Any]:
    rows = sql.get("rows") or []
    return {
        "columns": sql.get("columns") or [],
        "rows": rows,
        "sql": sql.get("sql") or "",
        "row_count": len(rows),
        "truncated": bool(sql.get("truncated")),
        "join_path": sql.get("join_path") or [],
        "chart": chart,
    }


def _rephrasings(sql: dict[str, Any], question: str) -> list[str]:
    suggestions = [q for q in sql.get("follow_ups") or [] if isinstance(q, str)]
    suggestions += [q for q in example_questions(Route.SQL, question) if q not in suggestions]
    return suggestions[:3]


def write_sql_answer(
    question: str,
    result: dict[str, Any],
    ctx: Any,
    *,
    tried: dict[str, Any] | None = None,
    routed: str = "",
) -> dict[str, Any]:
    """`result` is the sql_agent tool's output ({"answer": SqlAnswer dict, ...}) or the
    SqlAnswer dict itself. `tried` and `routed` as for write_document_answer."""
    sql = elsewhere.sql_answer(result)
    status = sql.get("status") or "error"
    data = {key: value for key, value in sql.items() if key != "trace"}
    if status in ("answered", "empty"):
        columns, rows = sql.get("columns") or [], sql.get("rows") or []
        chart = detect_chart(columns, rows)
        data.update(chart=chart, row_count=len(rows))
        text = send_text(ctx, [sql.get("answer") or ""])
        if sql.get("sql"):
            ctx.send("table", **table_payload(sql, chart))
        return answer(
            route=Route.SQL,
            content=text,
            display_format=display_format(columns, rows, chart),
            data=data,
            follow_ups=sql.get("follow_ups") or [],
            outcome=Outcome.PARTIAL if sql.get("truncated") else Outcome.ANSWERED,
        )
    return _declined(question, sql, data, ctx, tried=tried or {}, routed=routed)


def _declined(
    question: str,
    sql: dict[str, Any],
    data: dict[str, Any],
    ctx: Any,
    *,
    tried: dict[str, Any],
    routed: str,
) -> dict[str, Any]:
    """A decline said as one: the reason, what was understood, terms near the words it
    could not place, what else was tried, and questions the database does answer."""
    reason = sql.get("reason") or "the question could not be read as a database question"
    suggestions = _rephrasings(sql, question or sql.get("question") or "")
    pieces = [f"I cannot answer this from the business database: {reason.rstrip('.')}."]
    if sql.get("understood"):
        pieces.append(f" I did understand: {'; '.join(sql['understood'][:5])}.")
    if sql.get("nearby"):
        pieces.append(f" Terms it knows that come close: {', '.join(sql['nearby'][:5])}.")
    pieces += [f" {note}" for note in elsewhere.notes(tried, answering=Route.SQL)]
    if suggestions:
        pieces.append("\n\nQuestions it can answer look like these:")
        pieces += [f"\n- {s}" for s in suggestions]
    else:
        pieces.append(
            "\n\nTry naming what to count or list and, where it matters, a time range "
            "(for example: in 2025, last month)."
        )
    text = send_text(ctx, pieces)
    data.update(chart=None, row_count=0)
    outcome = elsewhere.unanswered(routed or Route.SQL)
    return answer(route=Route.SQL, content=text, data=data, follow_ups=suggestions, outcome=outcome)
