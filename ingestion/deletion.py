"""Removing documents in bulk: a deletion job whose items are the documents, processed in
batches like ingestion (claimed with `SKIP LOCKED`, by any number of workers), with one
section-type recompute at the end instead of one per document.

For each batch the graph goes first, then the rows in one transaction, then the stored
files: a worker killed half-way leaves documents that are still listed and are removed
when the job runs again, never rows whose graph or files are gone unnoticed."""

import time
import uuid
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from . import files
from .claims import mark_stage
from .graph_writer import remove_documents
from .models import (
    Collection,
    Document,
    Entity,
    EntityMention,
    Image,
    IngestionJob,
    ItemStatus,
    JobItem,
)
from .models.jobs import JobKind
from .progress import publish


def create_deletion_job(
    *, collection: Collection, documents: QuerySet[Document], user: Any = None
) -> IngestionJob:
    """A job removing these documents of the collection; nothing is removed yet."""
    job = IngestionJob.objects.create(
        collection=collection, kind=JobKind.DELETE, created_by=user, total=0
    )
    rows = documents.filter(collection=collection).values_list(
        "pk", "file_path", "file_name", "directory_name", "chunk_count"
    )
    total = 0
    batch: list[JobItem] = []
    for pk, path, name, directory, chunks in rows.iterator(chunk_size=2000):
        batch.append(
            JobItem(
                job=job,
                target=pk,
                file_path=path,
                file_name=name,
                directory_name=directory,
                chunk_count=chunks,
            )
        )
        if len(batch) == 2000:
            JobItem.objects.bulk_create(batch)
            total += len(batch)
            batch = []
    JobItem.objects.bulk_create(batch)
    job.total = total + len(batch)
    job.save(update_fields=["total"])
    return job


def delete_items(items: list[JobItem]) -> None:
    """Remove the items' documents everywhere and mark the items done."""
    started = time.perf_counter()
    mark_stage(items, "deleting")
    ids = [item.target for item in items if item.target]
    remove_documents([str(pk) for pk in ids])
    stored = delete_rows(ids)
    for name in stored:
        files.delete(name)
    seconds = round((time.perf_counter() - started) / max(len(items), 1), 4)
    now = timezone.now()
    for item in items:
        item.status, item.stage, item.finished_at = ItemStatus.DONE, "done", now
        item.timings = {"deleting": seconds, "total": seconds}
    JobItem.objects.bulk_update(items, ["status", "stage", "finished_at", "timings"])
    if items:
        publish(items[0].job)


def delete_rows(document_ids: Iterable[uuid.UUID]) -> list[str]:
    """Delete the documents' rows (their chunks, sections, mentions and the rest cascade)
    and the entities only they named; returns the stored files to remove."""
    ids = list(document_ids)
    with transaction.atomic():
        entity_ids = set(
            EntityMention.objects.filter(document_id__in=ids).values_list("entity_id", flat=True)
        )
        stored = [
            name
            for name in [
                *Document.objects.filter(pk__in=ids).values_list("file", flat=True),
                *Image.objects.filter(document_id__in=ids).values_list("file", flat=True),
            ]
            if name
        ]
        Document.objects.filter(pk__in=ids).delete()
        Entity.objects.filter(pk__in=entity_ids, mentions__isnull=True).delete()
    return stored
