"""Runs a question set through several retrieval configurations, side by side."""

import importlib.util
import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..search import graphrag_search
from ..search.keyword_search import keyword_search
from ..search.query_terms import search_terms
from ..search.scope import Scope, resolve_scope
from ..search.vector_search import vector_search
from .metrics import distinct, mean, score_question

# Chunks each configuration returns; documents are ranked by their first chunk.
DEPTH = 40
METRICS = ("recall@5", "recall@10", "both@5", "both@10", "mrr", "ndcg@10")


class QuestionFileError(ValueError):
    pass


@dataclass(frozen=True)
class Question:
    question: str
    relevant_documents: tuple[str, ...]
    answers: tuple[str, ...] = ()
    type: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def load_questions(path: Path) -> list[Question]:
    """One JSON object per line: question, relevant_documents (file names), answers (optional)."""
    questions = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise QuestionFileError(f"{path}:{number}: not JSON ({exc.msg})") from exc
            question = item.get("question") if isinstance(item, dict) else None
            relevant = item.get("relevant_documents") if isinstance(item, dict) else None
            if not isinstance(question, str) or not question.strip():
                raise QuestionFileError(f"{path}:{number}: 'question' must be a non-empty string")
            if (
                not isinstance(relevant, list)
                or not relevant
                or not all(isinstance(r, str) for r in relevant)
            ):
                raise QuestionFileError(
                    f"{path}:{number}: 'relevant_documents' must be a non-empty list of file names"
                )
            known = {"question", "relevant_documents", "answers", "type"}
            questions.append(
                Question(
                    question=question,
                    relevant_documents=tuple(relevant),
                    answers=tuple(str(a) for a in item.get("answers") or ()),
                    type=str(item.get("type") or ""),
                    extra={k: v for k, v in item.items() if k not in known},
                )
            )
    if not questions:
        raise QuestionFileError(f"{path}: no questions")
    return questions


Ranker = Callable[[str, Any, Scope, str | None], list[str]]


def _file_names(scope: Scope, chunk_ids: Sequence[str]) -> list[str]:
    from ingestion.models import Chunk

    names = dict(
        Chunk.objects.filter(pk__in=chunk_ids, collection_id__in=scope.collection_ids).values_list(
            "pk", "document__file_name"
        )
    )
    return [names[c] for c in map(_uuid, chunk_ids) if c in names]


def _uuid(value: str) -> Any:
    import uuid

    return uuid.UUID(value)


def keyword_only(question: str, user: Any, scope: Scope, collection: str | None) -> list[str]:
    hits = keyword_search(search_terms(question), scope, limit=DEPTH)
    return distinct(_file_names(scope, [h.chunk_id for h in hits]))


def vector_only(question: str, user: Any, scope: Scope, collection: str | None) -> list[str]:
    from core.providers.embeddings import embed_texts

    embedding = embed_texts([question])[0]
    hits = vector_search(embedding, scope, limit=DEPTH, threshold=0.0, keep=DEPTH)
    return distinct(_file_names(scope, [h.chunk_id for h in hits]))


def _search(**options: Any) -> Ranker:
    def rank(question: str, user: Any, scope: Scope, collection: str | None) -> list[str]:
        outcome = graphrag_search(
            question, user=user, collection=collection, top_k=DEPTH, record_trace=False, **options
        )
        return distinct([r["file_name"] for r in outcome.results])

    return rank


CONFIGS: dict[str, Ranker] = {
    "keyword": keyword_only,
    "vector": vector_only,
    "hybrid": _search(max_hops=0),
    "hybrid+graph": _search(max_hops=1),
    "hybrid+graph+routing": _search(max_hops=1, use_section_routing=True),
    # Variants, for tuning.
    "hybrid+graph2": _search(max_hops=2),
    "hybrid+graph(no entities)": _search(max_hops=1, entity_expansion_limit=0),
    "hybrid+graph(no titles)": _search(max_hops=1, title_expansion_limit=0),
    "hybrid+graph(no bridges)": _search(
        max_hops=1, entity_expansion_limit=0, title_expansion_limit=0
    ),
    "hybrid+graph+rrf": _search(max_hops=1, fusion="rrf"),
    "hybrid+graph+weighted": _search(max_hops=1, fusion="weighted"),
}
DEFAULT_CONFIGS = ("keyword", "vector", "hybrid", "hybrid+graph", "hybrid+graph+routing")


def routing_available() -> bool:
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("retrieval.query_understanding", "retrieval.section_routing")
    )


@dataclass
class ConfigResult:
    name: str
    means: dict[str, float]
    per_question: list[dict[str, Any]]
    latency_p50_ms: float
    by_type: dict[str, dict[str, float]]


def evaluate(
    questions: Sequence[Question], *, user: Any, collection: str | None, configs: Sequence[str]
) -> list[ConfigResult]:
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        raise ValueError(f"unknown configurations {unknown}; choose from {sorted(CONFIGS)}")
    scope = resolve_scope(user, collection=collection)
    results = []
    for name in configs:
        rank = CONFIGS[name]
        rows: list[dict[str, Any]] = []
        latencies = []
        for q in questions:
            started = time.perf_counter()
            ranked = rank(q.question, user, scope, collection)
            latencies.append((time.perf_counter() - started) * 1000)
            scores = score_question(ranked, q.relevant_documents)
            rows.append({"question": q.question, "type": q.type, "ranked": ranked[:10], **scores})
        types = sorted({r["type"] for r in rows if r["type"]})
        by_type = {
            t: mean([{k: r[k] for k in METRICS} for r in rows if r["type"] == t]) for t in types
        }
        results.append(
            ConfigResult(
                name=name,
                means=mean([{k: r[k] for k in METRICS} for r in rows]),
                per_question=rows,
                latency_p50_ms=statistics.median(latencies),
                by_type=by_type,
            )
        )
    return results
