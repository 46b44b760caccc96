"""Stage 1, keywords: PostgreSQL full text (header path and text) and the chunk keyword
lists, each term weighted by how rare it is among the readable chunks."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from .. import sql
from .scope import Scope


@dataclass(frozen=True)
class KeywordHit:
    chunk_id: str
    score: float  # 0..1: the weighted share of the terms the chunk holds
    matched: tuple[str, ...]


def term_weights(terms: Sequence[str], scope: Scope) -> dict[str, float]:
    """Inverse document frequency (BM25's form) of each term over the readable chunks; a
    term no chunk holds keeps its weight, so "all" still demands it."""
    if not terms:
        return {}
    params: dict[str, Any] = {
        "terms": list(terms),
        "collections": list(scope.collection_ids),
        "documents": list(scope.document_ids),
    }
    with connection.cursor() as cursor:
        cursor.execute(sql.READABLE_CHUNK_COUNT, params)
        total = int(cursor.fetchone()[0])
        cursor.execute(sql.TERM_FREQUENCIES, params)
        frequencies = {term: int(df) for term, df in cursor.fetchall()}
    return {term: bm25_idf(total, frequencies.get(term, 0)) for term in terms}


def bm25_idf(total: int, frequency: int) -> float:
    """BM25's inverse document frequency of a term `frequency` of `total` chunks hold."""
    return math.log(1.0 + (total - frequency + 0.5) / (frequency + 0.5))


def keyword_search(
    terms: Sequence[str],
    scope: Scope,
    *,
    match_type: str = "any",
    limit: int,
    weights: dict[str, float] | None = None,
    chunk_ids: Sequence[str] = (),
) -> list[KeywordHit]:
    """Best matches first. With `chunk_ids`, scores only those chunks."""
    if not terms or scope.empty:
        return []
    weights = weights if weights is not None else term_weights(terms, scope)
    total = sum(weights.values()) or 1.0
    with connection.cursor() as cursor:
        cursor.execute(
            sql.KEYWORD_SEARCH,
            {
                "terms": list(terms),
                "weights": [weights[t] for t in terms],
                "collections": list(scope.collection_ids),
                "documents": list(scope.document_ids),
                "ids": list(chunk_ids),
                "required": len(terms) if match_type == "all" else 1,
                "limit": limit,
            },
        )
        rows = cursor.fetchall()
    return [
        KeywordHit(chunk_id=str(pk), score=min(float(score) / total, 1.0), matched=tuple(matched))
        for pk, score, matched in rows
    ]
