"""Section routing (retrieval.query_understanding and retrieval.section_routing) as the
search uses it: hard routes give the candidates, soft routes give boosts."""

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ingestion.models import Document
from retrieval.query_understanding import QueryReader, names_a_part

log = logging.getLogger(__name__)

HARD_ROUTES = ("section_based_scoped", "section_based_cross_document")


@dataclass
class Routing:
    analysis: Any = None  # QueryAnalysis
    route: str = "off"  # off, skipped, semantic, or a hard route
    hard_hits: list[Any] = field(default_factory=list)  # SectionHit
    fell_back: bool = False
    skipped: str = ""  # why section routing did not run, when it was asked for

    @classmethod
    def skip(cls, reason: str) -> "Routing":
        return cls(route="skipped", skipped=reason)

    @property
    def persons(self) -> list[str]:
        return [p.name for p in self.analysis.persons] if self.analysis is not None else []


def skip_reason(query: str, *, collection_ids: Sequence[int], section_query: str | None) -> str:
    """Why section routing cannot help this question ("" when it may): it needs a part of
    documents named (or a section query) and readable documents with sections to route
    between. Reading the question for names costs more than the rest of the search."""
    if not (section_query and section_query.strip()) and not names_a_part(query):
        return "the question names no part of a document"
    if not Document.objects.filter(collection_id__in=collection_ids, section_count__gte=2).exists():
        return "no readable document has more than one section"
    return ""


def analyze(
    query: str, *, collection_ids: Sequence[int], section_query: str | None, read: QueryReader
) -> Routing:
    analysis = read(query, collection_ids)
    if section_query and section_query.strip():
        # An explicit section query asks for that part of the documents, whatever the words.
        scoped = bool(analysis.document_ids)
        analysis = dataclasses.replace(
            analysis,
            route="section_based_scoped" if scoped else "section_based_cross_document",
            attribute_phrase=section_query.strip(),
        )
    return Routing(analysis=analysis, route=analysis.route)


def hard_route(
    routing: Routing, *, query_embedding: Sequence[float], collection_ids: Sequence[int],
    document_ids: Sequence[str], limit: int,
) -> None:  # fmt: skip
    from retrieval.section_routing import hard_route as route_sections

    scoped = list(routing.analysis.document_ids) or None
    if document_ids:
        # A file scope narrows the person's documents further (or stands in for them).
        scoped = [d for d in (scoped or document_ids) if d in set(document_ids)] or None
        if scoped is None:
            routing.fell_back = True
            return
    routing.hard_hits = list(
        route_sections(
            routing.analysis,
            query_embedding=list(query_embedding),
            collection_ids=list(collection_ids),
            document_ids=scoped,
            limit=limit,
        )
    )
    routing.fell_back = not routing.hard_hits


def soft_boosts(
    routing: Routing, *, chunk_ids: Sequence[str], collection_ids: Sequence[int]
) -> dict[str, float]:
    from retrieval.section_routing import soft_section_boosts

    return dict(
        soft_section_boosts(
            routing.analysis, chunk_ids=list(chunk_ids), collection_ids=list(collection_ids)
        )
    )
