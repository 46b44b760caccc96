"""Does a result answer the question? The check between executing and responding: a result
that does not answer comes back with feedback a re-plan can act on ("no rows: retry with
looser filters or try the documents").

Deterministic checks come first and are final when they fail: a failed tool, a declined or
empty SQL answer, no documents or only weak matches, nothing found in the graph. A result
that passes them is, with an LLM configured, shown to the model for a JSON verdict
{"ok": bool, "feedback": str}; any trouble with the model keeps the deterministic verdict.

Tool `validate_result`: input {"route", "result": the tool's output (or {"ok": false,
"error"} when it failed), "question"?}; output {"ok", "feedback", "reasons", "method"}.
"""

import json
import logging
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from chat.models import Route
from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.registry import ToolError, register
from core.providers import llm
from core.providers.llm import ChatCompletionMessageParam

logger = logging.getLogger(__name__)

# Cosine similarity (all-MiniLM-L6-v2) under which the best chunk is only loosely related,
# unless it also holds most of the question's keywords.
WEAK_SIMILARITY = 0.25
KEYWORD_SHARE = 0.5
SUMMARY_CHARS = 3000
VERDICT_PROMPT = """Does the result below answer the question? Reply with JSON only:
{{"ok": true or false, "feedback": "if not ok: what to try instead, in a few words"}}.

Question: {question}

Result ({route}):
{summary}"""


@dataclass
class Verdict:
    ok: bool
    feedback: str = ""
    reasons: list[str] = field(default_factory=list)
    method: str = "deterministic"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _sql_verdict(result: dict[str, Any]) -> Verdict:
    inner = result.get("answer")
    sql: dict[str, Any] = inner if isinstance(inner, dict) else result
    status = sql.get("status")
    reason = str(sql.get("reason") or "")
    if status in ("declined", "error"):
        return Verdict(
            False,
            f"the database declined: {reason or 'no reading'}; try the documents or rephrase",
            [f"sql {status}"],
        )
    if status == "empty":
        return Verdict(
            False,
            "no rows: retry with looser filters or a wider date range, or try the documents",
            ["sql returned no rows"],
        )
    if status != "answered":
        return Verdict(False, "no database answer: try the documents", ["no sql answer"])
    return Verdict(True, reasons=[f"{len(sql.get('rows') or [])} rows"])


def _documents_verdict(result: dict[str, Any]) -> Verdict:
    results = result.get("results") or []
    if not results:
        return Verdict(
            False,
            "no documents matched: try the business database or fewer, broader keywords",
            ["no search results"],
        )
    best = max(float(r.get("similarity") or 0.0) for r in results)
    keywords = len(result.get("keywords") or []) or 1
    best_share = max(int(r.get("keywords_matched") or 0) for r in results) / keywords
    if best < WEAK_SIMILARITY and best_share < KEYWORD_SHARE:
        return Verdict(
            False,
            f"only weak matches (best similarity {best:.2f}): try other keywords or the "
            "business database",
            ["weak matches"],
        )
    return Verdict(True, reasons=[f"best similarity {best:.2f}", f"{len(results)} passages"])


def _graph_verdict(result: dict[str, Any]) -> Verdict:
    relations = result.get("relations") if isinstance(result.get("relations"), dict) else None
    facts = result.get("facts") if isinstance(result.get("facts"), dict) else None
    parts = [p for p in (relations, facts) if p] or [result]
    for part in parts:
        if part.get("entities") or part.get("facts") or part.get("paths") or part.get("related"):
            return Verdict(True, reasons=["the graph states something about it"])
    return Verdict(
        False,
        "nothing in the knowledge graph: try the documents",
        ["no entity or relation found"],
    )


def check_deterministic(route: str, result: Any) -> Verdict:
    if not isinstance(result, dict) or not result:
        return Verdict(False, "the step gave no result: try another route", ["no result"])
    if result.get("ok") is False:
        error = str(result.get("error") or "failed")
        other = "the documents" if route == Route.SQL else "the business database"
        return Verdict(False, f"the tool failed ({error}): try {other}", ["tool failure"])
    if route == Route.SQL:
        return _sql_verdict(result)
    if route == Route.DOCUMENTS:
        return _documents_verdict(result)
    if route == Route.GRAPH:
        return _graph_verdict(result)
    return Verdict(True, reasons=[f"{route or 'this'} route needs no check"])


def summarize(route: str, result: dict[str, Any]) -> str:
    """A short view of the result for the model: words, a few rows or passages."""
    if route == Route.SQL:
        inner = result.get("answer")
        sql: dict[str, Any] = inner if isinstance(inner, dict) else result
        shown = {k: sql.get(k) for k in ("answer", "sql", "columns")}
        shown["rows"] = (sql.get("rows") or [])[:5]
        text = json.dumps(shown, default=str)
    elif route == Route.DOCUMENTS:
        text = "\n\n".join(
            f"[{n}] {r.get('file_name')}: {r.get('text', '')[:500]}"
            for n, r in enumerate((result.get("results") or [])[:4], start=1)
        )
    else:
        text = json.dumps(result, default=str)
    return text[:SUMMARY_CHARS]


_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def parse_verdict(text: str) -> Verdict:
    match = _JSON_OBJECT.search(text)
    if match is None:
        raise ValueError("no JSON object in the reply")
    value = json.loads(match.group(0))
    if not isinstance(value, dict) or not isinstance(value.get("ok"), bool):
        raise ValueError("the reply has no boolean 'ok'")
    feedback = value.get("feedback") or ""
    return Verdict(value["ok"], str(feedback)[:300], ["the model's verdict"], "llm")


def validate(route: str, result: Any, *, question: str) -> Verdict:
    verdict = check_deterministic(route, result)
    if not verdict.ok or route not in (Route.SQL, Route.DOCUMENTS, Route.GRAPH):
        return verdict
    if not llm.llm_configured():
        return verdict
    prompt = VERDICT_PROMPT.format(question=question, route=route, summary=summarize(route, result))
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": prompt}]
    try:
        return parse_verdict(llm.complete(messages).text)
    except Exception as error:  # the model's trouble must not cost the answer
        logger.warning("no verdict from the language model: %s", error)
        verdict.reasons.append("the model gave no usable verdict")
        return verdict


@register(
    "validate_result",
    "Checks that a step's result answers the question; inputs: route, result, question.",
    uses_breaker=False,
)
def run(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    route = str(inputs.get("route") or "")
    if route not in Route.values:
        raise ToolError(f"route: one of {', '.join(Route.values)}, not {route!r}")
    question = str(inputs.get("question") or ctx.question or "")
    return validate(route, inputs.get("result"), question=question).as_dict()
