"""The answer writers as tools a workflow's respond step calls (no circuit breaker: they
only format). Each returns {"content", "route", "outcome", "display_format", "sources",
"data", "follow_ups"} and streams its text as `token` events.

Inputs (the question defaults to the one asked):
- write_document_answer: {"question"?, "search": document_search output}
- write_sql_answer: {"question"?, "result": sql_agent output}
- write_graph_answer: {"question"?, "relations"?: entity_query output,
  "facts"?: knowledge_graph output}
  each of these three also takes "tried" (every route's result this turn) and "routed"
  (the router's route), to say what else was tried and did not answer;
- write_general_answer: {"question"?}
- write_clarification: {"question"?, "options"?: [str], "scores"?: {route: score}}
  (or "decision": a route decision with its scores)
- write_upload_answer: {"upload": upload_document output}

A step whose tool failed hands the writer {"ok": false, "error": ...}: the answer then says
what could not be done, in the tool's own safe words.
"""

from typing import Any

from chat.models import Outcome, Route
from chat.orchestrator.answers.common import answer, send_text
from chat.orchestrator.answers.documents import write_document_answer
from chat.orchestrator.answers.general import (
    write_clarification,
    write_general_answer,
    write_upload_answer,
)
from chat.orchestrator.answers.graph import write_graph_answer
from chat.orchestrator.answers.sql import write_sql_answer
from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.registry import ToolError, register


def _question(inputs: dict[str, Any], ctx: RunContext) -> str:
    return str(inputs.get("question") or ctx.question or "").strip()


def _part(inputs: dict[str, Any], key: str) -> dict[str, Any]:
    value = inputs.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ToolError(f"{key}: the output of the step before, not {type(value).__name__}")
    return value


def _failed(part: dict[str, Any]) -> str:
    return str(part.get("error") or "the step failed") if part.get("ok") is False else ""


def _failure_answer(route: str, error: str, ctx: RunContext) -> dict[str, Any]:
    text = send_text(ctx, [f"I could not answer this: {error.rstrip('.')}."])
    return answer(route=route, content=text, data={"error": error}, outcome=Outcome.DECLINED)


def _tried(inputs: dict[str, Any]) -> dict[str, Any]:
    """What the other routes found this turn and the router's route, for the writer to say
    what did not answer."""
    tried = inputs.get("tried")
    return {
        "tried": tried if isinstance(tried, dict) else {},
        "routed": str(inputs.get("routed") or ""),
    }


@register("write_document_answer", "Writes the answer from document search results.",
          uses_breaker=False)  # fmt: skip
def run_document_answer(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    search = _part(inputs, "search") or inputs
    if error := _failed(search):
        return _failure_answer(Route.DOCUMENTS, error, ctx)
    return write_document_answer(_question(inputs, ctx), search, ctx, **_tried(inputs))


@register("write_sql_answer", "Writes the answer from the SQL agent's result.",
          uses_breaker=False)  # fmt: skip
def run_sql_answer(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    result = _part(inputs, "result") or inputs
    if error := _failed(result):
        return _failure_answer(Route.SQL, error, ctx)
    if not isinstance(result.get("answer"), dict) and "status" not in result:
        raise ToolError("result: the sql_agent output ({answer: ...}) is required")
    return write_sql_answer(_question(inputs, ctx), result, ctx, **_tried(inputs))


@register("write_graph_answer", "Writes the answer from entity and knowledge-graph results.",
          uses_breaker=False)  # fmt: skip
def run_graph_answer(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    relations, facts = _part(inputs, "relations"), _part(inputs, "facts")
    errors = [e for e in (_failed(relations), _failed(facts)) if e]
    usable = [p for p in (relations, facts) if p and not _failed(p)]
    if errors and not usable:
        return _failure_answer(Route.GRAPH, errors[0], ctx)
    return write_graph_answer(
        _question(inputs, ctx),
        ctx,
        relations=relations if not _failed(relations) else None,
        facts=facts if not _failed(facts) else None,
        **_tried(inputs),
    )


@register("write_general_answer", "Says what Switchboard can do for this person.",
          uses_breaker=False)  # fmt: skip
def run_general_answer(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    return write_general_answer(_question(inputs, ctx), ctx)


@register("write_clarification", "Asks which reading of an ambiguous question was meant.",
          uses_breaker=False)  # fmt: skip
def run_clarification(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    decision = _part(inputs, "decision")
    scores = inputs.get("scores") or decision.get("scores")
    options = inputs.get("options") or []
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise ToolError("options: a list of readings in words")
    if scores is not None and not isinstance(scores, dict):
        raise ToolError("scores: a score per route")
    return write_clarification(_question(inputs, ctx), ctx, options=options, scores=scores)


@register("write_upload_answer", "Says what happened to the uploaded files.",
          uses_breaker=False)  # fmt: skip
def run_upload_answer(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    upload = _part(inputs, "upload") or inputs
    if error := _failed(upload):
        return _failure_answer(Route.UPLOAD, error, ctx)
    return write_upload_answer(upload, ctx)
