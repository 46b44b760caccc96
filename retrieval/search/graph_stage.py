"""The candidates a search scores: the chunks hard section routing picks, or else the
first stage's seeds and the chunks graph expansion reaches from the best of them (stage 2).
Every candidate is read back through the scope, so none the user may not read survives."""

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import connection

from .. import sql
from .candidates import Candidate
from .first_stage import FirstStage
from .graph_expansion import Expansion, Step, expand, path_signals
from .keyword_search import KeywordHit, keyword_search
from .params import SearchParams
from .reranking import rerank
from .routing import Routing
from .scope import Scope
from .vector_search import vector_literal


def hydrate(
    ids: Sequence[str], *, embedding: Sequence[float], scope: Scope
) -> dict[str, dict[str, Any]]:
    """Rows for the result and the cosine to the question; ids outside the scope vanish."""
    if not ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            sql.HYDRATE_CHUNKS,
            {
                "ids": list(ids),
                "embedding": vector_literal(embedding),
                "collections": list(scope.collection_ids),
                "documents": list(scope.document_ids),
            },
        )
        columns = [c.name for c in cursor.description or ()]
        rows = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    return {str(r["id"]): r for r in rows}


def routed_candidates(
    routing: Routing, *, embedding: Sequence[float], scope: Scope
) -> dict[str, Candidate]:
    """Hard routing's hits, scored already (section and chunk similarity)."""
    candidates: dict[str, Candidate] = {}
    for hit in routing.hard_hits:
        candidates[hit.chunk_id] = Candidate(
            hit.chunk_id,
            vector_similarity=hit.chunk_similarity,
            section_similarity=hit.section_similarity,
            routed=True,
        )
        candidates[hit.chunk_id].hybrid_score = hit.score
    rows = hydrate(list(candidates), embedding=embedding, scope=scope)
    for chunk_id, c in list(candidates.items()):
        if chunk_id not in rows:
            del candidates[chunk_id]
        else:
            c.row = rows[chunk_id]
    return candidates


def graph_candidates(
    params: SearchParams, *, first: FirstStage, scope: Scope, timings: dict[str, float]
) -> tuple[dict[str, Candidate], Expansion]:
    """The readable seeds, then what expansion from the best of them reaches, each with the
    path signal of the ways that lead to it. The title bridge's time goes into `timings`."""
    candidates = _readable_seeds(first, scope)
    order, strengths = _preliminary(list(candidates.values()), params)
    expansion = Expansion()
    if params.max_hops and candidates:
        start = [c.chunk_id for c in order[: settings.RETRIEVAL_EXPAND_SEEDS]]
        expansion = expand(start, collection_ids=scope.collection_ids, params=params)
        candidates.update(_expanded(expansion, candidates, params, first=first, scope=scope))
        timings["title_bridge"] = expansion.title_ms
    for chunk_id, value in path_signals(expansion, strengths).items():
        if chunk_id in candidates:
            candidates[chunk_id].path_signal = value
    return candidates, expansion


def _readable_seeds(first: FirstStage, scope: Scope) -> dict[str, Candidate]:
    seeds: dict[str, Candidate] = {}
    for rank, v in enumerate(first.vector_hits, start=1):
        seeds[v.chunk_id] = Candidate(v.chunk_id, vector_similarity=v.similarity, vector_rank=rank)
    for rank, k in enumerate(first.keyword_hits, start=1):
        c = seeds.setdefault(k.chunk_id, Candidate(k.chunk_id))
        c.keyword_score, c.keyword_bm25, c.keywords_matched = k.score, k.bm25, k.matched
        c.keyword_rank = rank
    rows = hydrate(list(seeds), embedding=first.embedding, scope=scope)
    candidates: dict[str, Candidate] = {}
    for chunk_id, c in seeds.items():
        if chunk_id in rows:
            c.row = rows[chunk_id]
            c.vector_similarity = float(rows[chunk_id]["similarity"])
            candidates[chunk_id] = c
    return candidates


def _preliminary(
    candidates: list[Candidate], params: SearchParams
) -> tuple[list[Candidate], dict[str, float]]:
    """Seeds in the order stage 1 alone would give, to pick the ones worth expanding (the
    learned fusion's order when it ranks the results, else the weighted one), and each
    seed's strength: its relevance relative to the best seed's, what a path from it is
    worth."""
    keyword_boost = params.keyword_boost
    fusion = "learned" if params.fusion == "learned" else "weighted"
    ranked, _ = rerank(candidates, fusion=fusion, keyword_boost=keyword_boost, query=params.query)
    relevance = {
        c.chunk_id: (1 - keyword_boost) * c.signals["vector"] + keyword_boost * c.signals["keyword"]
        for c in ranked
    }
    best = max(relevance.values(), default=0.0)
    return ranked, {key: value / best if best else 0.0 for key, value in relevance.items()}


def _expanded(
    expansion: Expansion,
    candidates: dict[str, Candidate],
    params: SearchParams,
    *,
    first: FirstStage,
    scope: Scope,
) -> dict[str, Candidate]:
    """The chunks expansion reached that are not candidates yet and that the user may read,
    with their similarity and the keywords they hold, scored as the seeds were."""
    new_ids = [i for i in expansion.steps if i not in candidates]
    rows = hydrate(new_ids, embedding=first.embedding, scope=scope)
    scored: dict[str, KeywordHit] = {}
    if rows and first.keywords and params.use_keyword_search:
        hits = keyword_search(
            first.keywords, scope, match_type="any", limit=len(new_ids) or 1,
            statistics=first.statistics, chunk_ids=list(rows),
        )  # fmt: skip
        scored = {h.chunk_id: h for h in hits}
    return {
        chunk_id: _reached(expansion.steps[chunk_id], rows[chunk_id], scored.get(chunk_id))
        for chunk_id in new_ids
        if chunk_id in rows  # outside the scope: never a candidate
    }


def _reached(step: Step, row: dict[str, Any], hit: KeywordHit | None) -> Candidate:
    return Candidate(
        step.chunk_id,
        vector_similarity=float(row["similarity"]),
        keyword_score=hit.score if hit else 0.0,
        keyword_bm25=hit.bm25 if hit else 0.0,
        keywords_matched=hit.matched if hit else (),
        hop=step.hop,
        path_score=step.path_score,
        relationship=step.relationship,
        reached_from=step.reached_from,
        via_entity=step.entity,
        edge_score=step.edge_score,
        row=row,
    )
