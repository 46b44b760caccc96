"""The title bridge of graph expansion: a chunk that names another document of its own
collection by that document's title leads to that document. It needs no entity extractor
(the offline one misses films, songs and works): the names are the documents' titles.

Each collection's titles go into a word trie (a title without its trailing qualifier too:
"The Prestige (film)" is named "The Prestige", but "Maria (song)" is not named by "Maria"),
built once and rebuilt when a document is added, replaced or removed. One pass over a
chunk's words finds, from every word that starts with a capital or a digit, the longest
title starting there. A one-word title counts only when it is distinctive: written in the
text as in the title, and held by at most RETRIEVAL_ENTITY_MAX_DEGREE chunks of its
collection (so "Belgium" or "Botany" does not link everything to everything)."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection

from .. import sql
from ..collection_state import KeptPerCollection
from .keyword_search import term_statistics

_WORD = re.compile(r"\w+")
_QUALIFIER = re.compile(r"\s*\([^()]*\)$")
_END = ""  # trie key of the titles ending at a node (no word is empty)


@dataclass(frozen=True)
class TitleLink:
    from_id: str  # the chunk that names the title
    document_id: str  # the document it names
    title: str
    position: int  # where in the chunk's text the title is named


@dataclass
class TitleIndex:
    trie: dict[str, Any] = field(default_factory=dict)
    # chunks holding each one-word title, counted when first needed
    frequencies: dict[str, int] = field(default_factory=dict)

    def add(self, document_id: str, title: str) -> None:
        base = _QUALIFIER.sub("", title)
        for name in {title, base}:
            words = _WORD.findall(name)
            if not words or (name != title and len(words) == 1):
                continue  # a qualifier says the one word alone is ambiguous: "Maria (song)"
            node = self.trie
            for word in words:
                node = node.setdefault(word.lower(), {})
            node.setdefault(_END, []).append((document_id, title, words[0]))

    def find(self, text: str) -> list[tuple[int, int, list[tuple[str, str, str]]]]:
        """(position, words, titles) of the longest title starting at each capitalized word
        or digit, left to right, never inside a title already found."""
        words = list(_WORD.finditer(text))
        found: list[tuple[int, int, list[tuple[str, str, str]]]] = []
        i = 0
        while i < len(words):
            head = words[i].group()[0]
            best: tuple[int, list[tuple[str, str, str]]] | None = None
            if head.isupper() or head.isdigit():
                node = self.trie
                for j in range(i, len(words)):
                    child = node.get(words[j].group().lower())
                    if child is None:
                        break
                    node = child
                    if _END in node:
                        best = (j - i + 1, node[_END])
            if best is None:
                i += 1
                continue
            found.append((words[i].start(), best[0], best[1]))
            i += best[0]
        return found


def _title_index(collection_id: int) -> TitleIndex:
    index = TitleIndex()
    with connection.cursor() as cursor:
        cursor.execute(sql.COLLECTION_TITLES, {"collection": collection_id})
        for document_id, title in cursor.fetchall():
            index.add(str(document_id), str(title))
    return index


# The current title index of each collection, rebuilt only when it changed.
title_indexes = KeptPerCollection(_title_index)


def _distinctive(index: TitleIndex, collection_id: int, words: set[str]) -> set[str]:
    """The one-word titles held by few chunks of the collection."""
    missing = sorted(w for w in words if w not in index.frequencies)
    if missing:
        stats = term_statistics(missing, [collection_id])
        index.frequencies.update({w: stats.term_frequency(w) for w in missing})
    limit = settings.RETRIEVAL_ENTITY_MAX_DEGREE
    return {w for w in words if index.frequencies.get(w, 0) <= limit}


def mentioned_documents(
    chunk_ids: Sequence[str], *, collection_ids: Sequence[int]
) -> list[TitleLink]:
    """For each chunk (readable ones only), the other documents of its collection it names
    by title; in the chunks' order, then in the order the text names them."""
    if not chunk_ids or not collection_ids:
        return []
    params: dict[str, Any] = {"ids": list(chunk_ids), "collections": list(collection_ids)}
    with connection.cursor() as cursor:
        cursor.execute(sql.CHUNK_TEXTS, params)
        chunks = {str(pk): (str(doc), int(coll), text) for pk, doc, coll, text in cursor}
    indexes = title_indexes(sorted({coll for _, coll, _ in chunks.values()}))
    # (link, the word when it is a one-word title) per chunk, in the text's order
    named: dict[str, list[tuple[TitleLink, str | None]]] = {}
    one_word: dict[int, set[str]] = {}
    for chunk_id, (own_document, collection_id, text) in chunks.items():
        index = indexes.get(collection_id)
        for position, length, titles in index.find(text) if index else ():
            for document_id, title, first_word in titles:
                if document_id == own_document:
                    continue
                word = None
                if length == 1:
                    # Written as the title writes it: "young" is not the town of Young.
                    if text[position : position + len(first_word)] != first_word:
                        continue
                    word = first_word.lower()
                    one_word.setdefault(collection_id, set()).add(word)
                link = TitleLink(chunk_id, document_id, title, position)
                named.setdefault(chunk_id, []).append((link, word))
    keep = {coll: _distinctive(indexes[coll], coll, words) for coll, words in one_word.items()}
    result: list[TitleLink] = []
    for chunk_id in chunk_ids:
        collection_id = chunks[chunk_id][1] if chunk_id in chunks else 0
        seen: set[str] = set()
        for link, word in named.get(chunk_id, ()):
            if link.document_id in seen or (word and word not in keep[collection_id]):
                continue
            seen.add(link.document_id)
            result.append(link)
    return result
