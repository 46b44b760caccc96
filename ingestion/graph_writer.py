"""The graph side of documents, written from their PostgreSQL rows (the source of truth), so
that rewriting it is always possible and always gives the same result. Every statement
takes the rows of a whole batch of documents (`UNWIND`), so a batch costs a few round trips
whatever its size."""

from collections import defaultdict
from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from core.providers import graph

from . import cypher
from .models import Chunk, Document, EntityMention, EntityRelation, Image, Section

BATCH = 500


def _batched(query: Any, key: str, rows: list[Any], **params: Any) -> None:
    for start in range(0, len(rows), BATCH):
        graph.run_write(query, **{key: rows[start : start + BATCH]}, **params)


def delete_documents_graph(document_ids: list[str]) -> list[str]:
    """Remove the documents' chunks, sections, images and stated relations; returns the
    ids of the entities they mentioned, for the orphan check once new versions are in."""
    entity_ids: set[str] = set()
    for start in range(0, len(document_ids), BATCH):
        ids = document_ids[start : start + BATCH]
        entity_ids |= {
            r["id"] for r in graph.run_read(cypher.DOCUMENT_ENTITY_IDS, document_ids=ids)
        }
        graph.run_write(cypher.DELETE_DOCUMENT_RELATIONS, document_ids=ids)
        graph.run_write(cypher.DELETE_DOCUMENT_IMAGES, document_ids=ids)
        graph.run_write(cypher.DELETE_DOCUMENT_SECTIONS, document_ids=ids)
        graph.run_write(cypher.DELETE_DOCUMENT_CHUNKS, document_ids=ids)
    return sorted(entity_ids)


def delete_orphan_entities(entity_ids: list[str]) -> int:
    deleted = 0
    for start in range(0, len(entity_ids), BATCH):
        rows = graph.run_write(cypher.DELETE_ORPHAN_ENTITIES, ids=entity_ids[start : start + BATCH])
        deleted += int(rows[0]["deleted"]) if rows else 0
    return deleted


def remove_documents(document_ids: list[str]) -> None:
    entity_ids = delete_documents_graph(document_ids)
    _batched(cypher.DELETE_DOCUMENT_NODES, "document_ids", document_ids)
    delete_orphan_entities(entity_ids)


def write_documents_graph(documents: list[Document]) -> dict[Any, int]:
    """Replace the documents' subgraphs; returns each one's number of relationships."""
    ids = [str(d.pk) for d in documents]
    old_entities = delete_documents_graph(ids)
    edges: dict[Any, int] = defaultdict(int)
    _batched(cypher.MERGE_DOCUMENTS, "rows", [_document_row(d) for d in documents])
    by_id = {d.pk: d for d in documents}

    chunks = list(Chunk.objects.filter(document__in=documents).order_by("document_id", "index"))
    _batched(cypher.MERGE_CHUNKS, "rows", [_chunk_row(c, by_id[c.document_id]) for c in chunks])
    pairs = [(a, b) for a, b in pairwise(chunks) if a.document_id == b.document_id]
    _batched(
        cypher.LINK_CHUNK_SEQUENCE,
        "pairs",
        [{"previous": str(a.pk), "next": str(b.pk)} for a, b in pairs],
    )
    _count(edges, (c.document_id for c in chunks))
    _count(edges, (a.document_id for a, _ in pairs), 2)  # NEXT_CHUNK and PREV_CHUNK

    sections = list(
        Section.objects.filter(document__in=documents).order_by("document_id", "position")
    )
    _batched(cypher.MERGE_SECTIONS, "rows", [_section_row(s) for s in sections])
    parents = [{"parent": str(s.parent_id), "child": str(s.pk)} for s in sections if s.parent_id]
    _batched(cypher.LINK_SECTION_PARENTS, "pairs", parents)
    in_section = [
        {"section": str(c.section_id), "chunk": str(c.pk)} for c in chunks if c.section_id
    ]
    _batched(cypher.LINK_SECTION_CHUNKS, "pairs", in_section)
    _count(edges, (s.document_id for s in sections))
    _count(edges, (s.document_id for s in sections if s.parent_id))
    _count(edges, (c.document_id for c in chunks if c.section_id))

    mentions = list(EntityMention.objects.filter(document__in=documents).select_related("entity"))
    current = _write_entities(mentions)
    _count(edges, (m.document_id for m in mentions))
    _count(edges, _write_relations(documents, mentions))
    _count(edges, _write_images(by_id))
    delete_orphan_entities([e for e in old_entities if e not in current])
    return {d.pk: edges[d.pk] for d in documents}


def _count(edges: dict[Any, int], document_ids: Iterable[Any], weight: int = 1) -> None:
    for document_id in document_ids:
        edges[document_id] += weight


def _document_row(document: Document) -> dict[str, Any]:
    doc_id = str(document.pk)
    return {
        "id": doc_id,
        "file_id": doc_id,
        "file_name": document.file_name,
        "file_path": document.file_path,
        "directory_name": document.directory_name,
        "collection_id": document.collection_id,
        "title": document.title,
        "format": document.format,
        "content_hash": document.content_hash,
    }


def _chunk_row(chunk: Chunk, document: Document) -> dict[str, Any]:
    return {
        "id": str(chunk.pk),
        "document_id": str(document.pk),
        "collection_id": document.collection_id,
        "chunk_index": chunk.index,
        "text": chunk.text,
        "keywords": list(chunk.keywords),
        "header_text": chunk.header_text,
        "header_path": chunk.header_path,
        "header_level": chunk.header_level,
        "page": chunk.page,
        "token_count": chunk.token_count,
        "file_name": document.file_name,
    }


def _section_row(section: Section) -> dict[str, Any]:
    return {
        "id": str(section.pk),
        "file_id": str(section.document_id),
        "document_id": str(section.document_id),
        "collection_id": section.collection_id,
        "name": section.name,
        "normalized_name": section.normalized_name,
        "level": section.level,
        "path": section.path,
        "parent_path": section.parent_path,
        "chunk_count": section.chunk_count,
        "start_chunk_idx": section.start_chunk_index,
        "end_chunk_idx": section.end_chunk_index,
        "embedding": [float(x) for x in section.embedding],
    }


def _write_entities(mentions: list[EntityMention]) -> set[str]:
    """The mentioned entities and MENTIONS edges; returns the entities' ids."""
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
    for label, entities in sorted(by_label.items()):
        _batched(cypher.merge_entities(label), "rows", [entities[k] for k in sorted(entities)])
    rows = [
        {
            "chunk": str(m.chunk_id),
            "entity": m.entity.graph_id,
            "confidence": m.confidence,
            "source": m.source,
            "surface": m.surface,
        }
        for m in mentions
    ]
    _batched(cypher.MERGE_MENTIONS, "rows", rows)
    return {m.entity.graph_id for m in mentions}


def _write_relations(documents: list[Document], mentions: list[EntityMention]) -> list[Any]:
    """The relations the documents state; returns their documents' ids, one per edge."""
    sources = {m.document_id: m.source for m in mentions}
    relations = EntityRelation.objects.filter(document__in=documents).select_related(
        "source", "target"
    )
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    written = []
    for r in relations:
        props = {
            **{k: v for k, v in r.properties.items() if isinstance(v, str | int | float)},
            "confidence": r.confidence,
            "extraction_source": sources.get(r.document_id, ""),
        }
        by_type[r.type].append(
            {
                "source": r.source.graph_id,
                "target": r.target.graph_id,
                "document_id": str(r.document_id),
                "props": props,
            }
        )
        written.append(r.document_id)
    for relation_type, rows in by_type.items():
        _batched(cypher.merge_relations(relation_type), "rows", rows)
    return written


def _write_images(documents: dict[Any, Document]) -> list[Any]:
    images = list(Image.objects.filter(document__in=list(documents), chunk__isnull=False))
    rows = [
        {
            "id": str(i.pk),
            "document_id": str(i.document_id),
            "collection_id": documents[i.document_id].collection_id,
            "chunk_id": str(i.chunk_id),
            "path": i.stored_path,
            "caption": i.caption,
            "page": i.page,
        }
        for i in images
    ]
    _batched(cypher.MERGE_IMAGES, "rows", rows)
    return [i.document_id for i in images]
