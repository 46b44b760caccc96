"""The similarity search by blocks finds exactly the pairs a search over every pair at once
finds, whatever the block sizes, and writes each pair once."""

from typing import Any

import numpy as np
import pytest

from core.providers import graph
from ingestion import similarity
from ingestion.models import Chunk, Collection

from . import samples
from .helpers import ingest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cleanup_documents")]


def _every_pair(collection: Collection, k: int, threshold: float) -> set[tuple[str, str]]:
    rows = list(collection.chunks.order_by("id").values_list("id", "document_id", "embedding"))
    vectors = np.array([r[2] for r in rows], dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    scores = vectors @ vectors.T
    documents = np.array([str(r[1]) for r in rows])
    scores[documents[:, None] == documents[None, :]] = -np.inf
    found = set()
    for i, row in enumerate(scores):
        for j in np.argsort(-row)[:k]:
            if row[j] >= threshold:
                a, b = sorted((str(rows[i][0]), str(rows[j][0])))
                found.add((a, b))
    return found


def test_blocks_find_the_pairs_of_one_search_over_everything(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.INGESTION_SIMILARITY_THRESHOLD = 0.3
    settings.INGESTION_SIMILAR_PER_CHUNK = 0  # no edges from the job itself
    collection = Collection.objects.create(name="similarity-blocks")
    files = {
        "policy.md": samples.POLICY_MD.encode(),
        "rules.md": samples.POLICY_MD.replace("Overtime Policy", "Overtime Rules").encode(),
        "alexis.md": samples.ALEXIS_MD.encode(),
        "sarah.txt": samples.SARAH_TXT.encode(),
    }
    ingest(collection, files)
    assert Chunk.objects.filter(collection=collection).count() > 6
    # Blocks far smaller than the collection: every pair is found across block edges.
    monkeypatch.setattr(similarity, "BLOCK", 2)
    monkeypatch.setattr(similarity, "QUERY_BLOCK", 3)
    monkeypatch.setattr(similarity, "WRITE_ROWS", 2)
    settings.INGESTION_SIMILAR_PER_CHUNK = 3
    written = similarity.link_similar_chunks(collection.documents.values("pk"))

    expected = _every_pair(collection, 3, 0.3)
    assert written == len(expected) > 0
    ids = [str(pk) for pk in collection.chunks.values_list("id", flat=True)]
    edges = graph.run_read(
        "MATCH (a:Chunk)-[r:SEMANTICALLY_SIMILAR]->(b:Chunk) WHERE a.id IN $ids "
        "RETURN a.id AS a, b.id AS b",
        ids=ids,
    )
    assert {(e["a"], e["b"]) for e in edges} == expected  # one edge per pair, in one direction
