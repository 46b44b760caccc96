"""What a process keeps about a set of collections is computed again once a document of
one of them is added or removed."""

from typing import Any

import pytest

from ingestion.models import Collection, Document
from retrieval.collection_state import KeptPerCollections

pytestmark = pytest.mark.django_db


def _document(collection: Collection, path: str) -> Document:
    return Document.objects.create(
        collection=collection, file_name=path, file_path=path, content_hash=path, format="txt"
    )


def test_a_kept_value_follows_the_collections_documents() -> None:
    first = Collection.objects.create(name="kept-first")
    second = Collection.objects.create(name="kept-second")
    calls: list[tuple[int, ...]] = []

    def paths(collection_ids: tuple[int, ...]) -> list[str]:
        calls.append(collection_ids)
        rows = Document.objects.filter(collection_id__in=collection_ids).order_by("file_path")
        return list(rows.values_list("file_path", flat=True))

    kept: Any = KeptPerCollections(paths, size=1)
    _document(first, "a.txt")
    assert kept([second.pk, first.pk]) == ["a.txt"]
    assert kept([first.pk, second.pk]) == ["a.txt"] and len(calls) == 1  # kept, any order
    b = _document(second, "b.txt")
    assert kept([first.pk, second.pk]) == ["a.txt", "b.txt"] and len(calls) == 2
    b.delete()
    assert kept([first.pk, second.pk]) == ["a.txt"] and len(calls) == 3
    assert kept([first.pk]) == ["a.txt"] and len(calls) == 4
    assert kept([first.pk, second.pk]) == ["a.txt"] and len(calls) == 5  # one set kept
