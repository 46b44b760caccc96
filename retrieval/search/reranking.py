"""Stage 3: one hybrid score per candidate.

Weighted (default):

    relevance = (1 - keyword_boost) * vector + keyword_boost * keyword
    hybrid    = (1 - w_path - w_doc) * relevance + w_path * path + w_doc * proximity
              [+ w_section * section, when soft section routing found matching sections]

Every signal is in 0..1 before it is weighted, so a weight is the most that signal can add:
`vector` is the cosine similarity min-max scaled over the candidates (cosines of one model
crowd into a narrow band), `keyword` the chunk's BM25 score divided by the best one,
`path` the path signal (path scores 1.0 / 0.8 / 0.6 by hops, weighted by the relevance of
the seeds the paths start from; see graph_expansion.path_signals), `proximity` how much of
the first-stage evidence sits in the chunk's document (relative to the best document).

Learned (default): a linear score over these signals and more evidence, weights fitted on
development questions; see learned_ranking.

RRF: sum over the rankings (vector, keyword, graph path, proximity) of
weight / (k + rank), divided by its largest possible value so it also lies in 0..1.
"""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from ..fusion import configured_model
from .candidates import Candidate
from .learned_ranking import score_learned

SIGNALS = ("vector", "keyword", "path", "proximity", "section")


@dataclass(frozen=True)
class Weights:
    vector: float
    keyword: float
    path: float
    proximity: float
    section: float = 0.0

    @classmethod
    def from_boost(cls, keyword_boost: float, *, section: float = 0.0) -> "Weights":
        path, proximity = settings.RETRIEVAL_PATH_WEIGHT, settings.RETRIEVAL_PROXIMITY_WEIGHT
        relevance = max(0.0, 1.0 - path - proximity - section)
        return cls(
            vector=relevance * (1.0 - keyword_boost),
            keyword=relevance * keyword_boost,
            path=path,
            proximity=proximity,
            section=section,
        )

    def as_dict(self) -> dict[str, float]:
        return {name: round(getattr(self, name), 4) for name in SIGNALS}


def _min_max(values: dict[str, float]) -> dict[str, float]:
    if not values:
        return {}
    low, high = min(values.values()), max(values.values())
    if high - low < 1e-9:
        return dict.fromkeys(values, 1.0 if high > 0 else 0.0)
    return {key: (value - low) / (high - low) for key, value in values.items()}


def document_proximity(candidates: Sequence[Candidate]) -> dict[str, float]:
    """Per chunk: the first-stage evidence in its document (seeds found by vector or
    keyword search, each counting its relevance), relative to the best document."""
    evidence: dict[str, float] = defaultdict(float)
    for c in candidates:
        if c.is_seed and c.row:
            evidence[str(c.row["document_id"])] += c.signals.get("relevance", 0.0)
    best = max(evidence.values(), default=0.0)
    if best <= 0:
        return {c.chunk_id: 0.0 for c in candidates}
    return {c.chunk_id: evidence.get(str(c.row.get("document_id")), 0.0) / best for c in candidates}


def _normalize(candidates: Sequence[Candidate], keyword_boost: float) -> None:
    vectors = _min_max(
        {c.chunk_id: c.vector_similarity for c in candidates if c.vector_similarity is not None}
    )
    best_keyword = max((c.keyword_bm25 for c in candidates), default=0.0)
    for c in candidates:
        vector = vectors.get(c.chunk_id, 0.0)
        keyword = c.keyword_bm25 / best_keyword if best_keyword > 0 else 0.0
        c.signals = {
            "vector": vector,
            "keyword": keyword,
            "path": c.path_signal,
            "section": c.section_boost,
            "relevance": (1.0 - keyword_boost) * vector + keyword_boost * keyword,
        }
    proximity = document_proximity(candidates)
    for c in candidates:
        c.signals["proximity"] = proximity[c.chunk_id]
    for c in candidates:
        del c.signals["relevance"]


def rerank_weighted(
    candidates: Sequence[Candidate], *, keyword_boost: float, section_weight: float = 0.0
) -> Weights:
    weights = Weights.from_boost(keyword_boost, section=section_weight)
    _normalize(candidates, keyword_boost)
    for c in candidates:
        parts = {name: getattr(weights, name) * c.signals[name] for name in SIGNALS}
        c.hybrid_score = sum(parts.values())
        c.shares = {
            name: (part / c.hybrid_score if c.hybrid_score > 0 else 0.0)
            for name, part in parts.items()
        }
    return weights


def _ranks(
    candidates: Sequence[Candidate], key: str, *, only: set[str] | None = None
) -> dict[str, int]:
    pool = [c for c in candidates if c.signals[key] > 0 and (only is None or c.chunk_id in only)]
    pool.sort(key=lambda c: -c.signals[key])
    return {c.chunk_id: rank for rank, c in enumerate(pool, start=1)}


def rerank_rrf(
    candidates: Sequence[Candidate], *, keyword_boost: float, section_weight: float = 0.0
) -> Weights:
    """Ranks instead of scores; the keyword boost still sets the vector/keyword balance."""
    weights = Weights.from_boost(keyword_boost, section=section_weight)
    _normalize(candidates, keyword_boost)
    k = settings.RETRIEVAL_RRF_K
    keyword_hits = {c.chunk_id for c in candidates if c.keyword_score > 0}
    rankings = {
        "vector": _ranks(candidates, "vector"),
        "keyword": _ranks(candidates, "keyword", only=keyword_hits),
        "path": _ranks(candidates, "path"),
        "proximity": _ranks(candidates, "proximity"),
        "section": _ranks(candidates, "section"),
    }
    best = sum(getattr(weights, name) / (k + 1) for name in SIGNALS) or 1.0
    for c in candidates:
        parts = {
            name: getattr(weights, name) / (k + rankings[name][c.chunk_id])
            if c.chunk_id in rankings[name]
            else 0.0
            for name in SIGNALS
        }
        total = sum(parts.values())
        c.hybrid_score = total / best
        c.shares = {name: (part / total if total > 0 else 0.0) for name, part in parts.items()}
    return weights


def rerank_learned(
    candidates: Sequence[Candidate], *, query: str, keyword_boost: float, section_weight: float
) -> Weights:
    """The fitted model's score; the keyword boost only sets the seeds' relevance that the
    proximity signal sums."""
    _normalize(candidates, keyword_boost)
    model = configured_model()
    weights = score_learned(candidates, query=query, section_weight=section_weight, model=model)
    return Weights(**weights)


def rerank(
    candidates: Sequence[Candidate],
    *,
    fusion: str,
    keyword_boost: float,
    section_weight: float = 0.0,
    query: str = "",
) -> tuple[list[Candidate], Weights]:
    if fusion == "learned":
        weights = rerank_learned(
            candidates, query=query, keyword_boost=keyword_boost, section_weight=section_weight
        )
    else:
        fuse = rerank_rrf if fusion == "rrf" else rerank_weighted
        weights = fuse(candidates, keyword_boost=keyword_boost, section_weight=section_weight)
    ranked = sorted(
        candidates,
        key=lambda c: (-c.hybrid_score, -(c.vector_similarity or 0.0), c.chunk_id),
    )
    return ranked, weights
