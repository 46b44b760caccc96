"""Stage 1, meaning: the question's embedding against chunk embeddings (pgvector HNSW,
cosine), inside the readable collections."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from .. import sql
from .scope import Scope


@dataclass(frozen=True)
class VectorHit:
    chunk_id: str
    similarity: float


def vector_literal(embedding: Sequence[float]) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in embedding) + "]"


def index_serves(cursor: Any, scope: Scope, limit: int) -> bool:
    """Whether the HNSW index should find the nearest chunks rather than an exact scan.
    PostgreSQL prices the index above sorting a few thousand chunks by distance, which takes
    three times as long (3,300 chunks: 11 ms exact, 2-6 ms through the index); below
    RETRIEVAL_VECTOR_EXACT_CHUNKS readable chunks the exact scan is as fast and exact. The
    index is used only when its filtered scan finds `limit` readable chunks within half of
    hnsw.max_scan_tuples (20,000) tuples visited, so that it never comes back short."""
    if scope.document_ids:
        return False  # a few files: the exact scan
    cursor.execute(sql.VECTOR_SCOPE_SIZE, {"collections": list(scope.collection_ids)})
    readable, table = cursor.fetchone()
    if readable < settings.RETRIEVAL_VECTOR_EXACT_CHUNKS:
        return False
    visited = limit * max(table, readable) / readable
    return visited <= 10_000


def vector_search(
    embedding: Sequence[float], scope: Scope, *, limit: int, threshold: float, keep: int
) -> list[VectorHit]:
    """Nearest first; hits under `threshold` are dropped except the best `keep`, so that a
    model whose similarities run low still finds something."""
    if scope.empty:
        return []
    with transaction.atomic(), connection.cursor() as cursor:
        ef_search = max(limit, settings.RETRIEVAL_HNSW_EF_SEARCH)
        if index_serves(cursor, scope, limit):
            cursor.execute(sql.PREFER_VECTOR_INDEX)
            # Twice the pool: 0.999 of the exact pool on the development sets, against
            # 0.989 at the pool's size, for under a millisecond.
            ef_search = max(2 * limit, ef_search)
        # set_config(..., true) lasts until the end of this transaction only.
        cursor.execute(sql.VECTOR_SEARCH_SETTINGS, {"ef_search": str(ef_search)})
        cursor.execute(
            sql.VECTOR_SEARCH,
            {
                "embedding": vector_literal(embedding),
                "collections": list(scope.collection_ids),
                "documents": list(scope.document_ids),
                "limit": limit,
            },
        )
        rows = cursor.fetchall()
    hits = sorted(
        (VectorHit(str(pk), float(similarity)) for pk, similarity in rows),
        key=lambda h: -h.similarity,
    )
    return [h for rank, h in enumerate(hits) if rank < keep or h.similarity >= threshold]
