"""Stage 1, keywords: BM25 over the chunks' full-text lexemes (header path and text).

The postings and each collection's chunk count and length are kept by database triggers
(retrieval.models.ChunkTerm, KeywordStatistics). Every statistic is taken over the
collections the asking person may read, in the query itself: another user's documents
never change anyone's ranking."""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection

from .. import sql
from .scope import Scope


@dataclass(frozen=True)
class KeywordHit:
    chunk_id: str
    score: float  # 0..1: BM25 over what every term once in a chunk of average length gives
    bm25: float  # BM25 itself, what ranks
    matched: tuple[str, ...]  # the question's terms the chunk holds


@dataclass(frozen=True)
class TermStatistics:
    """What BM25 needs of the readable chunks for one set of terms."""

    terms: tuple[str, ...]  # the question's terms that have a lexeme
    lexemes: dict[str, tuple[str, ...]]  # term -> its stemmed lexemes
    frequencies: dict[str, int]  # lexeme -> readable chunks holding it
    chunks: int  # readable chunks
    average_length: float
    idf: dict[str, float] = field(init=False)  # lexeme -> BM25's inverse document frequency

    def __post_init__(self) -> None:
        idf = {lexeme: bm25_idf(self.chunks, df) for lexeme, df in self.frequencies.items()}
        object.__setattr__(self, "idf", idf)

    def term_frequency(self, term: str) -> int:
        """Readable chunks holding a term: its rarest lexeme's count (0 for no lexeme)."""
        return min((self.frequencies[x] for x in self.lexemes.get(term, ())), default=0)

    def term_idf(self, term: str) -> float:
        return bm25_idf(self.chunks, self.term_frequency(term))

    @property
    def full_match(self) -> float:
        """BM25 of a chunk of average length holding every lexeme once: the sum of the
        idfs. A lexeme no chunk holds keeps its weight, so missing words lower every share."""
        return sum(self.idf.values())


def bm25_idf(total: int, frequency: int) -> float:
    """BM25's inverse document frequency of a term `frequency` of `total` chunks hold."""
    return math.log(1.0 + (total - frequency + 0.5) / (frequency + 0.5))


def term_statistics(terms: Sequence[str], collection_ids: Sequence[int]) -> TermStatistics:
    params: dict[str, Any] = {"terms": list(terms), "collections": list(collection_ids)}
    lexemes: dict[str, list[str]] = {}
    frequencies: dict[str, int] = {}
    with connection.cursor() as cursor:
        if terms and collection_ids:
            cursor.execute(sql.TERM_STATISTICS, params)
            for term, lexeme, df in cursor.fetchall():
                lexemes.setdefault(term, []).append(lexeme)
                frequencies[lexeme] = int(df)
        cursor.execute(sql.COLLECTION_STATISTICS, params)
        chunks, length = cursor.fetchone()
    chunks, length = int(chunks or 0), int(length or 0)
    return TermStatistics(
        terms=tuple(t for t in dict.fromkeys(terms) if t in lexemes),
        lexemes={term: tuple(found) for term, found in lexemes.items()},
        frequencies=frequencies,
        chunks=chunks,
        average_length=length / chunks if chunks else 1.0,
    )


def keyword_search(
    terms: Sequence[str],
    scope: Scope,
    *,
    match_type: str = "any",
    limit: int,
    statistics: TermStatistics | None = None,
    chunk_ids: Sequence[str] = (),
) -> list[KeywordHit]:
    """Best matches first. With `chunk_ids`, scores only those chunks (statistics still
    over every readable chunk). "all" asks for every lexeme of every term."""
    if not terms or scope.empty:
        return []
    stats = statistics if statistics is not None else term_statistics(terms, scope.collection_ids)
    lexemes = list(stats.idf)
    if not lexemes:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            sql.KEYWORD_SEARCH,
            {
                "lexemes": lexemes,
                "idf": [stats.idf[x] for x in lexemes],
                "k1": settings.RETRIEVAL_BM25_K1,
                "b": settings.RETRIEVAL_BM25_B,
                "average_length": stats.average_length,
                "collections": list(scope.collection_ids),
                "documents": list(scope.document_ids),
                "ids": list(chunk_ids),
                "required": len(lexemes) if match_type == "all" else 1,
                "limit": limit,
            },
        )
        rows = cursor.fetchall()
    full = stats.full_match or 1.0
    return [
        KeywordHit(
            chunk_id=str(pk),
            score=min(float(score) / full, 1.0),
            bm25=float(score),
            matched=tuple(t for t in stats.terms if set(stats.lexemes[t]) & set(held)),
        )
        for pk, score, held in rows
    ]
