"""What the documents a person may read hold for a question, as evidence for the chat's
router: how strongly the question's keywords match, which of its words the documents hold,
and which entities of those documents it names. It decides nothing; the router weighs it."""

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models.functions import Lower

from ingestion.models import Collection, Entity, EntityMention

from . import sql
from .search.keyword_search import bm25_idf, keyword_search
from .search.query_terms import query_keywords
from .search.scope import Scope

# Entity types whose names make a question about people and organisations.
GRAPH_TYPES = frozenset({"Person", "Organization", "Project"})
CHUNK_COUNT_SECONDS = 30.0  # an idf needs the number of chunks, not to the last one
_chunk_counts: dict[tuple[int, ...], tuple[float, int]] = {}


@dataclass(frozen=True)
class KeywordEvidence:
    terms: list[str]  # the question's keywords
    frequencies: dict[str, int]  # readable chunks holding each term
    idf: dict[str, float]  # BM25's inverse document frequency of each term
    best: float  # keyword score of the best readable chunk, 0..1


def keyword_evidence(text: str, collection_ids: tuple[int, ...]) -> KeywordEvidence | None:
    """None when there is nothing to match: no readable collection, no keyword or no chunk."""
    if not collection_ids:
        return None
    terms = query_keywords(text)
    if not terms:
        return None
    params: dict[str, Any] = {"terms": terms, "collections": list(collection_ids), "documents": []}
    with connection.cursor() as cursor:
        total = _readable_chunks(cursor, params)
        cursor.execute(sql.TERM_FREQUENCIES, params)
        frequencies = {term: int(df) for term, df in cursor.fetchall()}
    if not total:
        return None
    idf = {t: bm25_idf(total, frequencies[t]) for t in terms}
    hits = keyword_search(terms, Scope(collection_ids, ()), weights=idf, limit=1)
    return KeywordEvidence(terms, frequencies, idf, hits[0].score if hits else 0.0)


def _readable_chunks(cursor: Any, params: dict[str, Any]) -> int:
    key = tuple(params["collections"])
    cached = _chunk_counts.get(key)
    if cached is not None and time.monotonic() < cached[0]:
        return cached[1]
    cursor.execute(sql.READABLE_CHUNK_COUNT, params)
    total = int(cursor.fetchone()[0])
    _chunk_counts[key] = (time.monotonic() + CHUNK_COUNT_SECONDS, total)
    return total


def forget_chunk_counts() -> None:
    _chunk_counts.clear()


def known_entities(
    text: str, collection_ids: tuple[int, ...], *, ignore: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """(name, type) of the entities of readable documents whose whole name is a run of the
    question's words; runs in `ignore` (words that name nothing) are not looked up."""
    tokens = re.findall(r"[\w+#.\-]+", text.lower().replace("'s ", " "))
    runs = {
        " ".join(tokens[i : i + n]).strip(".")
        for n in range(1, 5)
        for i in range(len(tokens) - n + 1)
    }
    skipped = frozenset(ignore)
    runs = {r for r in runs if len(r) >= 3 and r not in skipped}
    if not runs:
        return []
    readable = EntityMention.objects.filter(chunk__collection_id__in=collection_ids)
    rows = (
        Entity.objects.annotate(lowered=Lower("name"))
        .filter(lowered__in=runs, pk__in=readable.values("entity_id"))
        .values_list("name", "type")
        .distinct()
    )
    # A one-word person or organisation counts only when written as the name it is: the
    # extractor's "Crane" organisation is no reason to read "crane lifts" as a name.
    return [
        (name, kind)
        for name, kind in rows
        if " " in name
        or kind not in GRAPH_TYPES
        or re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)
    ]


def readable_collection_ids(user: Any) -> tuple[int, ...]:
    """The collections `user` may read (none without a user)."""
    if user is None:
        return ()
    return tuple(Collection.objects.readable_by(user).values_list("pk", flat=True))
