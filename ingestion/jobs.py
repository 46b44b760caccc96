"""Jobs: files staged into storage, one task per file, then one final step (`finalize`) for
what spans documents (similarity edges, section types)."""

import hashlib
import logging
from collections.abc import Callable, Iterable
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
from .tasks import finalize_job_task, process_item

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


def sources_from_paths(paths: Iterable[Path]) -> list[Source]:
    """Files named directly keep their name; files found in a folder keep their path below
    it, so that ingesting the same folder again finds the same documents."""
    found: list[Source] = []
    for root in paths:
        if root.is_file():
            found.append(_source(root, root.name, root.resolve().parent.name))
        elif root.is_dir():
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                if path.suffix.lower() in ASSET_SUFFIXES:
                    continue
                if not any(part.startswith(".") for part in path.relative_to(root).parts):
                    found.append(
                        _source(path, path.relative_to(root).as_posix(), root.resolve().name)
                    )
        else:
            raise FileNotFoundError(f"no such file or folder: {root}")
    return found


def _source(path: Path, name: str, directory: str) -> Source:
    return Source(
        path=name,
        read=path.read_bytes,
        size=path.stat().st_size,
        origin_dir=str(path.resolve().parent),
        directory=directory,
    )


def _stage_item(job: IngestionJob, source: Source) -> JobItem:
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
        item.save()
        return item
    item.content_hash = hashlib.sha256(data).hexdigest()
    item.size = len(data)
    existing = Document.objects.filter(collection=job.collection, file_path=source.path).first()
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
    item.save()
    return item


def create_job(*, collection: Collection, sources: list[Source], user: Any = None) -> IngestionJob:
    job = IngestionJob.objects.create(collection=collection, created_by=user, total=len(sources))
    for source in sources:
        _stage_item(job, source)
    return job


def enqueue(job: IngestionJob) -> None:
    """Send the job's files to the workers once the staging transaction has committed."""
    queued = list(job.items.filter(status=ItemStatus.QUEUED).values_list("pk", flat=True))

    def send() -> None:
        for item_id in queued:
            process_item.delay(item_id)
        if not queued:
            finalize_job_task.delay(str(job.pk))

    transaction.on_commit(send)
    publish(job)


def run_in_process(job: IngestionJob, *, on_item: Callable[[JobItem], None] | None = None) -> None:
    """Process the job here, file by file, then its final step (no worker needed)."""
    from .pipeline import fail_item, run_item

    for item_id in job.items.filter(status=ItemStatus.QUEUED).values_list("pk", flat=True):
        try:
            run_item(item_id)
        except Exception as exc:
            # No retries here: the file fails with the reason and the others go on.
            log.exception("ingestion of item %s failed", item_id)
            item = JobItem.objects.get(pk=item_id)
            if not item.is_terminal:
                fail_item(item, f"{type(exc).__name__}: {exc}")
        if on_item is not None:
            on_item(JobItem.objects.get(pk=item_id))
    finalize_job(job.pk)
