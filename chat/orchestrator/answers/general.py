"""Answers that need no search: what Switchboard can do (general), which reading of an
ambiguous question was meant (clarification), and what happened to uploaded files.

Without an LLM the general answer is a plain, true description built from what this person
can reach (their collections, the business database's main kinds of records) and example
questions from the admin-edited RouteExample rows; with an LLM, the model answers, told the
same facts."""

import logging
import re
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db.models import Count

from chat.models import Outcome, Route
from chat.orchestrator.answers.common import (
    ModelUnavailable,
    answer,
    example_questions,
    history_messages,
    send_lines,
    send_text,
    stream_model,
)
from chat.orchestrator.context import RunContext
from core.providers import llm
from core.providers.llm import ChatCompletionMessageParam
from ingestion.models import Collection
from registries.models import DataSource
from registries.services import load_semantic_layer
from sqlagent.services import phrase

logger = logging.getLogger(__name__)

MAX_COLLECTIONS_LISTED = 6
MAX_RECORD_KINDS = 8
_GREETING = re.compile(r"^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening))\b", re.I)
_THANKS = re.compile(r"^\s*(thanks|thank you|cheers|great|perfect)\b", re.I)
# What each route reads, as a person would say it.
READINGS: dict[str, str] = {
    Route.SQL: "the business database (records and figures)",
    Route.DOCUMENTS: "your documents (what a passage says)",
    Route.GRAPH: "the knowledge graph (who or what is connected to whom)",
}
READING_QUESTIONS: dict[str, str] = {
    Route.SQL: "From the business database: {q}",
    Route.DOCUMENTS: "Search the documents: {q}",
    Route.GRAPH: "In the knowledge graph: {q}",
}


def _plural(word: str) -> str:
    if word.endswith("y") and not word.endswith(("ay", "ey", "oy")):
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


def collections_with_counts(user: Any) -> list[tuple[str, int]]:
    rows = (
        Collection.objects.readable_by(user)
        .annotate(documents_count=Count("documents", distinct=True))
        .order_by("-documents_count", "name")
        .values_list("name", "documents_count")
    )
    return list(rows)


def record_kinds() -> list[str]:
    """The business database's main kinds of records ("work orders", "customers"), or none
    when no database is set up."""
    if not DataSource.objects.filter(name=settings.REGISTRIES_DEFAULT_DATA_SOURCE).exists():
        return []
    try:
        layer = load_semantic_layer()
    except Exception:  # a registry being edited must not break a greeting
        logger.warning("the semantic layer could not be loaded", exc_info=True)
        return []
    instances = sorted(
        (t for t in layer.tables.values() if t.role == "instance"),
        key=lambda t: (-t.row_estimate, t.name),
    )
    return [_plural(phrase(t.name)) for t in instances[:MAX_RECORD_KINDS]]


def capabilities(user: Any) -> list[str]:
    """What this person can ask about, one Markdown line each, all of it true."""
    lines = []
    collections = collections_with_counts(user)
    total = sum(n for _, n in collections)
    if collections:
        listed = ", ".join(f"{name} ({n})" for name, n in collections[:MAX_COLLECTIONS_LISTED])
        more = " and more" if len(collections) > MAX_COLLECTIONS_LISTED else ""
        lines.append(
            f"- **Your documents**: {total} documents in {listed}{more}. Answers quote the "
            "passages that answer and cite them."
        )
        lines.append(
            "- **The knowledge graph** of those documents: who worked with whom, where and "
            "on what, with the passages that say so."
        )
    else:
        lines.append("- **Documents**: you cannot read any collection yet.")
    kinds = record_kinds()
    if kinds:
        lines.append(
            f"- **The business database**: {', '.join(kinds)} and more. Answers show the SQL "
            "and the rows, within the data you may see."
        )
    lines.append("- **Uploads**: attach files to a question to add them to your documents.")
    return lines


def _examples(question: str) -> list[str]:
    found: list[str] = []
    for route in (Route.SQL, Route.DOCUMENTS, Route.GRAPH):
        found += example_questions(route, question, limit=1)
    return found


def write_general_answer(question: str, ctx: RunContext) -> dict[str, Any]:
    facts = capabilities(ctx.user)
    examples = _examples(question)
    data: dict[str, Any] = {"capabilities": facts, "examples": examples}
    text = ""
    if llm.llm_configured():
        system = (
            "You are Switchboard, a chat that answers questions from the reader's documents "
            "and business database, always with sources. What this reader can ask about:\n"
            + "\n".join(facts)
            + "\nAnswer the message briefly and truthfully. Do not claim to know facts from "
            "the documents or the database: those questions are answered by searching them."
        )
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": system},
            *history_messages(ctx),
            {"role": "user", "content": question},
        ]
        try:
            text = stream_model(ctx, messages)
            data["writer"] = "llm"
        except ModelUnavailable as error:
            data["llm_error"] = str(error)
    if not text:
        opening = "I answer questions from these sources, and show where each answer comes from:"
        if _GREETING.match(question):
            opening = f"Hello. {opening}"
        elif _THANKS.match(question):
            opening = f"You're welcome. {opening}"
        lines = [opening, "", *facts]
        if examples:
            lines += ["", "For example, you could ask:", *(f"- {q}" for q in examples)]
        text = send_lines(ctx, lines)
        data["writer"] = "fixed"
    return answer(route=Route.GENERAL, content=text, data=data, follow_ups=examples)


def _readings(scores: dict[str, Any] | None, options: Sequence[str]) -> list[str]:
    if options:
        return [str(o) for o in options]
    ranked = sorted(
        ((route, float(score)) for route, score in (scores or {}).items() if route in READINGS),
        key=lambda item: -item[1],
    )
    return [route for route, score in ranked if score > 0][:3]


def write_clarification(
    question: str,
    ctx: RunContext,
    *,
    options: Sequence[str] = (),
    scores: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Ask which reading was meant. `options` are readings in words (as given by a
    planner); failing those, the routes `scores` found plausible are offered."""
    readings = _readings(scores, options)
    follow_ups: list[str] = []
    if len(readings) >= 2 or options:
        lines = []
        for i, reading in enumerate(readings, start=1):
            if reading in READINGS:
                lines.append(f"{i}. {READINGS[reading]}")
                follow_ups.append(READING_QUESTIONS[reading].format(q=question.strip()))
            else:
                lines.append(f"{i}. {reading}")
                follow_ups.append(reading)
        lines = ["Your question could be read more than one way. Did you mean:", "", *lines]
        lines += ["", "Pick one, or say a little more about what you need."]
    else:
        follow_ups = _examples(question)
        lines = [
            "Could you say a little more about what you need? I can search your documents, "
            "the knowledge graph built from them, and the business database."
        ]
        if follow_ups:
            lines += ["", "For example:", *(f"- {q}" for q in follow_ups)]
    text = send_lines(ctx, lines)
    return answer(
        route=Route.CLARIFICATION,
        content=text,
        data={"readings": readings},
        follow_ups=follow_ups,
        outcome=Outcome.CLARIFY,
    )


def write_upload_answer(upload: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    """What happened to the attached files: queued (progress follows as
    `ingestion_progress` events), already there unchanged, or refused with the reason."""
    files = upload.get("files") or []
    collection = upload.get("collection") or ""
    queued = [f["file_name"] for f in files if f["status"] == "queued"]
    skipped = [f["file_name"] for f in files if f["status"] == "skipped"]
    failed = [f for f in files if f["status"] == "failed"]
    pieces = []
    if queued:
        noun = "file" if len(queued) == 1 else f"{len(queued)} files"
        pieces.append(
            f"Adding {noun} to **{collection}**: {', '.join(queued)}. Progress shows as each "
            "one is read; the documents can be searched once they are done."
        )
    if skipped:
        pieces.append(f"Already in **{collection}** unchanged: {', '.join(skipped)}.")
    for item in failed:
        pieces.append(f"Could not add {item['file_name']}: {item['error']}.")
    if not pieces:
        pieces.append("No file was uploaded.")
    text = send_text(ctx, [p if not i else f"\n\n{p}" for i, p in enumerate(pieces)])
    data = {"collection": collection, "jobs": upload.get("jobs") or [], "files": files}
    if queued or skipped:
        outcome = Outcome.PARTIAL if failed else Outcome.ANSWERED
    else:
        outcome = Outcome.DECLINED
    return answer(route=Route.UPLOAD, content=text, data=data, outcome=outcome)
