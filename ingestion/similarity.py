"""SEMANTICALLY_SIMILAR edges between chunks of different documents of a collection."""

import uuid
from collections.abc import Iterable

from django.conf import settings
from django.db import connection

from core.providers import graph

from . import cypher, sql


def similar_pairs(document_ids: Iterable[uuid.UUID]) -> list[dict[str, object]]:
    """Each chunk of these documents with its nearest neighbours above the threshold; a
    pair found from both sides is kept once, in a fixed direction."""
    ids = list(document_ids)
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            sql.SIMILAR_CHUNKS,
            {
                "document_ids": ids,
                "per_chunk": settings.INGESTION_SIMILAR_PER_CHUNK,
                "threshold": settings.INGESTION_SIMILARITY_THRESHOLD,
            },
        )
        rows = cursor.fetchall()
    pairs: dict[tuple[str, str], float] = {}
    for source, target, score in rows:
        a, b = sorted((str(source), str(target)))
        pairs[(a, b)] = max(pairs.get((a, b), 0.0), round(float(score), 4))
    return [{"source": a, "target": b, "score": s} for (a, b), s in sorted(pairs.items())]


def link_similar_chunks(document_ids: Iterable[uuid.UUID]) -> int:
    rows = similar_pairs(document_ids)
    for start in range(0, len(rows), 500):
        graph.run_write(cypher.MERGE_SIMILAR_CHUNKS, rows=rows[start : start + 500])
    return len(rows)
