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

from chat.models import Route
from chat.orchestrator.answers import extractive
from chat.orchestrator.answers.common import (
    ModelUnavailable,
    answer,
    send_text,
    stream_model,
)
from chat.orchestrator.context import RunContext
from core.providers import llm
from core.providers.llm import ChatCompletionMessageParam
from retrieval.models import QueryTrace

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
    question: str,
    results: Sequence[dict[str, Any]],
    sources: Sequence[dict[str, Any]],
) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
    """Stream the extractive answer; return it, the sources it cites and its figures."""
    kept = extractive.section_lines(results)
    details: dict[str, Any] = {"method": "extractive"}
    if kept:
        details["section"] = results[0]["metadata"].get("section_path")
    else:
        scored = extractive.score_sentences(question, results)
        kept = extractive.select(scored)
        details["best_sentence_score"] = scored[0].score if scored else 0.0
    if not kept:
        closest = list(sources[:CLOSEST_SHOWN])
        text = send_text(
            ctx,
            [
                "The documents you can read do not answer this directly. ",
                f"The closest passages are in {_closest(closest)}.",
            ],
        )
        return text, closest, details

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
) -> dict[str, Any]:
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
    cited: list[dict[str, Any]] = []
    if not results:
        text = send_text(ctx, [str(search.get("notice") or "") or NOTHING_FOUND])
        data["method"] = "none"
    else:
        text = ""
        if llm.llm_configured():
            try:
                text, cited, details = model_text(ctx, question, results, sources)
            except ModelUnavailable as error:
                data["llm_error"] = str(error)
        if not text:
            text, cited, details = extractive_text(ctx, question, results, sources)
        data.update(details)
    if degraded:
        text += send_text(ctx, [f"\n\n_{degraded}_"])
    if cited:
        ctx.send("sources", sources=cited)
    trace_id = search.get("trace_id")
    if isinstance(trace_id, int):
        QueryTrace.objects.filter(pk=trace_id).update(answer=text)
    return answer(route=Route.DOCUMENTS, content=text, sources=cited, data=data)
