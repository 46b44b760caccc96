"""What a process may keep about collections until one of their documents changes: a value
computed from a collection's documents (or a set of collections'), kept with its version
(per collection: documents, latest added, latest ingested), so that a document added,
replaced or removed by any process is seen by the next question."""

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import connection

from . import sql

T = TypeVar("T")


def collection_versions(collection_ids: Sequence[int]) -> dict[int, tuple[Any, ...]]:
    """Each collection's version (collections without documents have none)."""
    with connection.cursor() as cursor:
        cursor.execute(sql.COLLECTION_VERSIONS, {"collections": list(collection_ids)})
        return {int(row[0]): tuple(row[1:]) for row in cursor.fetchall()}


class KeptPerCollections(Generic[T]):
    """`compute(collection_ids)`, kept per set of collections while its version holds;
    the sets most recently asked for, at most `size` of them."""

    def __init__(self, compute: Callable[[tuple[int, ...]], T], *, size: int = 64) -> None:
        self._compute = compute
        self._size = size
        self._kept: OrderedDict[tuple[int, ...], tuple[tuple[Any, ...], T]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, collection_ids: Sequence[int]) -> T:
        key = tuple(sorted(set(collection_ids)))
        version = tuple(sorted(collection_versions(key).items()))
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] == version:
                self._kept.move_to_end(key)
                return kept[1]
        value = self._compute(key)
        with self._lock:
            self._kept[key] = (version, value)
            self._kept.move_to_end(key)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return value


class KeptPerCollection(Generic[T]):
    """`build(collection_id)`, kept for each collection while its version holds: what is
    kept for one collection serves every set of collections that holds it. The versions
    of the collections asked for are read in one query."""

    def __init__(self, build: Callable[[int], T]) -> None:
        self._build = build
        self._kept: dict[int, tuple[tuple[Any, ...], T]] = {}
        self._lock = threading.Lock()

    def __call__(self, collection_ids: Sequence[int]) -> dict[int, T]:
        found: dict[int, T] = {}
        for collection_id, version in collection_versions(collection_ids).items():
            with self._lock:
                kept = self._kept.get(collection_id)
            if kept is None or kept[0] != version:
                kept = (version, self._build(collection_id))
                with self._lock:
                    self._kept[collection_id] = kept
            found[collection_id] = kept[1]
        return found
