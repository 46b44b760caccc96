"""SEMANTICALLY_SIMILAR edges between chunks of different documents of a collection.

Exact nearest neighbours by matrix products over blocks of the collection's vectors: the
same pairs every run (an index's approximate search is not), and far faster than one index
search per chunk. The collection is held once, as one float32 matrix; the pairs are kept as
row numbers and written to the graph a few hundred at a time, so a job over 100,000 chunks
holds about 150 MB of vectors and a few MB of pairs."""

import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np
from django.conf import settings
from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet

from core.providers import graph

from . import cypher
from .models import Chunk

BLOCK = 4096  # collection rows multiplied at once
QUERY_BLOCK = 1024  # the job's rows: with BLOCK, about 100 MB of scores and ids
WRITE_ROWS = 500  # edges per graph statement

DocumentIds = Iterable[uuid.UUID] | QuerySet[Any]


@dataclass
class CollectionVectors:
    ids: list[uuid.UUID]  # chunk ids, row by row
    documents: np.ndarray  # a small integer per document, row by row
    vectors: np.ndarray  # unit rows
    mine: np.ndarray  # rows of the job's chunks


def link_similar_chunks(document_ids: DocumentIds) -> int:
    """Links each chunk of these documents to its nearest neighbours above the threshold;
    returns the number of distinct pairs (a pair found from both sides counts once)."""
    if settings.INGESTION_SIMILAR_PER_CHUNK < 1:
        return 0
    # A queryset of ids stays a subquery: a job of 100,000 files sends no list of them.
    wanted = Chunk.objects.filter(document_id__in=document_ids)
    collections = wanted.order_by().values_list("collection_id", flat=True).distinct()
    written = 0
    for collection_id in list(collections):
        store = load_vectors(collection_id, document_ids)
        for rows in _edge_rows(store, *nearest_pairs(store)):
            graph.run_write(cypher.MERGE_SIMILAR_CHUNKS, rows=rows)
            written += len(rows)
    return written


def load_vectors(collection_id: int, document_ids: DocumentIds) -> CollectionVectors:
    rows = Chunk.objects.filter(collection_id=collection_id).order_by("id")
    count = rows.count()
    mine = ExpressionWrapper(Q(document_id__in=document_ids), output_field=BooleanField())
    values = rows.annotate(mine=mine).values_list("id", "document_id", "embedding", "mine")
    ids: list[uuid.UUID] = []
    documents = np.zeros(count, dtype=np.int64)
    vectors = np.zeros((count, settings.EMBEDDING_DIM), dtype=np.float32)
    flags = np.zeros(count, dtype=bool)
    numbers: dict[uuid.UUID, int] = {}
    # Rows added after the count belong to a job whose own final step will see these.
    for row, (chunk_id, document_id, embedding, flag) in enumerate(
        islice(values.iterator(BLOCK), count)
    ):
        ids.append(chunk_id)
        documents[row] = numbers.setdefault(document_id, len(numbers))
        vectors[row] = embedding
        flags[row] = flag
    kept = len(ids)  # fewer if chunks were deleted meanwhile
    norms = np.linalg.norm(vectors[:kept], axis=1, keepdims=True)
    vectors[:kept] /= np.where(norms == 0, 1.0, norms)
    return CollectionVectors(ids, documents[:kept], vectors[:kept], np.flatnonzero(flags[:kept]))


def nearest_pairs(store: CollectionVectors) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(first rows, second rows, scores) of the distinct pairs above the threshold, the
    first row always the smaller; of a pair scored from both sides, the higher score."""
    k = settings.INGESTION_SIMILAR_PER_CHUNK
    threshold = settings.INGESTION_SIMILARITY_THRESHOLD
    sources, targets, scores = [], [], []
    for start in range(0, len(store.mine), QUERY_BLOCK):
        rows = store.mine[start : start + QUERY_BLOCK]
        best, best_rows = _top_k(store, rows, k)
        keep = (best_rows >= 0) & (best >= threshold)
        sources.append(np.broadcast_to(rows[:, None], best.shape)[keep])
        targets.append(best_rows[keep])
        scores.append(best[keep])
    if not sources:
        return np.array([], np.int64), np.array([], np.int64), np.array([], np.float32)
    found_from, found_to = np.concatenate(sources), np.concatenate(targets)
    first, second = np.minimum(found_from, found_to), np.maximum(found_from, found_to)
    score = np.round(np.concatenate(scores).astype(np.float64), 4)
    order = np.lexsort((-score, second, first))  # by pair, best score first
    first, second, score = first[order], second[order], score[order]
    distinct = np.ones(len(first), dtype=bool)
    distinct[1:] = (first[1:] != first[:-1]) | (second[1:] != second[:-1])
    return first[distinct], second[distinct], score[distinct]


def _top_k(store: CollectionVectors, rows: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    queries, query_documents = store.vectors[rows], store.documents[rows]
    best = np.full((len(rows), k), -np.inf, dtype=np.float32)
    best_rows = np.full((len(rows), k), -1, dtype=np.int64)
    for offset in range(0, len(store.ids), BLOCK):
        block = slice(offset, offset + BLOCK)
        scores = queries @ store.vectors[block].T
        scores[query_documents[:, None] == store.documents[None, block]] = -np.inf
        merged = np.hstack([best, scores])
        columns = np.arange(offset, offset + scores.shape[1])
        merged_rows = np.hstack([best_rows, np.broadcast_to(columns, scores.shape)])
        top = np.argpartition(-merged, k - 1, axis=1)[:, :k]
        best = np.take_along_axis(merged, top, axis=1)
        best_rows = np.take_along_axis(merged_rows, top, axis=1)
    return best, best_rows


def _edge_rows(
    store: CollectionVectors, first: np.ndarray, second: np.ndarray, score: np.ndarray
) -> Iterator[list[dict[str, object]]]:
    for start in range(0, len(first), WRITE_ROWS):
        rows = []
        for a, b, s in zip(
            first[start : start + WRITE_ROWS].tolist(),
            second[start : start + WRITE_ROWS].tolist(),
            score[start : start + WRITE_ROWS].tolist(),
            strict=True,
        ):
            # The edge's direction follows the ids' text, as every earlier run wrote it.
            source, target = sorted((str(store.ids[a]), str(store.ids[b])))
            rows.append({"source": source, "target": target, "score": s})
        yield rows
