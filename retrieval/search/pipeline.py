"""graphrag_search: keyword and vector search in parallel, graph expansion, re-ranking,
optionally routed by sections, for one user and only over what that user may read."""

import time
from typing import Any

from django.conf import settings

from retrieval.query_understanding import QueryReader, read_query

from .first_stage import first_stage
from .graph_expansion import Expansion
from .graph_stage import graph_candidates, routed_candidates
from .outcome import SearchOutcome, result_row
from .params import SearchParams
from .query_terms import normalize_keywords, search_terms
from .routing import HARD_ROUTES, Routing, analyze, hard_route, skip_reason
from .scope import Scope, resolve_scope
from .scoring import HARD_ROUTE_WEIGHTS, score
from .timing import ms_since, timed


def graphrag_search(
    query: str,
    *,
    user: Any,
    record_trace: bool = True,
    read: QueryReader = read_query,
    **options: Any,
) -> SearchOutcome:
    """Search the documents `user` may read. Options are SearchParams' fields (top_k,
    similarity_threshold, use_keyword_search, keywords, keyword_match_type, keyword_boost,
    max_hops, semantic_expansion_limit, hierarchical_expansion_limit, section_query,
    use_section_routing, file_scope, collection, fusion); None means the default. `read`
    reads the question for section routing (a caller's memo may stand in)."""
    started = time.perf_counter()
    params = SearchParams.build(query, **options)
    scope = resolve_scope(user, collection=params.collection, file_scope=params.file_scope)
    timings: dict[str, float] = {}
    routing = _routing(params, scope, timings, read)
    if params.keywords is not None:
        keywords = normalize_keywords(params.keywords)
    else:
        keywords = search_terms(params.query, extra=routing.persons)
    fetch = max(settings.RETRIEVAL_FETCH_LIMIT, params.top_k)
    first = first_stage(params, scope=scope, keywords=keywords, fetch=fetch, timings=timings)

    graph_started = time.perf_counter()
    if routing.route in HARD_ROUTES and not scope.empty:
        _, timings["section_routing"] = timed(
            lambda: hard_route(
                routing, query_embedding=first.embedding, collection_ids=scope.collection_ids,
                document_ids=scope.document_ids, limit=max(params.top_k, fetch),
            )
        )  # fmt: skip
    expansion = Expansion()
    if routing.hard_hits:
        candidates = routed_candidates(routing, embedding=first.embedding, scope=scope)
    else:
        candidates, expansion = graph_candidates(params, first=first, scope=scope, timings=timings)
    timings["graph"] = ms_since(graph_started)

    rerank_started = time.perf_counter()
    ranked, weights = score(list(candidates.values()), routing=routing, params=params, scope=scope)
    results = [result_row(c, rank) for rank, c in enumerate(ranked[: params.top_k], start=1)]
    timings["rerank"] = ms_since(rerank_started)
    timings["total"] = ms_since(started)
    outcome = SearchOutcome(
        query=params.query,
        params=params,
        results=results,
        candidates=ranked,
        keywords=list(first.statistics.terms) if first.statistics else keywords,
        scope=scope,
        timings={k: round(v, 2) for k, v in timings.items()},
        weights=weights.as_dict() if weights else dict(HARD_ROUTE_WEIGHTS),
        expansion=expansion,
        routing=routing,
        counts={
            "keyword_hits": len(first.keyword_hits),
            "vector_hits": len(first.vector_hits),
            "expanded": sum(1 for c in ranked if c.hop),
            "candidates": len(ranked),
        },
    )
    if record_trace:
        from retrieval.traces import record_search

        outcome.trace_id = record_search(outcome, user=user)
    return outcome


def _routing(
    params: SearchParams, scope: Scope, timings: dict[str, float], read: QueryReader
) -> Routing:
    """What the question asks of the documents' sections, when section routing is on."""
    if not params.use_section_routing or scope.empty:
        return Routing()
    reason, timings["routing_check"] = timed(
        lambda: skip_reason(
            params.query, collection_ids=scope.collection_ids, section_query=params.section_query
        )
    )
    if reason:
        return Routing.skip(reason)
    routing, timings["routing"] = timed(
        lambda: analyze(
            params.query,
            collection_ids=scope.collection_ids,
            section_query=params.section_query,
            read=read,
        )
    )
    return routing
