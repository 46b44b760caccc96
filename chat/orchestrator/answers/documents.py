"""The answer to a document question, from what `document_search` found.

Without an LLM the answer is extractive (answers/extractive.py): the sentences that answer,
each followed by its citation [n]; n is the source's rank in the search, and the sources
shown are the ones cited. When no sentence is good enough it says so and lists the closest
passages. With an LLM configured, the model writes a grounded answer from the passages
with [n] citations, streamed as it writes.
"""

import logging
import re
from collections.abc import Sequence
from typing import Any

from chat.models import Outcome, Route
from chat.orchestrator.answers import answerability, elsewhere, extractive
from chat.orchestrator.answers.common import (
    ModelUnavailable,
    answer,
    send_text,
    stream_model,
)
from chat.orchestrator.answers.sql import write_sql_answer
from chat.orchestrator.context import RunContext
from core.providers import llm
from core.providers.llm import ChatCompletionMessageParam
from ingestion.models import Collection
from retrieval.models import QueryTrace
from retrieval.services import readable_collection_ids

logger = logging.getLogger(__name__)

CLOSEST_SHOWN = 3
PASSAGES_FOR_MODEL = 8
PASSAGE_CHARS = 1500
NOTHING_FOUND = "Nothing in the documents you can read matches this question."
SYSTEM_PROMPT = """You answer questions from numbered passages of the reader's documents, and
only from them. After each sentence that uses a passage, cite it with its number in square
brackets, like [2]. If the passages do not answer the question, say so plainly in one
sentence. Never invent facts, names or numbers. Answer concisely in Markdown."""
_CITATION = re.compile(r"\[(\d{1,3})\]")


def passages_prompt(question: str, sources: Sequence[dict[str, Any]], texts: Sequence[str]) -> str:
    blocks = []
    for source, text in zip(sources, texts, strict=True):
        where = " > ".join(p for p in (source["file_name"], source["section_path"]) if p)
        blocks.append(f"[{source['n']}] {where}\n{text[:PASSAGE_CHARS]}")
    return f"Question: {question}\n\nPassages:\n\n" + "\n\n".join(blocks)


def cited_numbers(text: str, known: Sequence[int]) -> list[int]:
    allowed = set(known)
    found = [int(n) for n in _CITATION.findall(text)]
    return list(dict.fromkeys(n for n in found if n in allowed))


def _retrieved(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the trace view shows of each retrieved chunk."""
    return [
        {
            "n": n,
            "chunk_id": r["metadata"]["chunk_id"],
            "file_name": r["file_name"],
            "section_path": r["metadata"].get("section_path") or "",
            "score": r["hybrid_score"],
            "similarity": r["similarity"],
            "source": r["source"],
            "relationship": r["metadata"].get("relationship"),
            "score_shares": r["metadata"].get("score_shares", {}),
        }
        for n, r in enumerate(results, start=1)
    ]


def _closest(sources: Sequence[dict[str, Any]]) -> str:
    listed = []
    for source in sources[:CLOSEST_SHOWN]:
        section = source["section_path"].rsplit(">", 1)[-1].strip()
        where = f"{source['file_name']} ({section})" if section else source["file_name"]
        listed.append(f"{where} [{source['n']}]")
    return "; ".join(listed)


def extractive_text(
    ctx: RunContext,
    results: Sequence[dict[str, Any]],
    sources: Sequence[dict[str, Any]],
    scored: Sequence[extractive.Sentence],
) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
    """Stream the extractive answer from the scored sentences (or the routed section's
    lines); return it, the sources it cites and its figures."""
    kept = extractive.section_lines(results)
    details: dict[str, Any] = {"method": "extractive"}
    if kept:
        details["section"] = results[0]["metadata"].get("section_path")
    else:
        kept = extractive.select(scored)
        details["best_sentence_score"] = scored[0].score if scored else 0.0
    if not kept:  # no sentence answers it: the caller says so
        return "", [], details
    text = send_text(ctx, extractive.render(extractive.grouped(kept, results), results))
    cited = [sources[n - 1] for n in cited_numbers(text, [s["n"] for s in sources])]
    details["sentences"] = [
        {"n": s.result + 1, "score": s.score, "vector": round(s.vector, 4),
         "coverage": round(s.coverage, 4)}
        for s in kept
    ]  # fmt: skip
    return text, cited, details


def model_text(
    ctx: RunContext,
    question: str,
    results: Sequence[dict[str, Any]],
    sources: Sequence[dict[str, Any]],
    *,
    extra: str = "",
) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
    """Stream the model's grounded answer; return it and the sources it cites."""
    shown = list(sources[:PASSAGES_FOR_MODEL])
    prompt = passages_prompt(question, shown, [r["text"] for r in results[: len(shown)]])
    if extra:
        prompt = f"{extra}\n\n{prompt}"
    messages: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": prompt},
    ]
    text = stream_model(ctx, messages)
    numbers = cited_numbers(text, [s["n"] for s in shown])
    cited = [s for s in shown if s["n"] in numbers] or shown[:CLOSEST_SHOWN]
    return text, cited, {"method": "llm"}


def write_document_answer(
    question: str,
    search: dict[str, Any],
    ctx: RunContext,
    *,
    tried: dict[str, Any] | None = None,
    routed: str = Route.DOCUMENTS,
) -> dict[str, Any]:
    """`tried`: every route's result this turn (a database decline is stated first);
    `routed`: the route the router chose (a database question nothing answers is declined)."""
    results: list[dict[str, Any]] = list(search.get("results") or [])
    sources: list[dict[str, Any]] = list(search.get("sources") or [])
    degraded = str(search.get("degraded") or "")
    data: dict[str, Any] = {
        "query": search.get("query") or question,
        "person": search.get("person") or "",
        "degraded": degraded,
        "retrieved": _retrieved(results),
        "trace_id": search.get("trace_id"),
    }
    declined = elsewhere.database_declined(tried or {})
    text = (
        send_text(ctx, [f"{declined} I looked in the documents instead.\n\n"]) if declined else ""
    )
    cited: list[dict[str, Any]] = []
    written, grounded = "", False
    if results:
        written, cited, details = _from_passages(ctx, question, results, sources)
        data.update(details)
        grounded = bool(cited)
    if not (grounded or written or declined) and (
        none := elsewhere.database_found_none(tried or {})
    ):
        return write_sql_answer(question, none, ctx, tried=tried, routed=routed)
    outcome: str = Outcome.ANSWERED
    if grounded:
        outcome = Outcome.PARTIAL if degraded else Outcome.ANSWERED
    else:
        # The model's own "the passages do not say" stands; otherwise it is said here.
        written = written or _not_found(
            ctx, results, data, empty_notice=str(search.get("notice") or "")
        )
        outcome, cited = elsewhere.unanswered(routed), []
    text += written
    if degraded:
        text += send_text(ctx, [f"\n\n_{degraded}_"])
    if cited:
        ctx.send("sources", sources=cited)
    trace_id = search.get("trace_id")
    if isinstance(trace_id, int):
        QueryTrace.objects.filter(pk=trace_id).update(answer=text)
    return answer(route=Route.DOCUMENTS, content=text, sources=cited, data=data, outcome=outcome)


def _from_passages(
    ctx: RunContext,
    question: str,
    results: Sequence[dict[str, Any]],
    sources: Sequence[dict[str, Any]],
) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
    """The answer from the passages and the sources it cites; no sources when they do not
    answer the question. With an LLM, the model answers only from them and an answer that
    cites none is no answer (its words, saying so, stand); without one, the answerability
    check decides before anything is written."""
    unavailable: dict[str, Any] = {}
    if llm.llm_configured():
        try:
            text, cited, written = model_text(ctx, question, results, sources)
        except ModelUnavailable as error:
            unavailable = {"llm_error": str(error)}
        else:
            grounded = cited_numbers(text, [s["n"] for s in sources])
            return text, cited if grounded else [], {**written, "grounded": bool(grounded)}
    routed_section = bool(extractive.section_lines(results))
    scored = [] if routed_section else extractive.score_sentences(question, results)
    keywords = ctx.analysis.keywords(question, readable_collection_ids(ctx.user))
    verdict = answerability.judge(question, results, scored, keywords)
    details: dict[str, Any] = {"answerability": verdict.as_dict(), **unavailable}
    if not (verdict.answerable or routed_section):
        return "", [], {**details, "method": "extractive"}
    text, cited, found = extractive_text(ctx, results, sources, scored)
    return text, cited, {**details, **found}


def _not_found(
    ctx: RunContext, results: Sequence[dict[str, Any]], data: dict[str, Any], *, empty_notice: str
) -> str:
    """Says that the documents do not answer, names them, and offers the nearest topics
    they cover as suggestions, not as the answer."""
    names = readable_names(ctx)
    where = f" ({names})" if names else ""
    if not results:
        return send_text(ctx, [empty_notice or f"Nothing in the documents you can read{where} "
                                                "matches this question."])  # fmt: skip
    pieces = [f"The documents you can read{where} do not answer this."]
    unknown = (data.get("answerability") or {}).get("missing_names") or []
    if unknown:
        pieces.append(f" None of them mentions {', '.join(unknown[:3])}.")
    topics = nearest_topics(results)
    if topics:
        pieces.append("\n\nThe nearest topics they do cover, in case one is what you meant:")
        pieces += [f"\n- {topic}" for topic in topics]
    data["suggested_topics"] = topics
    return send_text(ctx, pieces)


def nearest_topics(results: Sequence[dict[str, Any]]) -> list[str]:
    """Section and document names of the best passages, each once."""
    topics: list[str] = []
    for result in results:
        section = str(result["metadata"].get("section_path") or "").rsplit(">", 1)[-1].strip()
        topic = f"{section} ({result['file_name']})" if section else str(result["file_name"])
        if topic not in topics:
            topics.append(topic)
        if len(topics) >= CLOSEST_SHOWN:
            break
    return topics


def readable_names(ctx: RunContext, shown: int = 3) -> str:
    names = list(
        Collection.objects.readable_by(ctx.user).order_by("name").values_list("name", flat=True)
    )
    if len(names) > shown:
        return ", ".join(names[:shown]) + f" and {len(names) - shown} more"
    return ", ".join(names)
