"""The readable documents named after a person: those whose title opens with the full name
("Alexis Torres", "KEVIN MAHONEY - Résumé") or whose file is named after it
("alexis_torres.pdf", "Resume - Alexis Torres").

Every question that names someone asks this, once per person it may name. Each
collection's titles and file names are kept in the process, by the word a match must open
(title) or close (file name) with, and rebuilt when a document is added, replaced or
removed; the expressions that decide a match run only on the few documents under that
word, instead of a query per person."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import connection

from . import sql
from .collection_state import KeptPerCollection

_RUN = re.compile(r"[^\W_]+")  # a run of letters and digits


@dataclass(frozen=True)
class _Named:
    document_id: str
    path: str
    title: str
    file_name: str


@dataclass
class _Index:
    by_title_start: dict[str, list[_Named]] = field(default_factory=dict)
    by_file_end: dict[str, list[_Named]] = field(default_factory=dict)

    def add(self, named: _Named) -> None:
        title = _RUN.findall(named.title.lower())
        if title:
            self.by_title_start.setdefault(title[0], []).append(named)
        # The name closes the file name, before one extension or without: "…torres.pdf"
        for word in set(_RUN.findall(named.file_name.lower())[-2:]):
            self.by_file_end.setdefault(word, []).append(named)


def _index(collection_id: int) -> _Index:
    index = _Index()
    with connection.cursor() as cursor:
        cursor.execute(sql.COLLECTION_NAMED, {"collection": collection_id})
        for document_id, path, title, file_name in cursor.fetchall():
            index.add(_Named(str(document_id), path, title, file_name))
    return index


_indexes = KeptPerCollection(_index)


class NamedDocuments:
    """The documents of some collections named after each of several names, the indexes
    read once (their versions checked once) for all of them."""

    def __init__(self, collection_ids: Sequence[int]) -> None:
        self._collection_ids = list(collection_ids)
        self._indexes: list[_Index] | None = None

    def named_after(self, parts: Sequence[str]) -> dict[str, str]:
        """{document id: path} of the documents named after the name of these lower-case
        words, by path."""
        opening, closing = _RUN.findall(parts[0]), _RUN.findall(parts[-1])
        if not opening or not closing:
            return {}
        if self._indexes is None:
            self._indexes = list(_indexes(self._collection_ids).values())
        words = r"[^a-z0-9]+".join(re.escape(part) for part in parts)
        title = re.compile(rf"^\W*{words}\b", re.IGNORECASE)
        file_name = re.compile(rf"(^|[^a-z]){words}(\.[a-z0-9]+)?\Z", re.IGNORECASE)
        found = {}
        for index in self._indexes:
            for named in index.by_title_start.get(opening[0], ()):
                if title.search(named.title):
                    found[named.document_id] = named.path
            for named in index.by_file_end.get(closing[-1], ()):
                if file_name.search(named.file_name):
                    found[named.document_id] = named.path
        return dict(sorted(found.items(), key=lambda item: item[1]))
