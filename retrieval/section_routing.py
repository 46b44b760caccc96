"""Section routing. HARD: the attribute phrase is embedded and matched against section
names; the chunks under the matching sections are ranked by
section_weight x section similarity + (1 - section_weight) x chunk similarity.
SOFT: chunks found otherwise get a boost when they sit in a matching section.

A section also matches through its SectionType: it scores as well as the best-matching
readable section of its type (damped), so "skills" finds a "Technical Expertise" section
that shares a type with "Skills" even when the two names embed far apart. Everything is
read from PostgreSQL (the rows the graph is written from) and filtered by collection in
the query itself."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from uuid import UUID

from django.conf import settings
from django.contrib.postgres.search import SearchQuery
from django.db.models import FloatField, Max, Q
from django.db.models.expressions import ExpressionWrapper
from pgvector.django import CosineDistance

from core.providers.embeddings import embed_texts
from ingestion.models import Chunk, Section

from .query_understanding import QueryAnalysis


@dataclass(frozen=True)
class SectionHit:
    chunk_id: str
    section_id: str
    section_name: str
    section_path: str
    section_similarity: float
    chunk_similarity: float
    score: float


@dataclass(frozen=True)
class _MatchedSection:
    id: str
    document_id: str
    name: str
    path: str
    level: int
    start: int
    end: int
    similarity: float


@lru_cache(maxsize=256)
def _embed_phrase(phrase: str) -> tuple[float, ...]:
    return tuple(embed_texts([phrase])[0])


def _similarity(field: str, vector: Sequence[float]) -> ExpressionWrapper:
    return ExpressionWrapper(1 - CosineDistance(field, list(vector)), output_field=FloatField())


def match_sections(
    phrase: str,
    *,
    collection_ids: Sequence[int],
    document_ids: Sequence[str] | None = None,
    threshold: float | None = None,
    most: int | None = None,
) -> list[_MatchedSection]:
    """Sections of readable collections (and of the given documents, if any) whose name,
    or whose type, is close to the phrase; best first."""
    if not phrase.strip() or not collection_ids:
        return []
    threshold = settings.RETRIEVAL_SECTION_THRESHOLD if threshold is None else threshold
    vector = _embed_phrase(phrase.strip().lower())
    readable = Section.objects.filter(collection_id__in=list(collection_ids))
    # The best readable member of each type: what the type's other names inherit.
    type_best = dict(
        readable.filter(section_type__isnull=False)
        .values("section_type_id")
        .annotate(best=Max(_similarity("embedding", vector)))
        .values_list("section_type_id", "best")
    )
    scoped = readable
    if document_ids is not None:
        scoped = scoped.filter(document_id__in=list(document_ids))
    rows = (
        scoped.filter(start_chunk_index__isnull=False)
        .annotate(similarity=_similarity("embedding", vector))
        .values_list(
            "id",
            "document_id",
            "name",
            "path",
            "level",
            "start_chunk_index",
            "end_chunk_index",
            "similarity",
            "section_type_id",
        )
    )
    damping = settings.RETRIEVAL_SECTION_TYPE_WEIGHT
    matched: list[_MatchedSection] = []
    for pk, document_id, name, path, level, start, end, own, type_id in rows:
        similarity = max(float(own), damping * float(type_best.get(type_id, 0.0) or 0.0))
        if similarity >= threshold and start is not None and end is not None:
            matched.append(
                _MatchedSection(
                    str(pk), str(document_id), name, path, level, start, end, similarity
                )
            )
    matched.sort(key=lambda s: (-s.similarity, -s.level))
    return matched[:most] if most else matched


def _topic_filter(terms: Sequence[str]) -> Q:
    match = Q(keywords__overlap=[t.lower() for t in terms])
    for term in terms:
        match |= Q(search_vector=SearchQuery(term, config="english"))
    return match


def hard_route(
    analysis: QueryAnalysis,
    *,
    query_embedding: Sequence[float],
    collection_ids: Sequence[int],
    document_ids: Sequence[str] | None = None,
    limit: int,
) -> list[SectionHit]:
    """Chunks of the sections the question asks for, best first. `document_ids` (a file
    scope) overrides the documents the named people scope to. An empty list means no
    section matched: the caller searches as usual."""
    if limit <= 0:
        raise ValueError("limit must be positive")
    if not analysis.attribute_phrase or not collection_ids:
        return []
    scope: Sequence[str] | None = document_ids
    if scope is None and analysis.route == "section_based_scoped":
        scope = analysis.document_ids
    sections = match_sections(
        analysis.attribute_phrase,
        collection_ids=collection_ids,
        document_ids=scope,
        most=settings.RETRIEVAL_SECTION_MAX_SECTIONS,
    )
    if not sections:
        return []
    spans = Q()
    for section in sections:
        spans |= Q(
            document_id=UUID(section.document_id),
            index__gte=section.start,
            index__lte=section.end,
        )
    chunks = Chunk.objects.filter(spans, collection_id__in=list(collection_ids))
    if analysis.topic_terms:
        chunks = chunks.filter(_topic_filter(analysis.topic_terms))
    rows = chunks.annotate(similarity=_similarity("embedding", query_embedding)).values_list(
        "id", "document_id", "index", "similarity"
    )
    weight = settings.RETRIEVAL_SECTION_WEIGHT
    best: dict[str, SectionHit] = {}
    for chunk_id, document_id, index, chunk_similarity in rows:
        for section in sections:
            if section.document_id != str(document_id) or not (
                section.start <= index <= section.end
            ):
                continue
            score = weight * section.similarity + (1 - weight) * float(chunk_similarity)
            key = str(chunk_id)
            if key not in best or score > best[key].score:
                best[key] = SectionHit(
                    chunk_id=key,
                    section_id=section.id,
                    section_name=section.name,
                    section_path=section.path,
                    section_similarity=round(section.similarity, 4),
                    chunk_similarity=round(float(chunk_similarity), 4),
                    score=round(score, 4),
                )
    return sorted(best.values(), key=lambda h: (-h.score, h.chunk_id))[:limit]


def soft_section_boosts(
    analysis: QueryAnalysis, *, chunk_ids: Sequence[str], collection_ids: Sequence[int]
) -> dict[str, float]:
    """Chunk id -> the similarity (0..1) of the best matching section it sits in, for the
    chunks of readable collections that sit in one; chunks in no matching section, and
    every chunk when the question names no attribute, get no entry."""
    if not analysis.attribute_phrase or not chunk_ids or not collection_ids:
        return {}
    chunks = list(
        Chunk.objects.filter(pk__in=list(chunk_ids), collection_id__in=list(collection_ids))
        .values_list("id", "document_id", "index")
        .order_by()
    )
    if not chunks:
        return {}
    documents = sorted({str(document_id) for _, document_id, _ in chunks})
    sections = match_sections(
        analysis.attribute_phrase, collection_ids=collection_ids, document_ids=documents
    )
    by_document: dict[str, list[_MatchedSection]] = {}
    for section in sections:
        by_document.setdefault(section.document_id, []).append(section)
    boosts: dict[str, float] = {}
    for chunk_id, document_id, index in chunks:
        scores = [
            s.similarity for s in by_document.get(str(document_id), []) if s.start <= index <= s.end
        ]
        if scores:
            boosts[str(chunk_id)] = round(min(1.0, max(scores)), 4)
    return boosts
