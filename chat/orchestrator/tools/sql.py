"""Tool `sql_agent`: a question answered from the business database by the SQL agent, in
the asking person's data scope.

Input: {"question": str (default: the question asked), "data_source"?: name}.
Output: {"answer": SqlAnswer.to_dict() (status, answer in words, reason, sql, tables,
join_path, columns, rows, follow_ups, timings, trace...), "declined": bool, "reason": str}.
`declined` is true when the agent gave no rows to show: it declined or its SQL failed.

The agent's own step events stay in its trace (the answer's `trace` and `timings`): the
tool_start / tool_end around this call are what the chat shows.
"""

import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings

from chat.orchestrator.context import RunContext, Turn
from chat.orchestrator.tools.registry import ToolError, ToolUnavailable, register
from registries.models import DataSource
from sqlagent.services import Turn as SqlTurn
from sqlagent.services import WarehouseUnavailable, ask

logger = logging.getLogger(__name__)

WAREHOUSE_DOWN = "The business database cannot be reached right now; try again in a moment."
MAX_SQL_HISTORY = 20  # the SQL agent's own limit on earlier turns


def sql_history(history: Sequence[Turn]) -> list[SqlTurn]:
    """Earlier questions answered from the database, with their SQL, for the agent's
    context: each SQL answer's own question (already standalone) and statement."""
    turns: list[SqlTurn] = []
    for turn in history:
        if turn.role != "assistant" or turn.route != "sql":
            continue
        sql = turn.data.get("sql")
        question = turn.data.get("question")
        if isinstance(question, str) and question:
            turns.append(SqlTurn(question=question, sql=sql if isinstance(sql, str) else None))
    return turns[-MAX_SQL_HISTORY:]


def _data_source(inputs: dict[str, Any], user: Any) -> str | None:
    name = str(inputs.get("data_source") or "").strip() or None
    if name is None or name == settings.REGISTRIES_DEFAULT_DATA_SOURCE:
        return name
    if not DataSource.objects.filter(name=name).exists():
        raise ToolError(f"There is no data source named {name!r}.")
    if not getattr(user, "is_staff", False):
        # Other data sources (evaluation databases) are not scoped per person.
        raise ToolError("Only staff may ask a data source other than the business database.")
    return name


@register(
    "sql_agent",
    "Answers a question from the business database (SQL in the person's data scope); "
    "inputs: question, data_source.",
)
def run(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    question = str(inputs.get("question") or ctx.question or "").strip()
    if not question:
        raise ToolError("There is no question to ask the business database.")
    source = _data_source(inputs, ctx.user)
    try:
        answer = ask(
            question,
            user=ctx.user,
            source=source,
            history=sql_history(ctx.history),
            reading=ctx.analysis.sql,  # the router's reading, reused when it is this question
        )
    except WarehouseUnavailable as error:
        logger.warning("the warehouse is unreachable: %s", error)
        raise ToolUnavailable(WAREHOUSE_DOWN) from error
    declined = answer.status in ("declined", "error")
    return {"answer": answer.to_dict(), "declined": declined, "reason": answer.reason}
