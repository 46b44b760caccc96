"""Vector search through the HNSW index or an exact scan: the same nearest chunks, and
never a chunk outside the readable collections."""

from typing import Any

import pytest
from django.db import connection
from pytest_django.fixtures import Settings as SettingsWrapper

from core.providers.query_embeddings import embed_query
from ingestion.models import Chunk
from retrieval.search.scope import Scope
from retrieval.search.vector_search import index_serves, vector_search

from .conftest import SearchCorpus

pytestmark = pytest.mark.django_db

QUESTION = "Who led the AWS migration project at TechCorp?"


def _search(corpus: SearchCorpus, collections: tuple[int, ...], **scope: Any) -> list[str]:
    hits = vector_search(
        embed_query(QUESTION), Scope(collections, scope.get("documents", ())),
        limit=20, threshold=0.0, keep=20,
    )  # fmt: skip
    return [h.chunk_id for h in hits]


def test_the_index_finds_what_the_exact_scan_finds(
    search_corpus: SearchCorpus, settings: SettingsWrapper
) -> None:
    team = (search_corpus.team.pk,)
    exact = _search(search_corpus, team)
    settings.RETRIEVAL_VECTOR_EXACT_CHUNKS = 1  # every scope is large enough
    with connection.cursor() as cursor:
        assert index_serves(cursor, Scope(team, ()), 20)
    through_index = _search(search_corpus, team)
    assert through_index[:10] == exact[:10]
    readable = set(Chunk.objects.filter(collection_id__in=team).values_list("pk", flat=True))
    assert {str(pk) for pk in readable} >= set(through_index)


def test_small_scopes_and_file_scopes_are_scanned_exactly(
    search_corpus: SearchCorpus, settings: SettingsWrapper
) -> None:
    team = (search_corpus.team.pk,)
    settings.RETRIEVAL_VECTOR_EXACT_CHUNKS = 10**9
    with connection.cursor() as cursor:
        assert not index_serves(cursor, Scope(team, ()), 20)
    settings.RETRIEVAL_VECTOR_EXACT_CHUNKS = 1
    document = str(search_corpus.documents["sarah_chen.txt"].pk)
    with connection.cursor() as cursor:
        assert not index_serves(cursor, Scope(team, (document,)), 20)
        # A scope so small a share of the table that the index would visit more than
        # half of hnsw.max_scan_tuples before finding the pool.
        assert not index_serves(cursor, Scope(team, ()), 10**6)
    hits = _search(search_corpus, team, documents=(document,))
    assert hits and {str(c.document_id) for c in Chunk.objects.filter(pk__in=hits)} == {document}
