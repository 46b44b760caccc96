"""The graph side of a document, written from its PostgreSQL rows (the source of truth),
so that rewriting it is always possible and always gives the same result."""

from collections import defaultdict
from itertools import pairwise
from typing import Any

from core.providers import graph

from . import cypher
from .models import Chunk, Document, EntityMention, EntityRelation, Image, Section

BATCH = 200


def _batched(query: Any, key: str, rows: list[Any], **params: Any) -> None:
    for start in range(0, len(rows), BATCH):
        graph.run_write(query, **{key: rows[start : start + BATCH]}, **params)


def delete_document_graph(document_id: str) -> list[str]:
    """Remove the document's chunks, sections, images and stated relations; returns the
    ids of the entities it mentioned, for the orphan check once the new version is in."""
    entity_ids = [
        r["id"] for r in graph.run_read(cypher.DOCUMENT_ENTITY_IDS, document_id=document_id)
    ]
    graph.run_write(cypher.DELETE_DOCUMENT_RELATIONS, document_id=document_id)
    graph.run_write(cypher.DELETE_DOCUMENT_IMAGES, document_id=document_id)
    graph.run_write(cypher.DELETE_DOCUMENT_SECTIONS, document_id=document_id)
    graph.run_write(cypher.DELETE_DOCUMENT_CHUNKS, document_id=document_id)
    return entity_ids


def delete_orphan_entities(entity_ids: list[str]) -> int:
    deleted = 0
    for start in range(0, len(entity_ids), BATCH):
        rows = graph.run_write(cypher.DELETE_ORPHAN_ENTITIES, ids=entity_ids[start : start + BATCH])
        deleted += int(rows[0]["deleted"]) if rows else 0
    return deleted


def remove_document(document_id: str) -> None:
    entity_ids = delete_document_graph(document_id)
    graph.run_write(cypher.DELETE_DOCUMENT_NODE, document_id=document_id)
    delete_orphan_entities(entity_ids)


def write_document_graph(document: Document) -> int:
    """Replace the document's subgraph; returns the number of relationships written."""
    doc_id = str(document.pk)
    old_entities = delete_document_graph(doc_id)
    graph.run_write(
        cypher.MERGE_DOCUMENT,
        document_id=doc_id,
        props={
            "file_id": doc_id,
            "file_name": document.file_name,
            "file_path": document.file_path,
            "directory_name": document.directory_name,
            "collection_id": document.collection_id,
            "title": document.title,
            "format": document.format,
            "content_hash": document.content_hash,
        },
    )
    edges = 0
    chunks = list(Chunk.objects.filter(document=document).order_by("index"))
    rows = [
        {
            "id": str(c.pk),
            "document_id": doc_id,
            "collection_id": document.collection_id,
            "chunk_index": c.index,
            "text": c.text,
            "keywords": list(c.keywords),
            "header_text": c.header_text,
            "header_path": c.header_path,
            "header_level": c.header_level,
            "page": c.page,
            "token_count": c.token_count,
            "file_name": document.file_name,
        }
        for c in chunks
    ]
    _batched(cypher.MERGE_CHUNKS, "rows", rows, document_id=doc_id)
    pairs = [{"previous": str(a.pk), "next": str(b.pk)} for a, b in pairwise(chunks)]
    _batched(cypher.LINK_CHUNK_SEQUENCE, "pairs", pairs)
    edges += len(chunks) + 2 * len(pairs)

    sections = list(Section.objects.filter(document=document).order_by("position"))
    section_rows = [
        {
            "id": str(s.pk),
            "file_id": doc_id,
            "document_id": doc_id,
            "collection_id": document.collection_id,
            "name": s.name,
            "normalized_name": s.normalized_name,
            "level": s.level,
            "path": s.path,
            "parent_path": s.parent_path,
            "chunk_count": s.chunk_count,
            "start_chunk_idx": s.start_chunk_index,
            "end_chunk_idx": s.end_chunk_index,
            "embedding": [float(x) for x in s.embedding],
        }
        for s in sections
    ]
    _batched(cypher.MERGE_SECTIONS, "rows", section_rows, document_id=doc_id)
    parents = [{"parent": str(s.parent_id), "child": str(s.pk)} for s in sections if s.parent_id]
    _batched(cypher.LINK_SECTION_PARENTS, "pairs", parents)
    in_section = [
        {"section": str(c.section_id), "chunk": str(c.pk)} for c in chunks if c.section_id
    ]
    _batched(cypher.LINK_SECTION_CHUNKS, "pairs", in_section)
    edges += len(sections) + len(parents) + len(in_section)

    mentions = list(EntityMention.objects.filter(document=document).select_related("entity"))
    by_label: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for m in mentions:
        e = m.entity
        by_label[e.type][e.graph_id] = {
            "id": e.graph_id,
            "name": e.name,
            "type": e.type,
            "normalized_name": e.name.lower(),
            "aliases": list(e.aliases),
        }
    for label, entities in by_label.items():
        _batched(cypher.merge_entities(label), "rows", list(entities.values()))
    mention_rows = [
        {
            "chunk": str(m.chunk_id),
            "entity": m.entity.graph_id,
            "confidence": m.confidence,
            "source": m.source,
            "surface": m.surface,
        }
        for m in mentions
    ]
    _batched(cypher.MERGE_MENTIONS, "rows", mention_rows)
    edges += len(mention_rows)

    relations = EntityRelation.objects.filter(document=document).select_related("source", "target")
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in relations:
        props = {
            **{k: v for k, v in r.properties.items() if isinstance(v, str | int | float)},
            "confidence": r.confidence,
            "extraction_source": mentions[0].source if mentions else "",
        }
        by_type[r.type].append(
            {
                "source": r.source.graph_id,
                "target": r.target.graph_id,
                "document_id": doc_id,
                "props": props,
            }
        )
    for relation_type, relation_rows in by_type.items():
        _batched(cypher.merge_relations(relation_type), "rows", relation_rows)
        edges += len(relation_rows)

    image_rows = [
        {
            "id": str(i.pk),
            "document_id": doc_id,
            "collection_id": document.collection_id,
            "chunk_id": str(i.chunk_id),
            "path": i.stored_path,
            "caption": i.caption,
            "page": i.page,
        }
        for i in Image.objects.filter(document=document, chunk__isnull=False)
    ]
    _batched(cypher.MERGE_IMAGES, "rows", image_rows)
    edges += len(image_rows)

    current = {m.entity.graph_id for m in mentions}
    delete_orphan_entities([e for e in old_entities if e not in current])
    return edges
