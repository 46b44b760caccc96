"""Jobs: files staged into storage, one task per file, then one final step (`finalize`) for
what spans documents (similarity edges, section types)."""

import hashlib
import itertools
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import files
from .finalize import finalize_job
from .models import Collection, Document, IngestionJob, ItemStatus, JobItem
from .parsers import ParseError, detect_format
from .progress import publish
from .tasks import finalize_job_task, send_batches

log = logging.getLogger(__name__)


# Pictures beside documents in a folder are read through the documents that show them.
ASSET_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".bmp", ".tif", ".tiff"}


@dataclass
class Source:
    """A file to ingest: `path` is what identifies it in its collection ("resumes/a.pdf")."""

    path: str
    read: Callable[[], bytes]
    size: int
    origin_dir: str = ""
    directory: str = ""  # the folder it sat in, when not part of `path`


def sources_from_paths(paths: Iterable[Path]) -> Iterator[Source]:
    """Files named directly keep their name; files found in a folder keep their path below
    it, so that ingesting the same folder again finds the same documents. The paths are
    checked now; the files are listed as they are read, folder by folder, so that a
    folder of any size costs no list of everything in memory."""
    roots = list(paths)
    for root in roots:
        if not root.exists():
            raise FileNotFoundError(f"no such file or folder: {root}")
    return _walk(roots)


def _walk(roots: list[Path]) -> Iterator[Source]:
    for root in roots:
        if root.is_file():
            yield _source(root, root.name, root.resolve().parent.name)
            continue
        directory = root.resolve().name
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for name in sorted(names):
                path = Path(folder) / name
                if name.startswith(".") or path.suffix.lower() in ASSET_SUFFIXES:
                    continue
                yield _source(path, path.relative_to(root).as_posix(), directory)


def _source(path: Path, name: str, directory: str) -> Source:
    return Source(
        path=name,
        read=path.read_bytes,
        size=path.stat().st_size,
        origin_dir=str(path.resolve().parent),
        directory=directory,
    )


def _stage_item(job: IngestionJob, source: Source, existing: Document | None) -> JobItem:
    posix = PurePosixPath(source.path)
    directory = posix.parent.name or source.directory or "uploads"
    item = JobItem(
        job=job,
        file_name=posix.name,
        file_path=source.path,
        directory_name=directory,
        size=source.size,
        origin_dir=source.origin_dir,
    )
    limit = settings.INGESTION_MAX_FILE_MB * 1024 * 1024
    try:
        detect_format(posix.name)
        if source.size > limit:
            raise ParseError(
                f"the file is {source.size / 1048576:.1f} MB, over the limit of "
                f"{settings.INGESTION_MAX_FILE_MB:g} MB (INGESTION_MAX_FILE_MB)"
            )
        data = source.read()
        if not data.strip():
            raise ParseError("the file is empty")
    except ParseError as exc:
        item.status, item.stage, item.error = ItemStatus.FAILED, "failed", str(exc)
        item.finished_at = timezone.now()
        return item
    item.content_hash = hashlib.sha256(data).hexdigest()
    item.size = len(data)
    if existing and existing.content_hash == item.content_hash and existing.graph_synced:
        item.status, item.stage, item.document = ItemStatus.SKIPPED, "skipped", existing
        item.finished_at = timezone.now()
    elif existing and existing.content_hash == item.content_hash:
        item.staged_file = existing.file.name or ""  # only the graph is missing
    else:
        item.staged_file = files.stage(
            collection_id=job.collection_id,
            content_hash=item.content_hash,
            name=posix.name,
            data=data,
        )
    return item


STAGE_BATCH = 500


def create_job(
    *, collection: Collection, sources: Iterable[Source], user: Any = None
) -> IngestionJob:
    """Stage the files (checked, hashed, copied into storage) as a job's items."""
    job = IngestionJob.objects.create(collection=collection, created_by=user, total=0)
    remaining = iter(sources)
    while batch := list(itertools.islice(remaining, STAGE_BATCH)):
        existing = {
            d.file_path: d
            for d in Document.objects.filter(
                collection=collection, file_path__in=[s.path for s in batch]
            )
        }
        JobItem.objects.bulk_create(_stage_item(job, s, existing.get(s.path)) for s in batch)
        job.total += len(batch)
    job.save(update_fields=["total"])
    return job


def enqueue(job: IngestionJob) -> None:
    """Send the job's files to the workers once the staging transaction has committed."""

    def send() -> None:
        if not send_batches(job.pk):
            finalize_job_task.delay(str(job.pk))

    transaction.on_commit(send)
    publish(job)


def run_in_process(job: IngestionJob, *, on_batch: Callable[[], None] | None = None) -> None:
    """Process the job here, batch after batch, then its final step (no worker needed)."""
    from .pipeline import run_job_here

    run_job_here(job.pk, on_batch=on_batch)
    finalize_job(job.pk)
