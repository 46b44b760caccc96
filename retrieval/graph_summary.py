"""The labels, entity types and relationship types of the part of the graph a reader may
see, with counts (the chat's `graph_schema` tool)."""

from collections.abc import Sequence
from typing import Any

from core.providers import graph

from . import cypher
from .entity_retrieval import readable_document_ids


def graph_summary(collection_ids: Sequence[int]) -> dict[str, Any]:
    """{"nodes": {label: count}, "entity_types": {type: count}, "relationships": {type:
    count}}; the graph driver's errors pass through."""
    collections = list(collection_ids)
    documents = readable_document_ids(collections)
    structure = graph.run_read(cypher.SCHEMA_STRUCTURE_COUNTS, collections=collections)
    sections = graph.run_read(cypher.SCHEMA_SECTION_COUNT, documents=documents)
    entity_types = graph.run_read(cypher.SCHEMA_ENTITY_TYPES, collections=collections)
    relations = graph.run_read(cypher.SCHEMA_RELATION_TYPES, documents=documents)
    links = graph.run_read(cypher.SCHEMA_CHUNK_LINKS, collections=collections)
    mentions = graph.run_read(cypher.SCHEMA_MENTION_COUNT, collections=collections)
    by_type = _counts(entity_types, "label")
    first = structure[0] if structure else {}
    nodes = {
        "Document": int(first.get("documents") or 0),
        "Chunk": int(first.get("chunks") or 0),
        "Section": int(sections[0]["sections"]) if sections else 0,
        "Entity": sum(by_type.values()),
    }
    relationships = {
        **_counts(relations, "type"),
        **_counts(links, "type"),
        "MENTIONS": int(mentions[0]["count"]) if mentions else 0,
    }
    return {
        "nodes": nodes,
        "entity_types": by_type,
        "relationships": {k: v for k, v in relationships.items() if v},
    }


def _counts(rows: Sequence[dict[str, Any]], key: str) -> dict[str, int]:
    counts = {str(r[key]): int(r["count"]) for r in rows if r.get(key) and r.get("count")}
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
