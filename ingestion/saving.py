"""A batch of prepared files written to PostgreSQL: every document's rows in one transaction
and one multi-row insert per table. A batch that the database refuses is written again file
by file, so a bad file fails alone."""

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.utils import timezone

from . import files
from .chunking import normalize_name
from .entities import Extraction
from .models import (
    Chunk,
    Document,
    Entity,
    EntityMention,
    EntityRelation,
    Image,
    JobItem,
    Section,
    SentenceVector,
)
from .prepared import Prepared

log = logging.getLogger(__name__)

INSERT_BATCH = 2000


@dataclass
class Saved:
    item: JobItem
    document: Document | None = None
    old_file: str = ""  # the replaced version's stored file, to delete once all is written
    error: str = ""


def save_documents(batch: list[tuple[JobItem, Prepared]]) -> list[Saved]:
    """Write the batch; each file ends with its document or the database's reason."""
    if not batch:  # every file of the group was written before (a worker died after it)
        return []
    try:
        return _save(batch)
    except (OperationalError, InterfaceError):
        raise  # the database is away: the whole batch is retried later
    except DatabaseError as exc:
        if len(batch) == 1:
            return [Saved(batch[0][0], error=f"could not be saved: {exc}")]
        log.warning("a batch of %d files was refused (%s); saving them one by one", len(batch), exc)
    return [saved for pair in batch for saved in save_documents([pair])]


def _save(batch: list[tuple[JobItem, Prepared]]) -> list[Saved]:
    job = batch[0][0].job
    paths = [item.file_path for item, _ in batch]
    results: list[Saved] = []
    images: dict[uuid.UUID, list[tuple[int, str, str, str]]] = {}
    try:
        with transaction.atomic():
            existing = {
                d.file_path: d
                for d in Document.objects.select_for_update().filter(
                    collection_id=job.collection_id, file_path__in=paths
                )
            }
            old_entities = _clear_replaced(list(existing.values()))
            documents = []
            for item, prepared in batch:
                document = existing.get(item.file_path) or Document(
                    collection_id=job.collection_id, file_path=item.file_path
                )
                old_file = document.file.name or ""
                images[document.pk] = _store_images(prepared, document.pk, item.origin_dir)
                _fill_document(document, item, prepared, len(images[document.pk]))
                documents.append(document)
                changed = old_file if old_file != document.file.name else ""
                results.append(Saved(item, document, changed))
            new = [d for d in documents if d.file_path not in existing]
            Document.objects.bulk_create(new, batch_size=INSERT_BATCH)
            for document in documents:
                if document.file_path in existing:
                    document.save()
            _save_contents(documents, [p for _, p in batch], images)
            Entity.objects.filter(pk__in=old_entities, mentions__isnull=True).delete()
    except BaseException:
        for stored in images.values():
            for _, name, _, _ in stored:
                files.delete(name)
        raise
    return results


def _clear_replaced(documents: list[Document]) -> set[int]:
    """Remove the rows of documents about to be replaced; returns the entities they named."""
    if not documents:
        return set()
    old = set(
        EntityMention.objects.filter(document__in=documents).values_list("entity_id", flat=True)
    )
    Image.objects.filter(document__in=documents).delete()
    EntityRelation.objects.filter(document__in=documents).delete()
    Chunk.objects.filter(document__in=documents).delete()
    Section.objects.filter(document__in=documents).delete()
    return old


def _save_contents(
    documents: list[Document],
    prepared: list[Prepared],
    images: dict[uuid.UUID, list[tuple[int, str, str, str]]],
) -> None:
    sections = [_sections(d, p) for d, p in zip(documents, prepared, strict=True)]
    Section.objects.bulk_create(
        [s for by_position in sections for s in by_position.values()], batch_size=INSERT_BATCH
    )
    chunks = [_chunks(d, p, s) for d, p, s in zip(documents, prepared, sections, strict=True)]
    Chunk.objects.bulk_create([c for group in chunks for c in group], batch_size=INSERT_BATCH)
    SentenceVector.objects.bulk_create(
        (
            SentenceVector(chunk=chunk, text=text, embedding=vector)
            for p, group in zip(prepared, chunks, strict=True)
            for chunk, sentences in zip(group, p.sentences, strict=True)
            for text, vector in sentences
        ),
        batch_size=INSERT_BATCH,
    )
    Image.objects.bulk_create(
        (
            Image(
                document=document,
                chunk=group[index],
                file=name,
                source=source,
                caption=caption,
                page=group[index].page,
                position=n,
            )
            for document, group in zip(documents, chunks, strict=True)
            for n, (index, name, source, caption) in enumerate(images[document.pk])
        ),
        batch_size=INSERT_BATCH,
    )
    _save_entities(list(zip(documents, prepared, chunks, strict=True)))


def _fill_document(document: Document, item: JobItem, prepared: Prepared, images: int) -> None:
    parsed = prepared.parsed
    document.file.name = item.staged_file
    document.file_name = item.file_name
    document.directory_name = item.directory_name
    document.content_hash = item.content_hash
    document.size = item.size
    document.format = parsed.format
    document.title = parsed.title[:500]
    document.page_count = parsed.page_count
    document.chunk_count = len(prepared.chunks)
    document.section_count = len(prepared.sections)
    document.entity_count = len(prepared.extraction.entities)
    document.relation_count = len(prepared.extraction.relations)
    document.image_count = images
    document.uploaded_by = item.job.created_by
    document.graph_hash = ""
    document.ingested_at = timezone.now()


def _sections(document: Document, prepared: Prepared) -> dict[int, Section]:
    by_position: dict[int, Section] = {}
    for draft, vector in zip(prepared.sections, prepared.section_vectors, strict=True):
        by_position[draft.position] = Section(
            document=document,
            collection_id=document.collection_id,
            parent=by_position.get(draft.parent) if draft.parent is not None else None,
            name=draft.name[:500],
            normalized_name=normalize_name(draft.name)[:500],
            level=draft.level,
            path=draft.path,
            parent_path=draft.parent_path,
            position=draft.position,
            chunk_count=len(draft.chunk_indexes),
            start_chunk_index=draft.start_chunk_index,
            end_chunk_index=draft.end_chunk_index,
            embedding=vector,
        )
    return by_position


def _chunks(document: Document, prepared: Prepared, sections: dict[int, Section]) -> list[Chunk]:
    return [
        Chunk(
            collection_id=document.collection_id,
            document=document,
            section=sections.get(draft.section) if draft.section is not None else None,
            index=draft.index,
            text=draft.text,
            token_count=draft.token_count,
            header_text=draft.header_text[:500],
            header_path=draft.header_path,
            header_level=draft.header_level,
            page=draft.page,
            page_end=draft.page_end,
            keywords=[k[:100] for k in keywords],
            embedding=vector,
        )
        for draft, vector, keywords in zip(
            prepared.chunks, prepared.chunk_vectors, prepared.keywords, strict=True
        )
    ]


def _save_entities(rows: list[tuple[Document, Prepared, list[Chunk]]]) -> None:
    extracted: dict[str, set[str]] = {}
    entities: dict[str, Entity] = {}
    for _, prepared, _ in rows:
        for key, e in prepared.extraction.entities.items():
            extracted.setdefault(key, set()).update(e.aliases)
            entities.setdefault(
                key,
                Entity(
                    graph_id=key,
                    name=e.name[:300],
                    type=e.type,
                    aliases=sorted(e.aliases),
                    search_names=" | ".join([e.name, *sorted(e.aliases)]),
                ),
            )
    # Sorted, so that two workers inserting the same entities lock them in the same order.
    Entity.objects.bulk_create(
        [entities[k] for k in sorted(entities)], ignore_conflicts=True, batch_size=INSERT_BATCH
    )
    stored = Entity.objects.in_bulk(sorted(extracted), field_name="graph_id")
    changed = []
    for key, entity in stored.items():
        aliases = set(entity.aliases) | extracted[key]
        if aliases != set(entity.aliases):
            entity.aliases = sorted(a[:300] for a in aliases)
            changed.append(entity)
    Entity.objects.bulk_update(changed, ["aliases"], batch_size=INSERT_BATCH)
    EntityMention.objects.bulk_create(_mentions(rows, stored), batch_size=INSERT_BATCH)
    EntityRelation.objects.bulk_create(
        (
            EntityRelation(
                source=stored[r.source],
                target=stored[r.target],
                type=r.type,
                properties=r.properties,
                confidence=r.confidence,
                document=document,
                chunk=chunks[r.chunk_index] if r.chunk_index is not None else None,
            )
            for document, prepared, chunks in rows
            for r in prepared.extraction.relations
        ),
        batch_size=INSERT_BATCH,
    )


def _mentions(
    rows: list[tuple[Document, Prepared, list[Chunk]]], stored: dict[str, Entity]
) -> Iterable[EntityMention]:
    for document, prepared, chunks in rows:
        extraction: Extraction = prepared.extraction
        for key, e in extraction.entities.items():
            for m in e.mentions:
                yield EntityMention(
                    entity=stored[key],
                    chunk=chunks[m.chunk_index],
                    document=document,
                    surface=m.surface[:300],
                    confidence=m.confidence,
                    source=extraction.source,
                )


def _local_picture(origin_dir: str, source: str) -> bytes | None:
    """The bytes of a picture referred to by a relative path beside the original, if any."""
    if not origin_dir or not source or "://" in source or source.startswith(("/", "data:")):
        return None
    base = Path(origin_dir).resolve()
    path = (base / source.split("#")[0].split("?")[0]).resolve()
    limit = settings.INGESTION_MAX_FILE_MB * 1024 * 1024
    if base in path.parents and path.is_file() and path.stat().st_size <= limit:
        return path.read_bytes()
    return None


def _store_images(
    prepared: Prepared, document_id: uuid.UUID, origin_dir: str
) -> list[tuple[int, str, str, str]]:
    """(chunk index, stored name, source, caption) for each picture; bytes inside the file
    or beside it are stored, other references are kept as written."""
    stored = []
    position = 0
    for chunk in prepared.chunks:
        for image in chunk.images:
            name = ""
            data = image.data or _local_picture(origin_dir, image.source)
            if data:
                name = files.save_image(
                    document_id=document_id, position=position, image=image, data=data
                )
            stored.append((chunk.index, name, image.source, image.caption))
            position += 1
    return stored
