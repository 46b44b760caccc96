"""Questions about who is related to whom: "who worked with Alexis Torres at TechCorp?".

Starting from one entity, relations (WORKED_WITH, WORKS_FOR, ...) are followed hop by hop
in the graph, up to `max_hops`, then the chunks that mention the entities reached are read
from PostgreSQL. Entity nodes are shared by every collection, so each relation is kept only
when a document the reader may see states it, and each mention only when its chunk is in a
readable collection: a relation known from a forbidden document never shows."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.postgres.search import TrigramWordSimilarity
from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Lower

from core.providers import graph
from ingestion.models import Chunk, Document, Entity, EntityMention, EntityRelation

from . import cypher
from .collection_state import KeptPerCollections
from .query_understanding import QueryReader, read_query

RELATION_TYPES = (
    "WORKED_WITH",
    "WORKS_FOR",
    "WORKED_ON",
    "EXPERIENCED_WITH",
    "STUDIED_AT",
    "HAS_CERTIFICATION",
    "LOCATED_IN",
)
_RELATION_RE = re.compile(r"^[A-Z][A-Z0-9_]{0,49}$")
# Words of a question that name a relation, and the relation types they mean.
RELATION_WORDS: dict[str, tuple[str, ...]] = {
    "worked with": ("WORKED_WITH", "WORKS_FOR"),
    "work with": ("WORKED_WITH", "WORKS_FOR"),
    "colleague": ("WORKED_WITH", "WORKS_FOR"),
    "together": ("WORKED_WITH",),
    "alongside": ("WORKED_WITH",),
    "hire": ("WORKED_WITH",),
    "works for": ("WORKS_FOR",),
    "work for": ("WORKS_FOR",),
    "worked for": ("WORKS_FOR",),
    "employ": ("WORKS_FOR",),
    "worked on": ("WORKED_ON",),
    "work on": ("WORKED_ON",),
    "studied": ("STUDIED_AT",),
    "school": ("STUDIED_AT",),
    "certif": ("HAS_CERTIFICATION",),
    "based": ("LOCATED_IN",),
}
MAX_EDGES_PER_HOP = 500


class EntityQueryError(ValueError):
    pass


class EntityNotFound(EntityQueryError):
    """No entity of that id or name in the collections the caller may read."""


@dataclass(frozen=True)
class RelationStep:
    source_id: str  # as stated: source -[type]-> target
    target_id: str
    type: str
    document_id: str
    properties: dict[str, Any]


@dataclass
class RelatedEntity:
    id: str
    name: str
    type: str
    hops: int
    path: list[RelationStep]  # from the source entity to this one
    statements: list[RelationStep] = field(default_factory=list)  # last hop, every document


@dataclass
class EvidenceChunk:
    chunk_id: str
    document_id: str
    file_name: str
    file_path: str
    chunk_index: int
    text: str
    entities: list[str]  # names of the related entities it mentions
    states_relation: bool  # the chunk a reported relation was extracted from


@dataclass
class RelationshipResult:
    source: dict[str, str]
    entities: list[RelatedEntity] = field(default_factory=list)
    chunks: list[EvidenceChunk] = field(default_factory=list)
    context: list[dict[str, str]] = field(default_factory=list)  # entities that narrowed it

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "context": self.context,
            "entities": [
                {
                    "id": e.id,
                    "name": e.name,
                    "type": e.type,
                    "hops": e.hops,
                    "path": [step.__dict__ for step in e.path],
                    "statements": [step.__dict__ for step in e.statements],
                }
                for e in self.entities
            ],
            "chunks": [c.__dict__ for c in self.chunks],
        }


def readable_document_ids(collection_ids: Sequence[int]) -> list[str]:
    return [
        str(pk)
        for pk in Document.objects.filter(collection_id__in=list(collection_ids)).values_list(
            "pk", flat=True
        )
    ]


def _stating_documents(collection_ids: tuple[int, ...]) -> list[str]:
    rows = Document.objects.filter(collection_id__in=collection_ids, relation_count__gt=0)
    return [str(pk) for pk in rows.values_list("pk", flat=True)]


# The readable documents that state relations: what every relation query filters on. A
# large collection has thousands of documents, most stating none; the list is kept per
# process until a document of the collections changes.
stating_document_ids = KeptPerCollections(_stating_documents)


def find_entity(reference: str, *, collection_ids: Sequence[int]) -> Entity | None:
    """An entity by graph id or by name, among those mentioned in readable collections:
    the exact name first, then the closest name by trigram word similarity."""
    mentioned = EntityMention.objects.filter(
        entity=OuterRef("pk"), chunk__collection_id__in=list(collection_ids)
    )
    readable = Entity.objects.filter(Exists(mentioned)).defer("search_words")
    # The lower-case name's index serves the exact match; only then is every readable
    # name compared.
    exact = (
        readable.alias(lowered=Lower("name"))
        .filter(Q(graph_id=reference) | Q(lowered=reference.strip().lower()))
        .first()
    )
    if exact is not None:
        return exact
    return (
        readable.annotate(similarity=TrigramWordSimilarity(reference.strip(), "search_names"))
        .filter(similarity__gte=0.6)
        .order_by("-similarity", "name")
        .first()
    )


def _validate(relationship_types: Sequence[str] | None, max_hops: int, max_chunks: int) -> None:
    if max_hops not in (1, 2, 3):
        raise EntityQueryError(f"max_hops: 1, 2 or 3, not {max_hops}")
    if max_chunks < 0 or max_chunks > 200:
        raise EntityQueryError(f"max_chunks: 0 to 200, not {max_chunks}")
    for name in relationship_types or ():
        if not _RELATION_RE.match(name):
            raise EntityQueryError(f"not a relationship type: {name!r}")


def _step(row: dict[str, Any]) -> RelationStep:
    start = row["start_id"]
    return RelationStep(
        source_id=start,
        target_id=row["to_id"] if start == row["from_id"] else row["from_id"],
        type=row["relationship"],
        document_id=str(row["properties"].get("document_id", "")),
        properties={
            k: v
            for k, v in row["properties"].items()
            if k not in ("document_id", "extraction_source")
        },
    )


def relation_rows(
    ids: Sequence[str],
    *,
    types: Sequence[str],
    documents: list[str],
    limit: int = MAX_EDGES_PER_HOP,
) -> list[dict[str, Any]]:
    """The relations of the given types from these entities that a readable document states,
    one row per relation and direction."""
    return graph.run_read(
        cypher.ENTITY_RELATIONS_STEP,
        ids=list(ids),
        types=list(types),
        documents=documents,
        limit=limit,
    )


def traverse(
    source_id: str, *, relationship_types: Sequence[str], max_hops: int, documents: list[str]
) -> dict[str, RelatedEntity]:
    """Breadth-first over readable relations. Each entity keeps its shortest path, and in
    `statements` every readable relation that reaches it at that hop (two documents may
    state the same link, each in its own words)."""
    reached: dict[str, RelatedEntity] = {}
    paths: dict[str, list[RelationStep]] = {source_id: []}
    frontier = [source_id]
    for hop in range(1, max_hops + 1):
        if not frontier:
            break
        rows = relation_rows(frontier, types=relationship_types, documents=documents)
        next_frontier: list[str] = []
        for row in sorted(rows, key=lambda r: (r["to_id"], r["relationship"], r["start_id"])):
            to_id = row["to_id"]
            if to_id in reached and reached[to_id].hops == hop:
                reached[to_id].statements.append(_step(row))
                continue
            if to_id in paths:
                continue
            step = _step(row)
            paths[to_id] = [*paths[row["from_id"]], step]
            reached[to_id] = RelatedEntity(
                to_id, row["name"], row["type"], hop, paths[to_id], [step]
            )
            next_frontier.append(to_id)
        frontier = next_frontier
    return reached


def _context_chunks(
    context_ids: set[str], names: list[str], collection_ids: Sequence[int]
) -> set[str]:
    """Readable chunks that speak of a context entity: they mention it, or sit under a
    heading that names it ("Bayou Digital - Software Developer")."""
    under = Q(pk__in=[])
    for name in names:
        under |= Q(header_path__icontains=name)
    mentioned = EntityMention.objects.filter(
        entity__graph_id__in=context_ids, chunk__collection_id__in=list(collection_ids)
    ).values_list("chunk_id", flat=True)
    headed = Chunk.objects.filter(under, collection_id__in=list(collection_ids)).values_list(
        "pk", flat=True
    )
    return {str(pk) for pk in [*mentioned, *headed]}


def _mentions_context(
    entity: RelatedEntity,
    context_ids: set[str],
    names: list[str],
    chunk_of: dict[tuple[str, str, str, str], str],
    context_chunks: set[str],
) -> bool:
    """Whether the path goes through a context entity (Alexis -WORKS_FOR-> TechCorp
    <-WORKS_FOR- Will), or the relation that reaches the entity is stated in a chunk, or in
    words, that speak of one (a colleague's colleague does not qualify by the first step)."""
    if any(s.source_id in context_ids or s.target_id in context_ids for s in entity.path):
        return True
    if entity.hops > 1:  # what a colleague's colleague did there is not the question
        return False
    for step in entity.statements:
        if chunk_of.get(_key(step)) in context_chunks:
            return True
        text = " ".join(str(v) for v in step.properties.values()).lower()
        if any(name.lower() in text for name in names):
            return True
    return False


def _key(step: RelationStep) -> tuple[str, str, str, str]:
    return (step.source_id, step.target_id, step.type, step.document_id)


def _evidence(
    related: list[RelatedEntity], *, collection_ids: Sequence[int], max_chunks: int
) -> list[EvidenceChunk]:
    """Readable chunks that mention the related entities; the chunks their relations were
    read from first."""
    if not related or not max_chunks:
        return []
    by_id = {e.id: e for e in related}
    stated = {_key(s) for e in related for s in [*e.path, *e.statements]}
    stating_chunks = {
        str(pk)
        for pk in Chunk.objects.filter(
            collection_id__in=list(collection_ids),
            pk__in=[
                *_stating_chunk_ids(stated).values(),
                *(c for e in related for s in e.path for c in s.properties.get("chunk_ids", [])),
            ],
        ).values_list("pk", flat=True)
    }
    rows = (
        EntityMention.objects.filter(
            entity__graph_id__in=list(by_id), chunk__collection_id__in=list(collection_ids)
        )
        .values_list(
            "chunk_id",
            "entity__graph_id",
            "chunk__document_id",
            "chunk__document__file_name",
            "chunk__document__file_path",
            "chunk__index",
            "chunk__text",
        )
        .order_by("chunk__document__file_path", "chunk__index")
    )
    chunks: dict[str, EvidenceChunk] = {}
    for chunk_id, graph_id, document_id, file_name, file_path, index, text in rows:
        key = str(chunk_id)
        if key not in chunks:
            chunks[key] = EvidenceChunk(
                key, str(document_id), file_name, file_path, index, text, [], key in stating_chunks
            )
        chunks[key].entities.append(by_id[graph_id].name)
    ranked = sorted(
        chunks.values(),
        key=lambda c: (not c.states_relation, -len(c.entities), c.file_path, c.chunk_index),
    )
    return ranked[:max_chunks]


def _stating_chunk_ids(stated: set[tuple[str, str, str, str]]) -> dict[Any, str]:
    """(source, target, type, document) -> the chunk the relation was extracted from."""
    wanted = {key for key in stated if key[3]}  # a co-mention is stated by no document
    if not wanted:
        return {}
    # One plain query for a superset (an OR of one condition per statement takes Django
    # longer to compile than the database to answer), then the exact statements here.
    sources, targets, kinds, documents = (set(column) for column in zip(*wanted, strict=True))
    rows = EntityRelation.objects.filter(
        source__graph_id__in=sources,
        target__graph_id__in=targets,
        type__in=kinds,
        document_id__in=documents,
        chunk__isnull=False,
    ).values_list("source__graph_id", "target__graph_id", "type", "document_id", "chunk_id")
    found = {(s, t, k, str(d)): str(c) for s, t, k, d, c in rows}
    return {key: chunk for key, chunk in found.items() if key in wanted}


def retrieve_by_relationship(
    source: str,
    *,
    collection_ids: Sequence[int],
    relationship_types: Sequence[str] | None = None,
    max_hops: int = 2,
    max_chunks: int = 15,
    context: Sequence[str] = (),
    target_types: Sequence[str] | None = None,
) -> RelationshipResult:
    """Entities related to `source` (graph id or name) through the given relation types,
    with their paths and the readable chunks that mention them. `context` entities (by id
    or name, "TechCorp") keep only the entities whose path goes through one of them or
    whose relation speaks of one; `target_types` keeps only those labels ("Person")."""
    _validate(relationship_types, max_hops, max_chunks)
    start = find_entity(source, collection_ids=collection_ids)
    if start is None:
        raise EntityNotFound(f"no entity called {source!r} in the collections you can read")
    types = list(relationship_types or RELATION_TYPES)
    documents = stating_document_ids(collection_ids)
    reached = traverse(
        start.graph_id, relationship_types=types, max_hops=max_hops, documents=documents
    )
    found_context = [
        e for e in (find_entity(c, collection_ids=collection_ids) for c in context) if e
    ]
    context_ids = {e.graph_id for e in found_context}
    related = [e for e in reached.values() if e.id not in context_ids]
    if found_context:
        names = [e.name for e in found_context]
        chunk_of = _stating_chunk_ids({_key(s) for e in related for s in e.statements})
        context_chunks = _context_chunks(context_ids, names, collection_ids)
        # Both ends tied to the context entity (James and Alex each WORKS_FOR Bayou
        # Digital) also qualifies, whatever path the traversal found first.
        ties: dict[str, list[RelationStep]] = {}
        for row in relation_rows(sorted(context_ids), types=types, documents=documents):
            ties.setdefault(row["to_id"], []).append(_step(row))
        kept = []
        for e in related:
            if start.graph_id in ties and e.id in ties:
                e.statements.extend(ties[e.id])
                kept.append(e)
            elif _mentions_context(e, context_ids, names, chunk_of, context_chunks):
                kept.append(e)
        related = kept
    if target_types:
        related = [e for e in related if e.type in target_types]
    if not related:
        related = _mentioned_with(start.graph_id, collection_ids, target_types)
    related.sort(key=lambda e: (e.hops, e.name))
    return RelationshipResult(
        source={"id": start.graph_id, "name": start.name, "type": start.type},
        entities=related,
        chunks=_evidence(related, collection_ids=collection_ids, max_chunks=max_chunks),
        context=[{"id": e.graph_id, "name": e.name, "type": e.type} for e in found_context],
    )


def _mentioned_with(
    entity_id: str, collection_ids: Sequence[int], target_types: Sequence[str] | None
) -> list[RelatedEntity]:
    """No relation reaches anyone: the entities readable chunks mention beside it
    ("Who worked on the Bayport Terminal crane rebuild?" when no WORKED_ON was extracted),
    each with a MENTIONED_WITH step naming the chunk."""
    rows = graph.run_read(
        cypher.NEIGHBOURHOOD_MENTIONS, id=entity_id, collections=list(collection_ids), limit=50
    )
    found = []
    for row in rows:
        if target_types and row["type"] not in target_types:
            continue
        step = RelationStep(
            entity_id, row["id"], "MENTIONED_WITH", "", {"chunk_ids": sorted(row["chunk_ids"])}
        )
        found.append(RelatedEntity(row["id"], row["name"], row["type"], 1, [step], [step]))
    return found


def relationship_types_in(question: str) -> list[str]:
    """Relation types a question's wording asks about ("worked with" -> WORKED_WITH, ...)."""
    lowered = question.lower()
    found: list[str] = []
    for words, kinds in RELATION_WORDS.items():
        if words in lowered:
            found.extend(k for k in kinds if k not in found)
    return found


def answer_relationship_question(
    question: str,
    *,
    collection_ids: Sequence[int],
    max_hops: int = 2,
    max_chunks: int = 15,
    read: QueryReader = read_query,
) -> RelationshipResult | None:
    """A question about what is related to a named entity: the first person it names, or
    else the first other entity ("Who worked on Project Lumen?"); the other entities it
    names narrow the answer. None when it names no readable entity."""
    from .entity_grounding import ground_entities

    analysis = read(question, collection_ids)
    grounded = ground_entities(question, collection_ids=collection_ids, read=read)
    if analysis.persons:
        source = analysis.persons[0].entity_ids[0]
        others = set(analysis.persons[0].entity_ids)
    elif grounded:
        source = grounded[0].id
        others = {source}
    else:
        return None
    context = [e.id for e in grounded if e.type != "Person" and e.id not in others]
    wants_people = bool(
        re.match(r"\s*(who|whom|which (people|colleagues|person|\w+ employee))\b", question, re.I)
    )
    return retrieve_by_relationship(
        source,
        collection_ids=collection_ids,
        relationship_types=relationship_types_in(question) or None,
        max_hops=max_hops,
        max_chunks=max_chunks,
        context=context,
        target_types=["Person"] if wants_people else None,
    )
