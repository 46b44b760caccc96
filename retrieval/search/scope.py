"""Which chunks a search may see: the collections the user can read, narrowed to one
collection and to some files when asked."""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from ingestion.models import Collection, Document

from .params import ScopeNotFound


@dataclass(frozen=True)
class Scope:
    collection_ids: tuple[int, ...]
    document_ids: tuple[str, ...]  # empty: every document of those collections

    @property
    def empty(self) -> bool:
        return not self.collection_ids


def _collection(readable: Any, value: str | int) -> Collection:
    text = str(value).strip()
    match = readable.filter(name=text).first()
    if match is None and text.isdigit():
        match = readable.filter(pk=int(text)).first()
    if match is None:
        # The same message whether it is missing or forbidden: names are not disclosed.
        raise ScopeNotFound(f"collection: no collection {text!r} that you can read")
    return match


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def resolve_scope(
    user: Any, *, collection: str | int | None = None, file_scope: Sequence[str] = ()
) -> Scope:
    readable = Collection.objects.readable_by(user)
    if collection is not None and str(collection).strip():
        collection_ids: tuple[int, ...] = (_collection(readable, collection).pk,)
    else:
        collection_ids = tuple(readable.values_list("pk", flat=True))
    if not file_scope:
        return Scope(collection_ids, ())
    documents = Document.objects.filter(collection_id__in=collection_ids)
    found: list[str] = []
    for item in file_scope:
        value = item.strip()
        condition = Q(file_name=value) | Q(file_path=value)
        if _is_uuid(value):
            condition |= Q(pk=value)
        ids = [str(pk) for pk in documents.filter(condition).values_list("pk", flat=True)]
        if not ids:
            raise ScopeNotFound(f"file_scope: no readable file {value!r}")
        found.extend(i for i in ids if i not in found)
    return Scope(collection_ids, tuple(found))
