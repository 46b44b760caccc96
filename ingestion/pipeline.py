"""One file of a job, from stored bytes to rows in PostgreSQL and nodes in the graph.

Everything is computed before anything is written; PostgreSQL is then replaced in one
transaction and the graph rewritten from it. A retry or a restarted worker repeats the same
steps and reaches the same state."""

import hashlib
import logging
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.providers.embeddings import embed_texts

from . import files
from .chunking import ChunkDraft, SectionDraft, build_chunks, normalize_name
from .entities import ChunkInput, Extraction, extract_entities
from .graph_writer import write_document_graph
from .keywords import extract_keywords
from .models import (
    Chunk,
    Document,
    Entity,
    EntityMention,
    EntityRelation,
    Image,
    IngestionJob,
    ItemStatus,
    JobItem,
    JobStatus,
    Section,
    SentenceVector,
)
from .parsers import ParsedDocument, ParseError, parse_bytes
from .progress import publish
from .sentences import chunk_sentence_inputs
from .workers import holder_alive, worker_id

log = logging.getLogger(__name__)


@dataclass
class Prepared:
    parsed: ParsedDocument
    sections: list[SectionDraft]
    chunks: list[ChunkDraft]
    chunk_vectors: list[list[float]]
    section_vectors: list[list[float]]
    extraction: Extraction
    keywords: list[list[str]]
    images: list[tuple[int, str, str, int | None]] = field(default_factory=list)
    # Per chunk: (embedding input, vector) of each sentence answers may quote.
    sentences: list[list[tuple[str, list[float]]]] = field(default_factory=list)


def claim_item(item_id: int) -> JobItem | None:
    """Take the file unless it is finished or another live worker has it."""
    with transaction.atomic():
        item = JobItem.objects.select_for_update().filter(pk=item_id).first()
        if item is None or item.is_terminal:
            return None
        me = worker_id()
        taken = item.status == ItemStatus.PROCESSING and item.worker != me
        if taken and holder_alive(item.worker, item.heartbeat_at):
            return None
        now = timezone.now()
        item.status = ItemStatus.PROCESSING
        item.worker = me
        item.attempts += 1
        item.heartbeat_at = now
        item.started_at = item.started_at or now
        item.save()
        IngestionJob.objects.filter(pk=item.job_id, status=JobStatus.QUEUED).update(
            status=JobStatus.RUNNING, started_at=now
        )
    return item


def release_item(item_id: int) -> None:
    """Let a retry, in whichever process it lands, take the file again."""
    JobItem.objects.filter(pk=item_id, status=ItemStatus.PROCESSING).update(worker="")


def fail_item(item: JobItem, message: str) -> None:
    item.status = ItemStatus.FAILED
    item.error = message[:2000]
    item.stage = "failed"
    item.worker = ""
    item.finished_at = timezone.now()
    item.save()
    # A file that never made it into a document leaves nothing behind, not even its copy.
    if item.staged_file and not Document.objects.filter(file=item.staged_file).exists():
        files.delete(item.staged_file)
    publish(item.job, item)


def _stage(item: JobItem, stage: str, timings: dict[str, float], started: float) -> float:
    now = time.perf_counter()
    if item.stage in ("parsing", "embedding", "entities", "saving", "graph"):
        timings[item.stage] = round(timings.get(item.stage, 0.0) + now - started, 3)
    item.stage = stage
    item.heartbeat_at = timezone.now()
    item.save(update_fields=["stage", "heartbeat_at"])
    publish(item.job, item)
    return now


def prepare(data: bytes, *, file_name: str) -> Prepared:
    parsed = parse_bytes(data, file_name=file_name)
    sections, chunks = build_chunks(
        parsed.blocks,
        max_tokens=settings.INGESTION_CHUNK_TOKENS,
        overlap=settings.INGESTION_CHUNK_OVERLAP,
    )
    if not chunks:
        raise ParseError("no text found in the file")
    return Prepared(parsed, sections, chunks, [], [], Extraction(source=""), [])


# Chunk texts in small batches (little padding, steady memory), and section names apart:
# short, they would otherwise be padded to the length of the longest chunk.
EMBED_SLICE = 16


def _embed(texts: list[str]) -> list[list[float]]:
    vectors: list[list[float]] = []
    for start in range(0, len(texts), EMBED_SLICE):
        vectors.extend(embed_texts(texts[start : start + EMBED_SLICE]))
    return vectors


def embed_by_length(texts: list[str]) -> list[list[float]]:
    """Sentences vary from three words to a paragraph: batched by length, little padding."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    vectors = _embed([texts[i] for i in order])
    placed: list[list[float]] = [[] for _ in texts]
    for i, vector in zip(order, vectors, strict=True):
        placed[i] = vector
    return placed


def embed(prepared: Prepared) -> None:
    prepared.chunk_vectors = _embed([c.embedding_input() for c in prepared.chunks])
    prepared.section_vectors = _embed([s.name for s in prepared.sections])
    names = {s.position: s.name[:500] for s in prepared.sections}
    inputs = [
        chunk_sentence_inputs(names.get(c.section, "") if c.section is not None else "", c.text)
        for c in prepared.chunks
    ]
    vectors = iter(embed_by_length([text for group in inputs for text in group]))
    prepared.sentences = [[(text, next(vectors)) for text in group] for group in inputs]


def extract(prepared: Prepared, *, file_name: str) -> None:
    inputs = [ChunkInput(c.index, c.text, c.header_text, c.header_path) for c in prepared.chunks]
    prepared.extraction = extract_entities(
        title=prepared.parsed.title, chunks=inputs, file_name=file_name
    )
    names: dict[int, list[str]] = {}
    for entity in prepared.extraction.entities.values():
        for mention in entity.mentions:
            names.setdefault(mention.chunk_index, []).append(entity.name)
    prepared.keywords = [
        extract_keywords(c.text, header=c.header_text, names=names.get(c.index, []))
        for c in prepared.chunks
    ]


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


def save_document(item: JobItem, prepared: Prepared) -> tuple[Document, str]:
    """Replace the document's rows in one transaction; returns it and its previous file."""
    job = item.job
    document = Document.objects.filter(collection=job.collection, file_path=item.file_path).first()
    document_id = document.pk if document else None
    new_document = document is None
    if document is None:
        document = Document(collection=job.collection, file_path=item.file_path)
    images = _store_images(prepared, document.pk, item.origin_dir)
    try:
        with transaction.atomic():
            old_file = ""
            old_entities: list[int] = []
            if document_id is not None:
                document = Document.objects.select_for_update().get(pk=document_id)
                old_file = document.file.name or ""
                old_entities = list(
                    EntityMention.objects.filter(document=document).values_list(
                        "entity_id", flat=True
                    )
                )
                Image.objects.filter(document=document).delete()
                EntityRelation.objects.filter(document=document).delete()
                Chunk.objects.filter(document=document).delete()
                Section.objects.filter(document=document).delete()
            _fill_document(document, item, prepared, len(images))
            document.save()
            sections = _save_sections(document, prepared)
            chunks = _save_chunks(document, prepared, sections)
            SentenceVector.objects.bulk_create(
                SentenceVector(chunk=chunk, text=text, embedding=vector)
                for chunk, group in zip(chunks, prepared.sentences, strict=True)
                for text, vector in group
            )
            Image.objects.bulk_create(
                Image(
                    document=document,
                    chunk=chunks[index],
                    file=name,
                    source=source,
                    caption=caption,
                    page=chunks[index].page,
                    position=n,
                )
                for n, (index, name, source, caption) in enumerate(images)
            )
            _save_entities(document, prepared.extraction, chunks)
            Entity.objects.filter(pk__in=set(old_entities), mentions__isnull=True).delete()
    except BaseException:
        for _, name, _, _ in images:
            files.delete(name)
        if new_document:
            document.pk = None
        raise
    return document, old_file if old_file != document.file.name else ""


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


def _save_sections(document: Document, prepared: Prepared) -> dict[int, Section]:
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
    Section.objects.bulk_create(by_position.values())
    return by_position


def _save_chunks(
    document: Document, prepared: Prepared, sections: dict[int, Section]
) -> list[Chunk]:
    chunks = [
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
    Chunk.objects.bulk_create(chunks)
    return chunks


def _save_entities(document: Document, extraction: Extraction, chunks: list[Chunk]) -> None:
    extracted = extraction.entities
    Entity.objects.bulk_create(
        [
            Entity(
                graph_id=key,
                name=e.name[:300],
                type=e.type,
                aliases=sorted(e.aliases),
                search_names=" | ".join([e.name, *sorted(e.aliases)]),
            )
            for key, e in extracted.items()
        ],
        ignore_conflicts=True,
    )
    stored = Entity.objects.in_bulk(list(extracted), field_name="graph_id")
    for key, entity in stored.items():
        aliases = set(entity.aliases) | extracted[key].aliases
        if aliases != set(entity.aliases):
            entity.aliases = sorted(a[:300] for a in aliases)
            entity.save()
    EntityMention.objects.bulk_create(
        EntityMention(
            entity=stored[key],
            chunk=chunks[m.chunk_index],
            document=document,
            surface=m.surface[:300],
            confidence=m.confidence,
            source=extraction.source,
        )
        for key, e in extracted.items()
        for m in e.mentions
    )
    EntityRelation.objects.bulk_create(
        EntityRelation(
            source=stored[r.source],
            target=stored[r.target],
            type=r.type,
            properties=r.properties,
            confidence=r.confidence,
            document=document,
            chunk=chunks[r.chunk_index] if r.chunk_index is not None else None,
        )
        for r in extraction.relations
    )


def ingest_item(item: JobItem) -> None:
    timings: dict[str, float] = dict(item.timings or {})
    started = time.perf_counter()
    document = Document.objects.filter(
        collection_id=item.job.collection_id, file_path=item.file_path
    ).first()
    old_file = ""
    if document is None or document.content_hash != item.content_hash:
        started = _stage(item, "parsing", timings, started)
        data = files.read(item.staged_file)
        if hashlib.sha256(data).hexdigest() != item.content_hash:
            raise ParseError("the stored copy of the file does not match what was sent")
        prepared = prepare(data, file_name=item.file_name)
        started = _stage(item, "embedding", timings, started)
        embed(prepared)
        started = _stage(item, "entities", timings, started)
        extract(prepared, file_name=item.file_name)
        started = _stage(item, "saving", timings, started)
        document, old_file = save_document(item, prepared)
    started = _stage(item, "graph", timings, started)
    edges = write_document_graph(document)
    Document.objects.filter(pk=document.pk).update(graph_hash=document.content_hash)
    timings["graph"] = round(time.perf_counter() - started, 3)
    timings["total"] = round(sum(v for k, v in timings.items() if k != "total"), 3)
    item.document = document
    item.status = ItemStatus.DONE
    item.stage = "done"
    item.chunk_count = document.chunk_count
    item.section_count = document.section_count
    item.entity_count = document.entity_count
    item.image_count = document.image_count
    item.edge_count = edges
    item.timings = timings
    item.worker = ""
    item.error = ""
    item.finished_at = timezone.now()
    item.save()
    if old_file:
        files.delete(old_file)
    publish(item.job, item)


def run_item(item_id: int) -> bool:
    """Process one file if it is ours to process; returns whether it reached an end
    (done or failed). Errors worth a retry propagate after the claim is released."""
    item = claim_item(item_id)
    if item is None:
        return False
    try:
        ingest_item(item)
    except ParseError as exc:
        fail_item(item, str(exc))
    except Exception:
        release_item(item_id)
        raise
    return True
