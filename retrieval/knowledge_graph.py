"""Knowledge-graph questions: ground the entities a question names, then (with an LLM
configured) have it write one read-only Cypher query over the entity graph's live schema,
checked by `cypher_guard` before it runs; whatever that yields, or when there is no LLM,
deterministic evidence queries answer: direct edges, co-mentions in chunks, the shortest
readable path (up to 4 hops) and the neighbourhood.

Permissions: the generated query may only name entity labels and relation types, so it
never reads chunk text; the entities it returns are kept only when readable, and every
fact, path and chunk reported is re-read through queries filtered by the reader's
collections (relations by the document that states them)."""

import itertools
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import networkx as nx
from django.conf import settings
from django.db.models import F, Func, Q

from core.providers import graph, llm
from ingestion.models import Chunk, Entity, EntityRelation, Image

from . import cypher
from .cypher_guard import GraphSchema, UnsafeCypher, check_read_only, with_limit
from .entity_grounding import GroundedEntity, ground_entities, readable_entities
from .entity_retrieval import RELATION_TYPES, relation_rows, stating_document_ids
from .query_understanding import QueryReader, read_query

ENTITY_PROPERTIES = ("id", "name", "type", "normalized_name", "aliases")
RELATION_PROPERTIES = ("document_id", "confidence", "extraction_source")
MAX_PATH_HOPS = 4


@dataclass
class GraphAnswer:
    question: str
    entities: list[GroundedEntity]
    method: str  # "cypher" when the generated query found evidence, else "fallback"
    cypher: str | None = None
    cypher_error: str | None = None
    facts: list[dict[str, Any]] = field(default_factory=list)  # readable relations
    paths: list[list[dict[str, Any]]] = field(default_factory=list)
    related: list[dict[str, Any]] = field(default_factory=list)  # neighbourhood / results
    chunks: list[dict[str, Any]] = field(default_factory=list)
    images: list[dict[str, Any]] = field(default_factory=list)
    token_usage: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def live_schema() -> GraphSchema:
    """The entity graph's labels, relation types and properties as they exist now."""
    # order_by(): the model's ordering would make DISTINCT run over (type, name).
    labels = {"Entity", *Entity.objects.order_by().values_list("type", flat=True).distinct()}
    keys = (
        EntityRelation.objects.annotate(key=Func(F("properties"), function="jsonb_object_keys"))
        .values_list("key", flat=True)
        .distinct()
    )
    properties = {*ENTITY_PROPERTIES, *RELATION_PROPERTIES, *keys}
    return GraphSchema(frozenset(labels), relationship_types(), frozenset(properties))


def relationship_types() -> frozenset[str]:
    """The relation types the entity graph holds now (the shipped ones while it has none)."""
    types = EntityRelation.objects.order_by().values_list("type", flat=True).distinct()
    return frozenset(types) or frozenset(RELATION_TYPES)


def _prompt(question: str, entities: list[GroundedEntity], schema: GraphSchema) -> str:
    listed = "\n".join(f"- {e.name} (:{e.type}, id {e.id!r})" for e in entities) or "- none"
    labels = ", ".join(sorted(schema.labels))
    return f"""Write one read-only Cypher query (Neo4j 5 syntax, no APOC, no procedures) that
answers the question from this graph. Use only these node labels: {labels};
only these relationship types: {", ".join(sorted(schema.relationship_types))};
only these properties: {", ".join(sorted(schema.properties))}.
Every node has the label Entity plus its type label and properties id and name. Match the
entities below by their id; do not invent other entities or relationship types. Return
entity nodes or their id and name, and the relationships used. Answer with the query only.

Entities in the question:
{listed}

Question: {question}"""


def _extract_query(text: str) -> str:
    fenced = re.search(r"```(?:cypher)?\s*(.*?)```", text, re.DOTALL | re.IGNORECASE)
    return (fenced.group(1) if fenced else text).strip()


def _ids_in(value: Any, into: set[str]) -> None:
    """Entity ids anywhere in a result row (nodes come back as dicts of properties)."""
    if isinstance(value, dict):
        for item in value.values():
            _ids_in(item, into)
    elif isinstance(value, list | tuple):
        for item in value:
            _ids_in(item, into)
    elif isinstance(value, str) and ":" in value and "entity:" in value:
        into.add(value)


def _relation_fact(row: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    start = row["start_id"]
    end = row["to_id"] if start == row["from_id"] else row["from_id"]
    properties = {k: v for k, v in row["properties"].items() if k != "extraction_source"}
    return {
        "source": start,
        "source_name": names.get(start, start),
        "type": row["relationship"],
        "target": end,
        "target_name": names.get(end, row.get("name") or end),
        "properties": properties,
    }


def _names(ids: set[str]) -> dict[str, str]:
    return dict(Entity.objects.filter(graph_id__in=ids).values_list("graph_id", "name"))


def _direct_and_comention(
    pairs: list[tuple[str, str]], documents: list[str], collection_ids: Sequence[int]
) -> tuple[list[dict[str, Any]], set[str]]:
    facts: list[dict[str, Any]] = []
    chunk_ids: set[str] = set()
    names = _names({x for pair in pairs for x in pair})
    for a, b in pairs:
        for row in graph.run_read(cypher.DIRECT_EDGES, a=a, b=b, documents=documents):
            row["name"] = names.get(b, b)
            facts.append(_relation_fact(row, names))
        for row in graph.run_read(
            cypher.CO_MENTIONS, a=a, b=b, collections=list(collection_ids), limit=10
        ):
            chunk_ids.add(row["chunk_id"])
    return facts, chunk_ids


def _readable_graph(
    seeds: list[str], documents: list[str], hops: int
) -> tuple["nx.MultiGraph[str]", dict[str, str]]:
    """Entities within `hops` readable relations of the seeds, as an undirected graph."""
    network: nx.MultiGraph[str] = nx.MultiGraph()
    names: dict[str, str] = {}
    frontier, seen = list(seeds), set(seeds)
    types = sorted(relationship_types())
    for _ in range(hops):
        if not frontier:
            break
        rows = relation_rows(frontier, types=types, documents=documents, limit=2000)
        frontier = []
        for row in rows:
            names[row["to_id"]] = row["name"]
            network.add_edge(row["from_id"], row["to_id"], row=row)
            if row["to_id"] not in seen:
                seen.add(row["to_id"])
                frontier.append(row["to_id"])
    return network, names


def _shortest_path(a: str, b: str, documents: list[str]) -> list[dict[str, Any]]:
    # Two hops out from each end meet on any path of up to four hops.
    half = MAX_PATH_HOPS // 2
    left, names = _readable_graph([a], documents, half)
    right, more = _readable_graph([b], documents, half)
    names.update(more)
    network: nx.MultiGraph[str] = nx.compose(left, right)
    if a not in network or b not in network:
        return []
    try:
        nodes = nx.shortest_path(network, a, b)
    except nx.NetworkXNoPath:
        return []
    if len(nodes) - 1 > MAX_PATH_HOPS:
        return []
    names.update(_names(set(nodes)))
    steps = []
    for x, y in itertools.pairwise(nodes):
        row = next(iter(network.get_edge_data(x, y).values()))["row"]
        steps.append(_relation_fact(row, names))
    return steps


def _neighbourhood(
    entity_id: str, documents: list[str], collection_ids: Sequence[int]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], set[str]]:
    names = _names({entity_id})
    facts = []
    for row in graph.run_read(
        cypher.NEIGHBOURHOOD_RELATIONS, id=entity_id, documents=documents, limit=50
    ):
        names[row["to_id"]] = row["name"]
        facts.append(_relation_fact(row, names))
    related, chunk_ids = [], set()
    for row in graph.run_read(
        cypher.NEIGHBOURHOOD_MENTIONS, id=entity_id, collections=list(collection_ids), limit=25
    ):
        related.append(
            {
                "id": row["id"],
                "name": row["name"],
                "type": row["type"],
                "chunks": len(row["chunk_ids"]),
            }
        )
        chunk_ids.update(row["chunk_ids"][:3])
    return facts, related, chunk_ids


def _stating_chunks(facts: list[dict[str, Any]], collection_ids: Sequence[int]) -> set[str]:
    match = Q(pk__in=[])
    for fact in facts:
        match |= Q(
            source__graph_id=fact["source"],
            target__graph_id=fact["target"],
            type=fact["type"],
            document_id=fact["properties"].get("document_id"),
        )
    return {
        str(pk)
        for pk in EntityRelation.objects.filter(
            match, chunk__collection_id__in=list(collection_ids)
        ).values_list("chunk_id", flat=True)
    }


def _chunks_and_images(
    chunk_ids: set[str], collection_ids: Sequence[int], limit: int = 20
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    chunks = list(
        Chunk.objects.filter(pk__in=list(chunk_ids), collection_id__in=list(collection_ids))
        .select_related("document")
        .order_by("document__file_path", "index")[:limit]
    )
    images = Image.objects.filter(chunk__in=chunks).order_by("document_id", "position")
    return (
        [
            {
                "chunk_id": str(c.pk),
                "file_name": c.document.file_name,
                "file_path": c.document.file_path,
                "chunk_index": c.index,
                "header_path": c.header_path,
                "text": c.text,
            }
            for c in chunks
        ],
        [
            {
                "image_id": str(i.pk),
                "chunk_id": str(i.chunk_id),
                "path": i.stored_path,
                "caption": i.caption,
            }
            for i in images
        ],
    )


def _generated(
    question: str,
    entities: list[GroundedEntity],
    answer: GraphAnswer,
    collection_ids: Sequence[int],
) -> set[str]:
    """Entity ids the generated query returns that the reader may see; records the query
    and why it was refused or failed."""
    schema = live_schema()
    completion = llm.complete([{"role": "user", "content": _prompt(question, entities, schema)}])
    answer.token_usage = completion.usage
    query = _extract_query(completion.text)
    answer.cypher = query
    try:
        check_read_only(query, schema)
        rows = graph.run_read(with_limit(query, settings.RETRIEVAL_GRAPH_QUERY_LIMIT))
    except UnsafeCypher as exc:
        answer.cypher_error = f"refused: {exc}"
        return set()
    except Exception as exc:  # a query the server rejects is one more empty answer
        answer.cypher_error = f"failed: {type(exc).__name__}: {exc}"[:500]
        return set()
    ids: set[str] = set()
    for row in rows:
        _ids_in(row, ids)
    readable = set(
        readable_entities(collection_ids)
        .filter(graph_id__in=ids)
        .values_list("graph_id", flat=True)
    )
    return readable


def answer_graph_question(
    question: str, *, collection_ids: Sequence[int], read: QueryReader = read_query
) -> GraphAnswer:
    if not isinstance(question, str) or not question.strip():
        raise ValueError("the question is empty")
    entities = ground_entities(question, collection_ids=collection_ids, read=read)
    answer = GraphAnswer(question=question, entities=entities, method="fallback")
    documents = stating_document_ids(collection_ids)  # relations' filter only
    chunk_ids: set[str] = set()
    if llm.llm_configured() and entities:
        found = _generated(question, entities, answer, collection_ids)
        grounded = {e.id for e in entities}
        # Keep what the query found only where readable evidence ties it to the question.
        pairs = [(g, f) for g in grounded for f in sorted(found - grounded)]
        facts, comention = _direct_and_comention(pairs, documents, collection_ids)
        if facts or comention:
            answer.method = "cypher"
            answer.facts = facts
            names = _names(found)
            tied = {f["source"] for f in facts} | {f["target"] for f in facts}
            answer.related = [
                {"id": i, "name": names.get(i, i)} for i in sorted(found & (tied | set(names)))
            ]
            chunk_ids |= comention | _stating_chunks(facts, collection_ids)
    if answer.method == "fallback" and entities:
        ids = [e.id for e in entities]
        pairs = [(ids[0], ids[1])] if len(ids) > 1 else []
        facts, comention = _direct_and_comention(pairs, documents, collection_ids)
        answer.facts = facts
        chunk_ids |= comention
        if pairs and not facts:
            path = _shortest_path(ids[0], ids[1], documents)
            if path:
                answer.paths = [path]
        facts_n, related, mention_chunks = _neighbourhood(ids[0], documents, collection_ids)
        answer.facts.extend(f for f in facts_n if f not in answer.facts)
        answer.related = related
        chunk_ids |= mention_chunks
        chunk_ids |= _stating_chunks(
            answer.facts + [s for p in answer.paths for s in p], collection_ids
        )
    answer.chunks, answer.images = _chunks_and_images(chunk_ids, collection_ids)
    return answer
