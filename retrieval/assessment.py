"""What the documents a person may read hold for a question, as evidence for the chat's
router: how strongly the question's keywords match, which of its words the documents hold,
and which entities of those documents it names. It decides nothing; the router weighs it."""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models.functions import Lower

from ingestion.models import Collection, Entity, EntityMention

from .search.keyword_search import keyword_search, term_statistics
from .search.query_terms import query_keywords
from .search.scope import Scope

# Entity types whose names make a question about people and organisations.
GRAPH_TYPES = frozenset({"Person", "Organization", "Project"})


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
    stats = term_statistics(terms, collection_ids)
    if not stats.chunks or not stats.terms:
        return None
    hits = keyword_search(stats.terms, Scope(collection_ids, ()), statistics=stats, limit=1)
    return KeywordEvidence(
        list(stats.terms),
        {t: stats.term_frequency(t) for t in stats.terms},
        {t: stats.term_idf(t) for t in stats.terms},
        hits[0].score if hits else 0.0,
    )


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
