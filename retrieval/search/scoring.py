"""Stage 3: one score per candidate. Hard routing's candidates keep the score routing gave
them; the others are re-ranked on every signal, softly boosted by matching sections."""

from .candidates import Candidate
from .params import SearchParams
from .reranking import Weights, rerank
from .routing import Routing, soft_boosts
from .scope import Scope

# Weight of the soft section boost in the hybrid score when routing finds matching sections.
SOFT_SECTION_WEIGHT = 0.1
# Hard routing's score is 0.6 x section similarity + 0.4 x chunk similarity.
HARD_ROUTE_WEIGHTS = {"section": 0.6, "vector": 0.4}


def score(
    candidates: list[Candidate], *, routing: Routing, params: SearchParams, scope: Scope
) -> tuple[list[Candidate], Weights | None]:
    """The candidates best first, and the weights re-ranking used (None for hard routes)."""
    if routing.hard_hits:
        return _routed(candidates), None
    section_weight = 0.0
    if routing.analysis is not None and candidates:
        boosts = soft_boosts(
            routing,
            chunk_ids=[c.chunk_id for c in candidates],
            collection_ids=scope.collection_ids,
        )
        for c in candidates:
            c.section_boost = float(boosts.get(c.chunk_id, 0.0))
        section_weight = SOFT_SECTION_WEIGHT if any(boosts.values()) else 0.0
    return rerank(
        candidates, fusion=params.fusion, keyword_boost=params.keyword_boost,
        section_weight=section_weight, query=params.query,
    )  # fmt: skip


def _routed(candidates: list[Candidate]) -> list[Candidate]:
    ranked = sorted(candidates, key=lambda c: (-c.hybrid_score, c.chunk_id))
    for c in ranked:
        c.signals = {
            "section": c.section_similarity or 0.0,
            "vector": c.vector_similarity or 0.0,
        }
        c.shares = _hard_shares(c)
    return ranked


def _hard_shares(c: Candidate) -> dict[str, float]:
    section = HARD_ROUTE_WEIGHTS["section"] * (c.section_similarity or 0.0)
    vector = HARD_ROUTE_WEIGHTS["vector"] * (c.vector_similarity or 0.0)
    total = section + vector
    return {"section": section / total, "vector": vector / total} if total > 0 else {}
