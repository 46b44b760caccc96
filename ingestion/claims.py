"""Which worker processes which files: a batch is claimed with `SKIP LOCKED`, so any number
of workers on any number of machines share a job without taking a file twice."""

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from . import files
from .models import Document, IngestionJob, ItemStatus, JobItem, JobStatus
from .progress import publish
from .workers import holder_alive, worker_id


def transient_errors() -> tuple[type[Exception], ...]:
    """Troubles that pass (a service restarting, a timeout): worth trying the batch again."""
    import neo4j.exceptions
    import openai
    import redis.exceptions
    from django.db import InterfaceError, OperationalError

    return (
        OperationalError,
        InterfaceError,
        neo4j.exceptions.ServiceUnavailable,
        neo4j.exceptions.SessionExpired,
        neo4j.exceptions.TransientError,
        redis.exceptions.ConnectionError,
        openai.APIConnectionError,
        openai.APITimeoutError,
        openai.RateLimitError,
        openai.InternalServerError,
        ConnectionError,
        TimeoutError,
    )


def requeue_abandoned(job_id: Any) -> list[int]:
    """Files held by a worker that died (its process gone, or silent for too long) go back
    in the queue; returns their ids."""
    abandoned = [
        (pk, holder)
        for pk, holder, heartbeat in JobItem.objects.filter(
            job_id=job_id, status=ItemStatus.PROCESSING
        ).values_list("pk", "worker", "heartbeat_at")
        if not holder_alive(holder, heartbeat)
    ]
    requeued = []
    for pk, holder in abandoned:
        # Still held by the dead holder: another process may have taken it up meanwhile.
        if JobItem.objects.filter(pk=pk, status=ItemStatus.PROCESSING, worker=holder).update(
            status=ItemStatus.QUEUED, worker=""
        ):
            requeued.append(pk)
    return requeued


def claim_batch(job_id: Any, limit: int | None = None) -> list[JobItem]:
    """Up to `limit` queued files of the job, now held by this process."""
    limit = limit or settings.INGESTION_BATCH_FILES
    requeue_abandoned(job_id)
    now = timezone.now()
    with transaction.atomic():
        ids = list(
            JobItem.objects.select_for_update(skip_locked=True)
            .filter(job_id=job_id, status=ItemStatus.QUEUED)
            .order_by("pk")
            .values_list("pk", flat=True)[:limit]
        )
        if not ids:
            return []
        JobItem.objects.filter(pk__in=ids).update(
            status=ItemStatus.PROCESSING,
            worker=worker_id(),
            attempts=F("attempts") + 1,
            heartbeat_at=now,
            started_at=Coalesce("started_at", now),
        )
        IngestionJob.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(
            status=JobStatus.RUNNING, started_at=now
        )
    return list(JobItem.objects.filter(pk__in=ids).select_related("job").order_by("pk"))


def release_items(items: Iterable[JobItem]) -> None:
    """Put back in the queue the files this process holds and did not finish."""
    JobItem.objects.filter(
        pk__in=[i.pk for i in items], status=ItemStatus.PROCESSING, worker=worker_id()
    ).update(status=ItemStatus.QUEUED, worker="")


def mark_stage(items: list[JobItem], stage: str) -> None:
    """Record the stage the batch reached; it is also the holder's heartbeat."""
    now = timezone.now()
    for item in items:
        item.stage, item.heartbeat_at = stage, now
    JobItem.objects.filter(pk__in=[i.pk for i in items], status=ItemStatus.PROCESSING).update(
        stage=stage, heartbeat_at=now
    )
    if items:
        publish(items[0].job, stage=stage)


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
