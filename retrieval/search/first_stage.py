"""Stage 1: the question's embedding and vector search in a pool thread while keyword
search runs here; their hits are the seeds of every later stage."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings
from django.db import connection

from core.providers.query_embeddings import embed_query

from .keyword_search import KeywordHit, TermStatistics, keyword_search, term_statistics
from .params import SearchParams
from .scope import Scope
from .timing import timed
from .vector_search import VectorHit, vector_search

T = TypeVar("T")


def _in_thread(fn: Callable[[], T]) -> T:
    """Runs in a pool thread: Django gives it its own connection, closed here."""
    try:
        return fn()
    finally:
        connection.close()


def _release_connection() -> None:
    """Give this thread's connection back to the pool before waiting on the vector stage:
    threads that each hold one while waiting for another would deadlock a full pool. The
    next query borrows one again. Inside a transaction the connection must stay; without a
    pool, closing would only cost a new connection."""
    if settings.DB_POOL_MAX_SIZE and not connection.in_atomic_block:
        connection.close()


@dataclass(frozen=True)
class FirstStage:
    keywords: list[str]
    keyword_hits: list[KeywordHit]
    statistics: TermStatistics | None  # to score expanded chunks alike
    embedding: list[float]
    vector_hits: list[VectorHit]


def first_stage(
    params: SearchParams,
    *,
    scope: Scope,
    keywords: list[str],
    fetch: int,
    timings: dict[str, float],
) -> FirstStage:
    """Both searches, each fetching up to `fetch` hits; their times go into `timings`."""

    def vector_stage() -> tuple[list[float], list[VectorHit], float, float]:
        embedding, embed_ms = timed(lambda: embed_query(params.query))
        hits: list[VectorHit] = []
        search_ms = 0.0
        if params.use_vector_search and not scope.empty:
            hits, search_ms = timed(
                lambda: vector_search(
                    embedding,
                    scope,
                    limit=fetch,
                    threshold=params.similarity_threshold,
                    keep=params.top_k,
                )
            )
        return embedding, hits, embed_ms, search_ms

    def keyword_stage() -> tuple[list[KeywordHit], TermStatistics | None]:
        if not (params.use_keyword_search and keywords) or scope.empty:
            return [], None
        stats = term_statistics(keywords, scope.collection_ids)
        hits = keyword_search(
            keywords, scope, match_type=params.keyword_match_type, limit=fetch, statistics=stats
        )
        return hits, stats

    with ThreadPoolExecutor(max_workers=1) as pool:
        vector_future = pool.submit(_in_thread, vector_stage)
        (keyword_hits, stats), timings["keyword"] = timed(keyword_stage)
        _release_connection()
        embedding, vector_hits, timings["embedding"], timings["vector"] = vector_future.result()
    return FirstStage(keywords, keyword_hits, stats, embedding, vector_hits)
