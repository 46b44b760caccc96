"""The steps of the report workflow (chat/workflows/report.json, after seed 000's news
reporter): triage -> search -> one reporter per angle -> review loop -> stitch.

No circuit breaker: these steps only read what the search step returned. Without an LLM
every step is deterministic: the reporter is extractive (the sources' own sentences with
their [n] citations) and the reviewer checks the draft. With an LLM configured the model
writes and reviews, and the deterministic checks still hold the citations to account.

- report_triage {question}: {"route": "sql" | "documents", "confidence", "reasons", "routed"}
- report_reporter {question, reporter, route, search, draft?, review?}: a draft section
  {"reporter", "title", "markdown", "citations", "revision", "budget", "focus_terms",
  "method", "empty", "applied" (the review it answered)}
- report_reviewer {question, reporter, route, search, draft}: a verdict {"decision":
  "accept" | "revise", "reason", "suggested_changes", "checks", "missing_terms",
  "too_short", "too_long", "pass", "method"}
- report_stitch {question, markdown, sections, search, triage}: the answer (as the answer
  writers return it), streamed as `token` events, with a `sources` event.
"""

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from chat.models import Route
from chat.orchestrator.answers import extractive
from chat.orchestrator.answers.common import answer, send_text
from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.registry import ToolError, register
from core.providers import llm
from core.providers.llm import ChatCompletionMessageParam
from retrieval.services import query_keywords

logger = logging.getLogger(__name__)

MIN_SENTENCE_SCORE = 0.25  # a report reads wider than a chat answer (extractive.FLOOR)
PASSAGES_FOR_MODEL = 8
PASSAGE_CHARS = 1500
MAX_TABLE_ROWS = 20
_CITATION = re.compile(r"\[(\d{1,3})\]")
# Running headers and footers of converted pages ("Alexis Torres - Resume Page 1 of 2"): they
# name the subject, so they score well, and say nothing.
_PAGE_FURNITURE = re.compile(r"\bpage \d+ of \d+\b", re.IGNORECASE)


@dataclass(frozen=True)
class Angle:
    """What one reporter writes. `sentences` is the extractive budget; the lengths are
    what the reviewer accepts (characters of the section's body)."""

    id: str
    title: str
    instruction: str
    sentences: int = 5
    min_chars: int = 60
    max_chars: int = 3000
    layout: str = "paragraph"  # or "by_source": bullets under each source document


ANGLES = {
    "summary": Angle("summary", "Summary",
                     "The direct answer to the question in three to five sentences.",
                     sentences=3, min_chars=60, max_chars=1200),
    "details": Angle("details", "Details",
                     "The supporting details, as bullet points grouped by source document.",
                     sentences=8, min_chars=150, max_chars=5000, layout="by_source"),
}  # fmt: skip


def angle_of(value: Any) -> Angle:
    """A reporter named in the workflow state: a preset's name, any other name, or an
    object {"id", "title"?, "instruction"?, "sentences"?, "min_chars"?, "max_chars"?,
    "layout"?} that overrides the preset of the same id."""
    if isinstance(value, str) and value.strip():
        key = value.strip()
        title = key.replace("_", " ").capitalize()
        return ANGLES.get(key) or Angle(key, title, f"The {key.replace('_', ' ')} of the answer.")
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        raise ToolError("reporter: a name or an object with an id")
    base = angle_of(value["id"])
    changes: dict[str, Any] = {}
    for name, kind in (("title", str), ("instruction", str), ("layout", str),
                       ("sentences", int), ("min_chars", int), ("max_chars", int)):  # fmt: skip
        if name in value:
            if not isinstance(value[name], kind) or isinstance(value[name], bool):
                raise ToolError(f"reporter {base.id}: {name} must be a {kind.__name__}")
            changes[name] = value[name]
    if changes.get("layout", "paragraph") not in ("paragraph", "by_source"):
        raise ToolError(f"reporter {base.id}: layout is paragraph or by_source")
    return replace(base, **changes)


def _dict(inputs: dict[str, Any], key: str) -> dict[str, Any]:
    value = inputs.get(key)
    return value if isinstance(value, dict) else {}


def _question(inputs: dict[str, Any], ctx: RunContext) -> str:
    return str(inputs.get("question") or ctx.question or "").strip()


def _failure(search: dict[str, Any]) -> str:
    if search.get("ok") is False:
        return str(search.get("error") or "the search failed")
    return ""


# -- triage ----------------------------------------------------------------------------


@register("report_triage", "Decides whether a report reads the business database or the "
          "documents; inputs: question.", uses_breaker=False)  # fmt: skip
def triage(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    from chat.orchestrator.routing import route_question

    decision = route_question(_question(inputs, ctx), ctx.history, user=ctx.user)
    route = Route.SQL if decision.route == Route.SQL else Route.DOCUMENTS
    reasons = list(decision.reasons)
    if decision.route not in (Route.SQL, Route.DOCUMENTS):
        reasons.append(f"routed to {decision.route}; a report reads the documents")
    return {
        "route": str(route),
        "confidence": decision.confidence,
        "reasons": reasons,
        "routed": decision.route,
    }


# -- reporter --------------------------------------------------------------------------


def _heading(angle: Angle, body: str) -> str:
    return f"## {angle.title}\n\n{body.strip()}"


def _body(markdown: str) -> str:
    """A section without its heading line."""
    lines = markdown.strip().splitlines()
    return "\n".join(lines[1:] if lines and lines[0].startswith("#") else lines).strip()


def candidate_sentences(
    question: str, results: Sequence[dict[str, Any]]
) -> list[extractive.Sentence]:
    """The sentences a reporter may use, best first; the reviewer asks only for what
    these can say."""
    return [s for s in extractive.score_sentences(question, results)
            if s.score >= MIN_SENTENCE_SCORE and not _PAGE_FURNITURE.search(s.text)]  # fmt: skip


def _holds(term: str, text: str) -> bool:
    return extractive.coverage([term], text, "") == 1


def _extractive_documents(
    question: str, angle: Angle, results: Sequence[dict[str, Any]], budget: int,
    focus_terms: Sequence[str],
) -> str:  # fmt: skip
    scored = candidate_sentences(question, results)
    chosen: list[extractive.Sentence] = []
    seen: set[str] = set()

    def take(sentence: extractive.Sentence) -> None:
        key = " ".join(sentence.text.lower().split())
        if key not in seen:
            seen.add(key)
            chosen.append(sentence)

    for sentence in scored[: max(1, budget)]:
        take(sentence)
    for term in focus_terms:  # terms a review asked for: the best sentence that holds each
        if not any(_holds(term, s.text) for s in chosen):
            holder = next((s for s in scored if _holds(term, s.text)), None)
            if holder is not None:
                take(holder)
    if not chosen:
        return "No sentence of the documents found answers this closely enough."
    if angle.layout == "by_source":
        blocks = []
        for group in extractive.grouped(chosen, results):
            name = results[group[0].result]["file_name"]
            lines = [f"- {extractive.cite(s.text, s.result + 1)}" for s in group]
            blocks.append(f"**{name}**\n\n" + "\n".join(lines))
        return "\n\n".join(blocks)
    return " ".join(extractive.cite(s.text, s.result + 1) for s in chosen)


def _sql_material(search: dict[str, Any]) -> dict[str, Any]:
    found = search.get("answer")
    return found if isinstance(found, dict) else {}


def _markdown_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def cell(value: Any) -> str:
        return "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(map(cell, columns)) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(map(cell, row)) + " |" for row in rows[:MAX_TABLE_ROWS]]
    if len(rows) > MAX_TABLE_ROWS:
        lines.append(f"\n_First {MAX_TABLE_ROWS} of {len(rows)} rows._")
    return "\n".join(lines)


def _extractive_sql(angle: Angle, result: dict[str, Any]) -> str:
    rows = result.get("rows") or []
    words = str(result.get("answer") or "").strip()
    origin = f"_From the business database: {len(rows)} row(s)._"
    if angle.layout != "by_source":
        return f"{words}\n\n{origin}" if words else origin
    parts = [_markdown_table(result.get("columns") or [], rows)] if rows else []
    if result.get("sql"):
        parts.append(f"```sql\n{result['sql']}\n```")
    tables = [f"- `{t.get('table')}`: {t.get('reason')}" for t in result.get("tables") or []]
    if tables:
        parts.append("Tables used:\n\n" + "\n".join(tables))
    return "\n\n".join([*parts, origin])


REPORTER_PROMPT = """You write one section of a report that answers a question, from
numbered material of the reader's own data and only from it. Cite the material you use
with its number in square brackets, like [2], after each sentence that uses it. Never
invent facts, names or numbers. Reply with the section in Markdown and nothing else."""


def _material(route: str, search: dict[str, Any]) -> str:
    if route == Route.SQL:
        result = _sql_material(search)
        table = _markdown_table(result.get("columns") or [], result.get("rows") or [])
        return f"[1] The business database.\n{result.get('answer', '')}\n\n{table}\n\n" + (
            f"SQL: {result.get('sql') or ''}"
        )
    blocks = []
    for n, result in enumerate((search.get("results") or [])[:PASSAGES_FOR_MODEL], start=1):
        where = " > ".join(p for p in (result["file_name"],
                                       result["metadata"].get("section_path")) if p)  # fmt: skip
        blocks.append(f"[{n}] {where}\n{result['text'][:PASSAGE_CHARS]}")
    return "\n\n".join(blocks)


def _model_draft(
    question: str, angle: Angle, route: str, search: dict[str, Any],
    draft: dict[str, Any], review: dict[str, Any],
) -> str:  # fmt: skip
    request = (
        f"Question: {question}\n\nSection: {angle.title}. {angle.instruction}\n"
        f"Keep it between {angle.min_chars} and {angle.max_chars} characters.\n\n"
        f"Material:\n\n{_material(route, search)}"
    )
    if review:
        notes = review.get("suggested_changes") or review.get("reason")
        request += (
            f"\n\nYour previous draft:\n{draft.get('markdown', '')}\n\nA reviewer asked for "
            f"changes; apply them strictly: {notes}"
        )
    messages: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": REPORTER_PROMPT},
        {"role": "user", "content": request},
    ]
    return llm.complete(messages).text.strip()


@register("report_reporter", "Writes one section (angle) of a report from the search "
          "results; inputs: question, reporter, route, search, draft, review.",
          uses_breaker=False)  # fmt: skip
def reporter(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    question = _question(inputs, ctx)
    angle = angle_of(inputs.get("reporter"))
    route = str(inputs.get("route") or Route.DOCUMENTS)
    search, draft, review = _dict(inputs, "search"), _dict(inputs, "draft"), _dict(inputs, "review")
    revision = int(draft.get("revision", -1)) + 1 if draft else 0
    budget = int(draft.get("budget") or angle.sentences)
    budget += 2 if review.get("too_short") else -2 if review.get("too_long") else 0
    # Terms every review so far asked for: a revision keeps what earlier ones added.
    focus = list(dict.fromkeys([*draft.get("focus_terms", []), *review.get("missing_terms", [])]))
    section: dict[str, Any] = {
        "reporter": angle.id, "title": angle.title, "revision": revision,
        "budget": max(1, budget), "focus_terms": focus, "applied": review, "empty": False,
        "method": "extractive",
    }  # fmt: skip
    results = search.get("results") or []
    material = _sql_material(search) if route == Route.SQL else {}
    if error := _failure(search):
        body, section["empty"] = f"The search failed: {error.rstrip('.')}.", True
    elif route == Route.SQL and (search.get("declined") or not material):
        reason = str(search.get("reason") or material.get("reason") or "no answer").rstrip(".")
        body, section["empty"] = f"The business database does not answer this: {reason}.", True
    elif route != Route.SQL and not results:
        body, section["empty"] = "Nothing in the documents you can read matches this.", True
    else:
        body = ""
        if llm.llm_configured():
            try:
                body = _body(_model_draft(question, angle, route, search, draft, review))
                section["method"] = "llm"
            except Exception as error:  # each SDK has its own errors; none of them is ours
                logger.warning("the model did not write the %s section: %s", angle.id, error)
                section["model_error"] = str(error)[:300]
        if not body and route == Route.SQL:
            body = _extractive_sql(angle, material)
        elif not body:
            body = _extractive_documents(question, angle, results, section["budget"], focus)
    section["markdown"] = _heading(angle, body)
    section["citations"] = sorted({int(n) for n in _CITATION.findall(body)})
    return section


# -- reviewer --------------------------------------------------------------------------


def check_draft(
    question: str, angle: Angle, route: str, search: dict[str, Any], draft: dict[str, Any]
) -> dict[str, Any]:
    """The deterministic review: the draft cites its sources (and only real ones), holds
    the question's key terms that the sources hold, and has a fitting length (on the SQL
    route: names the business database and is not too long)."""
    body = _body(str(draft.get("markdown") or ""))
    if route == Route.SQL:
        cites = "business database" in body
        missing: list[str] = []
    else:
        results = search.get("results") or []
        cited = [int(n) for n in _CITATION.findall(body)]
        cites = bool(cited) and all(1 <= n <= len(results) for n in cited)
        usable = candidate_sentences(question, results)
        held = [t for t in query_keywords(question) if any(_holds(t, s.text) for s in usable)]
        missing = [t for t in held if not _holds(t, body)]
    # A database answer is as long as it is exact ("275 employees."): only the upper bound.
    too_short = route != Route.SQL and len(body) < angle.min_chars
    too_long = len(body) > angle.max_chars
    checks = {"cites_sources": cites, "covers_key_terms": not missing,
              "length": not (too_short or too_long)}  # fmt: skip
    problems, changes = [], []
    if not cites:
        problems.append("it does not cite its sources, or cites ones that do not exist")
        changes.append("Cite each statement with the number of its source.")
    if missing:
        problems.append(f"it leaves out {', '.join(missing)}, which the sources mention")
        changes.append(f"Add what the sources say about {', '.join(missing)}.")
    if too_short:
        problems.append(f"it is short ({len(body)} characters, at least {angle.min_chars})")
        changes.append("Say more: add the next most relevant statements.")
    if too_long:
        problems.append(f"it is long ({len(body)} characters, at most {angle.max_chars})")
        changes.append("Shorten it to the most relevant statements.")
    return {
        "decision": "revise" if problems else "accept",
        "reason": "; ".join(problems) or ACCEPTED,
        "suggested_changes": " ".join(changes),
        "checks": checks,
        "missing_terms": missing,
        "too_short": too_short,
        "too_long": too_long,
    }


ACCEPTED = "it cites its sources, covers the key terms and has a fitting length"
REVIEWER_PROMPT = """You review one section of a report against the question it answers
and the checks already run on it. Reply with JSON only: {"decision": "accept" or "revise",
"reason": "...", "suggested_changes": "..."}."""


def _model_verdict(question: str, angle: Angle, draft: dict[str, Any], checks: dict) -> dict:
    messages: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": REVIEWER_PROMPT},
        {"role": "user", "content": (
            f"Question: {question}\n\nSection: {angle.title}. {angle.instruction}\n\n"
            f"Draft:\n{draft.get('markdown', '')}\n\nChecks: {json.dumps(checks['checks'])}"
        )},
    ]  # fmt: skip
    text = llm.complete(messages).text.strip()
    text = re.sub(r"^```(?:json)?\s*|\s*```$", "", text)
    verdict = json.loads(text)
    if not isinstance(verdict, dict) or verdict.get("decision") not in ("accept", "revise"):
        raise ValueError("the reply is not a verdict")
    return verdict


@register("report_reviewer", "Reviews a report section: accept or revise; inputs: "
          "question, reporter, route, search, draft.", uses_breaker=False)  # fmt: skip
def reviewer(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    question = _question(inputs, ctx)
    angle = angle_of(inputs.get("reporter"))
    route = str(inputs.get("route") or Route.DOCUMENTS)
    draft = _dict(inputs, "draft")
    if not draft.get("markdown"):
        raise ToolError("draft: a section from report_reporter is required")
    number = int(draft.get("revision") or 0) + 1
    if draft.get("empty"):
        return {"decision": "accept", "reason": "there is nothing to report from",
                "suggested_changes": "", "checks": {}, "missing_terms": [], "too_short": False,
                "too_long": False, "pass": number, "method": "checks"}  # fmt: skip
    verdict = check_draft(question, angle, route, _dict(inputs, "search"), draft)
    verdict |= {"pass": number, "method": "checks"}
    if llm.llm_configured():
        try:
            opinion = _model_verdict(question, angle, draft, verdict)
        except Exception as error:  # an unreadable or failed reply: the checks decide
            logger.warning("the model did not review the %s section: %s", angle.id, error)
            verdict["model_error"] = str(error)[:300]
        else:
            # The model decides, except that a draft citing no real source is never accepted.
            cited = verdict["checks"]["cites_sources"]
            decision = opinion["decision"] if cited else "revise"
            verdict |= {"decision": decision, "method": "llm",
                        "reason": str(opinion.get("reason") or verdict["reason"]),
                        "suggested_changes": str(opinion.get("suggested_changes") or
                                                 verdict["suggested_changes"])}  # fmt: skip
    return verdict


# -- stitch ----------------------------------------------------------------------------


def _section_notes(sections: dict[str, Any]) -> list[str]:
    notes = []
    for key, draft in sections.items():
        if not isinstance(draft, dict):
            notes.append(f"The {key} section could not be written.")
            continue
        review = draft.get("review") or {}
        if review.get("decision") == "accept":
            continue
        passes = int(draft.get("revision") or 0)
        reason = (draft.get("applied") or {}).get("reason") or "not reviewed"
        notes.append(
            f"The {draft.get('title') or key} section was not accepted after {passes} review "
            f"pass(es); it was last revised for this: {reason}."
        )
    return notes


@register("report_stitch", "Puts the reviewed sections together into the answer; inputs: "
          "question, markdown, sections, search, triage.", uses_breaker=False)  # fmt: skip
def stitch(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    sections = _dict(inputs, "sections")
    search, triage_result = _dict(inputs, "search"), _dict(inputs, "triage")
    route = Route.SQL if triage_result.get("route") == Route.SQL else Route.DOCUMENTS
    markdown = str(inputs.get("markdown") or "").strip()
    if not markdown:
        raise ToolError("markdown: the stitched sections are required")
    notes = _section_notes(sections)
    if degraded := str(search.get("degraded") or ""):
        notes.append(degraded)
    pieces = [piece + "\n\n" for piece in markdown.split("\n\n")]
    pieces += [f"_{note}_\n\n" for note in notes]
    content = send_text(ctx, pieces).strip()
    sources = [s for s in search.get("sources") or [] if s.get("n") in
               {int(n) for n in _CITATION.findall(markdown)}]  # fmt: skip
    if sources:
        ctx.send("sources", sources=sources)
    data: dict[str, Any] = {
        "workflow": "report",
        "reporters": list(sections),
        "reviews": {
            key: {
                "decision": (draft.get("review") or {}).get("decision", "not reviewed"),
                "passes": int(draft.get("revision") or 0) + bool(draft.get("review")),
                "method": draft.get("method"),
            }
            for key, draft in sections.items()
            if isinstance(draft, dict)
        },
        "triage": triage_result,
        "degraded": degraded,
    }
    follow_ups: list[str] = []
    if route == Route.SQL:
        result = _sql_material(search)
        data |= {"sql": result.get("sql"), "join_path": result.get("join_path") or [],
                 "row_count": len(result.get("rows") or [])}  # fmt: skip
        follow_ups = list(result.get("follow_ups") or [])
    return answer(route=route, content=content, sources=sources, data=data, follow_ups=follow_ups)
