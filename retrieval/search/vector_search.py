"""Stage 1, meaning: the question's embedding against chunk embeddings (pgvector HNSW,
cosine), inside the readable collections."""

from collections.abc import Sequence
from dataclasses import dataclass

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


def vector_search(
    embedding: Sequence[float], scope: Scope, *, limit: int, threshold: float, keep: int
) -> list[VectorHit]:
    """Nearest first; hits under `threshold` are dropped except the best `keep`, so that a
    model whose similarities run low still finds something."""
    if scope.empty:
        return []
    with transaction.atomic(), connection.cursor() as cursor:
        # set_config(..., true) lasts until the end of this transaction only.
        cursor.execute(
            sql.VECTOR_SEARCH_SETTINGS,
            {"ef_search": str(max(limit, settings.RETRIEVAL_HNSW_EF_SEARCH))},
        )
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
