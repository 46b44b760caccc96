"""What a process may keep about a set of collections until one of its documents changes:
a value computed from the collections' documents, kept with their version (per collection:
documents, latest added, latest ingested), so that a document added, replaced or removed
by any process is seen by the next question."""

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
