"""graphrag_search: keyword and vector search in parallel, graph expansion, re-ranking,
optionally routed by sections, for one user and only over what that user may read."""

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection

from core.providers.query_embeddings import embed_query

from .. import sql
from .candidates import Candidate
from .graph_expansion import Expansion, expand, path_signals
from .keyword_search import KeywordHit, keyword_search, term_weights
from .params import SearchParams
from .query_terms import normalize_keywords, query_keywords
from .reranking import Weights, rerank
from .routing import HARD_ROUTES, Routing, analyze, hard_route, soft_boosts
from .scope import Scope, resolve_scope
from .vector_search import VectorHit, vector_literal, vector_search

T = TypeVar("T")
# Weight of the soft section boost in the hybrid score when routing finds matching sections.
SOFT_SECTION_WEIGHT = 0.1


@dataclass
class SearchOutcome:
    query: str
    params: SearchParams
    results: list[dict[str, Any]]
    candidates: list[Candidate]  # every candidate, best first (results are the top ones)
    keywords: list[str]
    scope: Scope
    timings: dict[str, float]  # milliseconds per stage
    weights: dict[str, float]
    expansion: Expansion = field(default_factory=Expansion)
    routing: Routing = field(default_factory=Routing)
    counts: dict[str, int] = field(default_factory=dict)
    trace_id: int | None = None


def _timed(fn: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    value = fn()
    return value, (time.perf_counter() - started) * 1000


def _in_thread(fn: Callable[[], T]) -> T:
    """Runs in a pool thread: Django gives it its own connection, closed here."""
    try:
        return fn()
    finally:
        connection.close()


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


def _seeds(keyword_hits: list[KeywordHit], vector_hits: list[VectorHit]) -> dict[str, Candidate]:
    seeds: dict[str, Candidate] = {}
    for rank, v in enumerate(vector_hits, start=1):
        seeds[v.chunk_id] = Candidate(v.chunk_id, vector_similarity=v.similarity, vector_rank=rank)
    for rank, k in enumerate(keyword_hits, start=1):
        c = seeds.setdefault(k.chunk_id, Candidate(k.chunk_id))
        c.keyword_score, c.keywords_matched, c.keyword_rank = k.score, k.matched, rank
    return seeds


def _preliminary(
    candidates: list[Candidate], keyword_boost: float
) -> tuple[list[Candidate], dict[str, float]]:
    """Seeds in the order stage 1 alone would give, to pick the ones worth expanding, and
    each seed's strength: its relevance relative to the best seed's, what a path from it
    is worth."""
    ranked, _ = rerank(candidates, fusion="weighted", keyword_boost=keyword_boost)
    relevance = {
        c.chunk_id: (1 - keyword_boost) * c.signals["vector"] + keyword_boost * c.signals["keyword"]
        for c in ranked
    }
    best = max(relevance.values(), default=0.0)
    return ranked, {key: value / best if best else 0.0 for key, value in relevance.items()}


def graphrag_search(
    query: str, *, user: Any, record_trace: bool = True, **options: Any
) -> SearchOutcome:
    """Search the documents `user` may read. Options are SearchParams' fields (top_k,
    similarity_threshold, use_keyword_search, keywords, keyword_match_type, keyword_boost,
    max_hops, semantic_expansion_limit, hierarchical_expansion_limit, section_query,
    use_section_routing, file_scope, collection, fusion); None means the default."""
    started = time.perf_counter()
    params = SearchParams.build(query, **options)
    scope = resolve_scope(user, collection=params.collection, file_scope=params.file_scope)
    timings: dict[str, float] = {}
    routing = Routing()
    if params.use_section_routing and not scope.empty:
        routing, timings["routing"] = _timed(
            lambda: analyze(
                params.query,
                collection_ids=scope.collection_ids,
                section_query=params.section_query,
            )
        )
    if params.keywords is not None:
        keywords = normalize_keywords(params.keywords)
    else:
        keywords = query_keywords(params.query, extra=routing.persons)
    fetch = max(settings.RETRIEVAL_FETCH_LIMIT, params.top_k)

    def vector_stage() -> tuple[list[float], list[VectorHit], float, float]:
        embedding, embed_ms = _timed(lambda: embed_query(params.query))
        hits: list[VectorHit] = []
        search_ms = 0.0
        if params.use_vector_search and not scope.empty:
            hits, search_ms = _timed(
                lambda: vector_search(
                    embedding,
                    scope,
                    limit=fetch,
                    threshold=params.similarity_threshold,
                    keep=params.top_k,
                )
            )
        return embedding, hits, embed_ms, search_ms

    def keyword_stage() -> tuple[list[KeywordHit], dict[str, float]]:
        if not (params.use_keyword_search and keywords) or scope.empty:
            return [], {}
        weights = term_weights(keywords, scope)
        hits = keyword_search(
            keywords, scope, match_type=params.keyword_match_type, limit=fetch, weights=weights
        )
        return hits, weights

    # Stage 1: the embedding and vector search in a thread, keyword search here.
    with ThreadPoolExecutor(max_workers=1) as pool:
        vector_future = pool.submit(_in_thread, vector_stage)
        (keyword_hits, term_weight), timings["keyword"] = _timed(keyword_stage)
        embedding, vector_hits, timings["embedding"], timings["vector"] = vector_future.result()

    candidates: dict[str, Candidate] = {}
    expansion = Expansion()
    graph_started = time.perf_counter()
    if routing.route in HARD_ROUTES and not scope.empty:
        _, timings["section_routing"] = _timed(
            lambda: hard_route(
                routing, query_embedding=embedding, collection_ids=scope.collection_ids,
                document_ids=scope.document_ids, limit=max(params.top_k, fetch),
            )
        )  # fmt: skip
    if routing.hard_hits:
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
        timings["graph"] = (time.perf_counter() - graph_started) * 1000
    else:
        seeds = _seeds(keyword_hits, vector_hits)
        rows = hydrate(list(seeds), embedding=embedding, scope=scope)
        for chunk_id, c in seeds.items():
            if chunk_id in rows:
                c.row = rows[chunk_id]
                c.vector_similarity = float(rows[chunk_id]["similarity"])
                candidates[chunk_id] = c
        order, strengths = _preliminary(list(candidates.values()), params.keyword_boost)
        # Stage 2: graph expansion from the best seeds.
        if params.max_hops and candidates:
            start = [c.chunk_id for c in order[: settings.RETRIEVAL_EXPAND_SEEDS]]
            expansion = expand(
                start,
                collection_ids=scope.collection_ids,
                max_hops=params.max_hops,
                threshold=params.similarity_threshold,
                hierarchical_limit=params.hierarchical_expansion_limit,
                semantic_limit=params.semantic_expansion_limit,
                entity_limit=params.entity_expansion_limit,
                title_limit=params.title_expansion_limit,
            )
            new_ids = [i for i in expansion.steps if i not in candidates]
            rows = hydrate(new_ids, embedding=embedding, scope=scope)
            scored = {
                h.chunk_id: h
                for h in keyword_search(
                    keywords, scope, match_type="any", limit=len(new_ids) or 1,
                    weights=term_weight or None, chunk_ids=list(rows),
                )
            } if rows and keywords and params.use_keyword_search else {}  # fmt: skip
            for chunk_id in new_ids:
                if chunk_id not in rows:
                    continue  # outside the scope: never a candidate
                step = expansion.steps[chunk_id]
                hit = scored.get(chunk_id)
                candidates[chunk_id] = Candidate(
                    chunk_id,
                    vector_similarity=float(rows[chunk_id]["similarity"]),
                    keyword_score=hit.score if hit else 0.0,
                    keywords_matched=hit.matched if hit else (),
                    hop=step.hop,
                    path_score=step.path_score,
                    relationship=step.relationship,
                    reached_from=step.reached_from,
                    via_entity=step.entity,
                    edge_score=step.edge_score,
                    row=rows[chunk_id],
                )
            timings["title_bridge"] = expansion.title_ms
        for chunk_id, value in path_signals(expansion, strengths).items():
            if chunk_id in candidates:
                candidates[chunk_id].path_signal = value
        timings["graph"] = (time.perf_counter() - graph_started) * 1000

    # Stage 3: one score per candidate.
    rerank_started = time.perf_counter()
    pool_list = list(candidates.values())
    weights: Weights | None = None
    if routing.hard_hits:
        ranked = sorted(pool_list, key=lambda c: (-c.hybrid_score, c.chunk_id))
        for c in ranked:
            c.signals = {
                "section": c.section_similarity or 0.0,
                "vector": c.vector_similarity or 0.0,
            }
            c.shares = _hard_shares(c)
    else:
        section_weight = 0.0
        if routing.analysis is not None and pool_list:
            boosts = soft_boosts(
                routing,
                chunk_ids=[c.chunk_id for c in pool_list],
                collection_ids=scope.collection_ids,
            )
            for c in pool_list:
                c.section_boost = float(boosts.get(c.chunk_id, 0.0))
            section_weight = SOFT_SECTION_WEIGHT if any(boosts.values()) else 0.0
        ranked, weights = rerank(
            pool_list, fusion=params.fusion, keyword_boost=params.keyword_boost,
            section_weight=section_weight,
        )  # fmt: skip
    results = [result_row(c, rank) for rank, c in enumerate(ranked[: params.top_k], start=1)]
    timings["rerank"] = (time.perf_counter() - rerank_started) * 1000
    timings["total"] = (time.perf_counter() - started) * 1000
    outcome = SearchOutcome(
        query=params.query,
        params=params,
        results=results,
        candidates=ranked,
        keywords=keywords,
        scope=scope,
        timings={k: round(v, 2) for k, v in timings.items()},
        weights=weights.as_dict() if weights else {"section": 0.6, "vector": 0.4},
        expansion=expansion,
        routing=routing,
        counts={
            "keyword_hits": len(keyword_hits),
            "vector_hits": len(vector_hits),
            "expanded": sum(1 for c in ranked if c.hop),
            "candidates": len(ranked),
        },
    )
    if record_trace:
        from retrieval.traces import record_search

        outcome.trace_id = record_search(outcome, user=user)
    return outcome


def _hard_shares(c: Candidate) -> dict[str, float]:
    # Hard routing's score is 0.6 x section similarity + 0.4 x chunk similarity.
    section = 0.6 * (c.section_similarity or 0.0)
    vector = 0.4 * (c.vector_similarity or 0.0)
    total = section + vector
    return {"section": section / total, "vector": vector / total} if total > 0 else {}


def result_row(c: Candidate, rank: int) -> dict[str, Any]:
    row = c.row
    return {
        "text": row["text"],
        "file_name": row["file_name"],
        "file_path": row["file_path"],
        "directory_name": row["directory_name"],
        "similarity": round(c.vector_similarity or 0.0, 4),
        "hybrid_score": round(c.hybrid_score, 4),
        "keywords_matched": len(c.keywords_matched),
        "source": c.source,
        "metadata": {
            "rank": rank,
            "chunk_id": c.chunk_id,
            "chunk_index": row["index"],
            "file_id": str(row["document_id"]),
            "collection_id": row["collection_id"],
            "page": row["page"],
            "section_name": row["section_name"],
            "section_path": row["section_path"] or row["header_path"],
            "hop_count": c.hop,
            "relationship": c.relationship,
            "reached_from": c.reached_from,
            "via_entity": c.via_entity,
            "edge_score": c.edge_score,
            "path_score": c.path_score,
            "keyword_score": round(c.keyword_score, 4),
            "matched_keywords": list(c.keywords_matched),
            "section_similarity": c.section_similarity,
            "routing": "hard_section" if c.routed else ("soft" if c.section_boost else None),
            "signals": {k: round(v, 4) for k, v in c.signals.items()},
            "score_shares": {k: round(v, 4) for k, v in c.shares.items()},
        },
    }
