"""A batch of a job's files, from stored bytes to rows in PostgreSQL and nodes in the graph.

Files are parsed one by one; their chunks then go through each stage together (one model
pass, one recognizer pass, one transaction, a few graph statements), a group at a time, so
memory stays bounded however large the batch. Every file ends done or failed with its
reason; a retry or a restarted worker repeats the same steps and reaches the same state."""

import contextlib
import ctypes
import hashlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.conf import settings
from django.db import reset_queries
from django.db.models import F
from django.utils import timezone

from . import files
from .claims import claim_batch, fail_item, mark_stage, release_items, transient_errors
from .deletion import delete_items
from .embedding import embed_batch
from .entities import ChunkInput, extract_entities_many
from .graph_writer import write_documents_graph
from .keywords import extract_keywords
from .models import Document, ItemStatus, JobItem
from .models.jobs import JobKind
from .parsers import ParseError
from .prepared import Prepared, prepare
from .progress import publish
from .saving import save_documents

log = logging.getLogger(__name__)

STAGES = ("parsing", "embedding", "entities", "saving", "graph")


@dataclass
class Clock:
    """Seconds per stage of a group, shared among its files by their chunks."""

    items: list[JobItem]
    seconds: dict[str, float] = field(default_factory=dict)
    _stage: str = ""
    _started: float = 0.0

    def stage(self, name: str) -> None:
        self.stop()
        self._stage, self._started = name, time.perf_counter()
        mark_stage(self.items, name)

    def stop(self) -> None:
        if self._stage:
            elapsed = time.perf_counter() - self._started
            self.seconds[self._stage] = self.seconds.get(self._stage, 0.0) + elapsed
        self._stage = ""


def run_batch(job_id: object, *, give_up: bool = False) -> int:
    """Claim a batch of the job's files and process it; returns how many were claimed.
    A passing trouble puts the files back in the queue (or fails them when `give_up`)."""
    items = claim_batch(job_id)
    if not items:
        return 0
    # With DEBUG on, Django logs every query of the process (multi-row inserts of vectors
    # are megabytes each): a long job would grow without bound. Keep one batch's.
    reset_queries()
    try:
        try:
            _process(items)
        except transient_errors():
            raise
        except Exception as exc:
            # Not a passing trouble, nor the database's verdict on one file: find the file.
            log.exception("a batch of %d files failed", len(items))
            if len(items) == 1:
                fail_item(items[0], f"{type(exc).__name__}: {exc}")
            for item in _unfinished(items) if len(items) > 1 else []:
                _process_alone(item)
    except transient_errors() as exc:
        if not give_up:
            release_items(_unfinished(items))
            raise
        for item in _unfinished(items):
            fail_item(item, f"gave up after {item.attempts} attempts: {exc}")
    finally:
        _return_freed_memory()
    return len(items)


def _return_freed_memory() -> None:
    """Hand the memory a batch freed back to the system. The model's, the recognizer's and
    the drivers' buffers differ in size from batch to batch, and glibc keeps the holes they
    leave: without this a worker's resident memory crept from 826 to 1,052 MiB over 90
    batches of short passages; with it, it held at 835 MiB."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to trim this way
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _process(items: list[JobItem]) -> None:
    if items[0].job.kind == JobKind.DELETE:
        delete_items(items)
    else:
        process_items(items)


def _process_alone(item: JobItem) -> None:
    try:
        _process([item])
    except transient_errors():
        raise
    except Exception as exc:
        log.exception("%s failed", item.file_path)
        fail_item(item, f"{type(exc).__name__}: {exc}")


def _unfinished(items: list[JobItem]) -> list[JobItem]:
    statuses = dict(
        JobItem.objects.filter(pk__in=[i.pk for i in items]).values_list("pk", "status")
    )
    return [i for i in items if statuses.get(i.pk) == ItemStatus.PROCESSING]


def process_items(items: list[JobItem]) -> None:
    mark_stage(items, "parsing")
    for group, parsing in _groups(items):
        _process_group(group, parsing)


Group = list[tuple[JobItem, Prepared | Document]]


def _groups(items: list[JobItem]) -> Iterator[tuple[Group, float]]:
    """The claimed files parsed, in groups of about INGESTION_BATCH_CHUNKS chunks, with the
    seconds parsing took. A file whose document holds this very content needs only its
    graph written."""
    started = time.perf_counter()
    existing = {
        d.file_path: d
        for d in Document.objects.filter(
            collection_id=items[0].job.collection_id,
            file_path__in=[i.file_path for i in items],
        )
    }
    group: Group = []
    chunks = 0
    for item in items:
        document = existing.get(item.file_path)
        if document is not None and document.content_hash == item.content_hash:
            group.append((item, document))
            continue
        try:
            data = files.read(item.staged_file)
            if hashlib.sha256(data).hexdigest() != item.content_hash:
                raise ParseError("the stored copy of the file does not match what was sent")
            prepared = prepare(data, file_name=item.file_name)
        except ParseError as exc:
            fail_item(item, str(exc))
            continue
        group.append((item, prepared))
        chunks += len(prepared.chunks)
        if chunks >= settings.INGESTION_BATCH_CHUNKS:
            yield group, time.perf_counter() - started
            group, chunks = [], 0
            started = time.perf_counter()
    if group:
        yield group, time.perf_counter() - started


def _process_group(group: Group, parsing: float) -> None:
    clock = Clock([item for item, _ in group], {"parsing": parsing})
    new = [(item, p) for item, p in group if isinstance(p, Prepared)]
    clock.stage("embedding")
    embed_batch([p for _, p in new])
    clock.stage("entities")
    extract(new)
    clock.stage("saving")
    written = [(item, d) for item, d in group if isinstance(d, Document)]
    replaced: list[str] = []
    for saved in save_documents(new):
        if saved.document is None:
            clock.items.remove(saved.item)
            fail_item(saved.item, saved.error)
        else:
            written.append((saved.item, saved.document))
            replaced += [saved.old_file] if saved.old_file else []
    clock.stage("graph")
    documents = [d for _, d in written]
    edges = write_documents_graph(documents)
    Document.objects.filter(pk__in=[d.pk for d in documents]).update(graph_hash=F("content_hash"))
    clock.stop()
    _finish(written, edges, clock)
    for name in replaced:
        files.delete(name)


def extract(batch: list[tuple[JobItem, Prepared]]) -> None:
    """Entities and relations of every file, then each chunk's keywords."""
    extractions = extract_entities_many(
        [
            (
                p.parsed.title,
                [ChunkInput(c.index, c.text, c.header_text, c.header_path) for c in p.chunks],
                item.file_name,
            )
            for item, p in batch
        ]
    )
    for (_, prepared), extraction in zip(batch, extractions, strict=True):
        prepared.extraction = extraction
        names: dict[int, list[str]] = {}
        for entity in extraction.entities.values():
            for mention in entity.mentions:
                names.setdefault(mention.chunk_index, []).append(entity.name)
        prepared.keywords = [
            extract_keywords(c.text, header=c.header_text, names=names.get(c.index, []))
            for c in prepared.chunks
        ]


def _finish(
    written: list[tuple[JobItem, Document]], edges: dict[object, int], clock: Clock
) -> None:
    total_chunks = sum(max(d.chunk_count, 1) for _, d in written) or 1
    now = timezone.now()
    for item, document in written:
        share = max(document.chunk_count, 1) / total_chunks
        timings = {k: v for k, v in (item.timings or {}).items() if k not in STAGES}
        timings.update({k: round(v * share, 4) for k, v in clock.seconds.items()})
        timings["total"] = round(sum(v for k, v in timings.items() if k != "total"), 4)
        item.document = document
        item.status, item.stage, item.error = ItemStatus.DONE, "done", ""
        item.chunk_count = document.chunk_count
        item.section_count = document.section_count
        item.entity_count = document.entity_count
        item.image_count = document.image_count
        item.edge_count = edges.get(document.pk, 0)
        item.timings = timings
        item.finished_at = now
    JobItem.objects.bulk_update(
        [item for item, _ in written],
        [
            "document",
            "status",
            "stage",
            "error",
            "chunk_count",
            "section_count",
            "entity_count",
            "image_count",
            "edge_count",
            "timings",
            "finished_at",
        ],
    )
    if written:
        publish(written[0][0].job)


def run_job_here(job_id: object, on_batch: Callable[[], None] | None = None) -> None:
    """Every queued file of the job, batch after batch, in this process."""
    while run_batch(job_id, give_up=True):
        if on_batch is not None:
            on_batch()
