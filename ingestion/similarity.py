"""SEMANTICALLY_SIMILAR edges between chunks of different documents of a collection.

Exact nearest neighbours by matrix products over blocks of the collection's vectors: the
same pairs every run (an index's approximate search is not), memory bounded by the block
sizes, and far faster than one index search per chunk."""

import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from django.conf import settings
from django.db.models import QuerySet

from core.providers import graph

from . import cypher
from .models import Chunk

BLOCK = 4096  # rows of the collection multiplied at once
QUERY_BLOCK = 1024  # rows of the job's chunks: with BLOCK, about 100 MB of scores and ids


def similar_pairs(document_ids: Iterable[uuid.UUID] | QuerySet[Any]) -> list[dict[str, object]]:
    """Each chunk of these documents with its nearest neighbours above the threshold; a
    pair found from both sides is kept once, in a fixed direction."""
    by_collection: dict[int, list[tuple[uuid.UUID, uuid.UUID]]] = defaultdict(list)
    vectors: dict[int, list[object]] = defaultdict(list)
    # A queryset of ids stays a subquery: a job of 100,000 files sends no list of them.
    wanted = Chunk.objects.filter(document_id__in=document_ids)
    for chunk_id, document_id, collection_id, embedding in wanted.values_list(
        "id", "document_id", "collection_id", "embedding"
    ).iterator(BLOCK):
        by_collection[collection_id].append((chunk_id, document_id))
        vectors[collection_id].append(embedding)
    pairs: dict[tuple[str, str], float] = {}
    for collection_id, chunks in by_collection.items():
        queries = _unit(vectors.pop(collection_id))  # one copy of the vectors, not two
        for source, target, score in _nearest(collection_id, chunks, queries):
            a, b = sorted((str(source), str(target)))
            pairs[(a, b)] = max(pairs.get((a, b), 0.0), round(score, 4))
    return [{"source": a, "target": b, "score": s} for (a, b), s in sorted(pairs.items())]


def _unit(rows: list[object]) -> np.ndarray:
    matrix = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def _nearest(
    collection_id: int, chunks: list[tuple[uuid.UUID, uuid.UUID]], queries: np.ndarray
) -> Iterator[tuple[uuid.UUID, uuid.UUID, float]]:
    k = settings.INGESTION_SIMILAR_PER_CHUNK
    if k < 1:
        return
    documents: dict[uuid.UUID, int] = {}
    query_docs = np.array([documents.setdefault(d, len(documents)) for _, d in chunks])
    best = np.full((len(chunks), k), -np.inf, dtype=np.float32)
    best_ids = np.full((len(chunks), k), -1, dtype=np.int64)
    found: list[uuid.UUID] = []
    rows = Chunk.objects.filter(collection_id=collection_id).order_by("id")
    for block in _blocks(rows.values_list("id", "document_id", "embedding").iterator(BLOCK)):
        vectors = _unit([embedding for _, _, embedding in block])
        docs = np.array([documents.setdefault(d, len(documents)) for _, d, _ in block])
        offset = len(found)
        found += [chunk_id for chunk_id, _, _ in block]
        for start in range(0, len(chunks), QUERY_BLOCK):
            part = slice(start, start + QUERY_BLOCK)
            scores = queries[part] @ vectors.T
            scores[query_docs[part, None] == docs[None, :]] = -np.inf  # not its own document
            merged = np.hstack([best[part], scores])
            merged_ids = np.hstack(
                [best_ids[part], np.broadcast_to(np.arange(offset, len(found)), scores.shape)]
            )
            top = np.argpartition(-merged, k - 1, axis=1)[:, :k]
            best[part] = np.take_along_axis(merged, top, axis=1)
            best_ids[part] = np.take_along_axis(merged_ids, top, axis=1)
    threshold = settings.INGESTION_SIMILARITY_THRESHOLD
    for row, (chunk_id, _) in enumerate(chunks):
        for score, index in zip(best[row], best_ids[row], strict=True):
            if index >= 0 and score >= threshold:
                yield chunk_id, found[index], float(score)


Row = tuple[uuid.UUID, uuid.UUID, object]


def _blocks(rows: Iterable[Row]) -> Iterator[list[Row]]:
    block: list[Row] = []
    for row in rows:
        block.append(row)
        if len(block) == BLOCK:
            yield block
            block = []
    if block:
        yield block


def link_similar_chunks(document_ids: Iterable[uuid.UUID] | QuerySet[Any]) -> int:
    rows = similar_pairs(document_ids)
    for start in range(0, len(rows), 500):
        graph.run_write(cypher.MERGE_SIMILAR_CHUNKS, rows=rows[start : start + 500])
    return len(rows)
