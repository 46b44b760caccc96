"""Celery tasks: thin, idempotent, acknowledged late. The pipeline decides what is left to
do from the rows, so a redelivered or duplicated message is harmless."""

import logging
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError

from .finalize import all_items_finished, finalize_job
from .models import IngestionJob, ItemStatus, JobItem, JobStatus
from .workers import holder_alive

log = logging.getLogger(__name__)


def _transient_errors() -> tuple[type[Exception], ...]:
    import neo4j.exceptions
    import openai
    import redis.exceptions

    return (
        OperationalError,
        InterfaceError,
        DatabaseError,
        neo4j.exceptions.ServiceUnavailable,
        neo4j.exceptions.SessionExpired,
        neo4j.exceptions.TransientError,
        neo4j.exceptions.DatabaseError,
        redis.exceptions.ConnectionError,
        openai.APIConnectionError,
        openai.APITimeoutError,
        openai.RateLimitError,
        openai.InternalServerError,
        ConnectionError,
        TimeoutError,
    )


def _backoff(retries: int) -> int:
    return min(5 * 2**retries, 300)


@shared_task(bind=True, name="ingestion.process_item", acks_late=True, max_retries=None)
def process_item(self: Task, item_id: int) -> None:
    from .pipeline import fail_item, run_item

    try:
        finished = run_item(item_id)
    except _transient_errors() as exc:
        if self.request.retries >= settings.INGESTION_TASK_MAX_RETRIES:
            item = JobItem.objects.filter(pk=item_id).first()
            if item is not None:
                fail_item(item, f"gave up after {self.request.retries + 1} attempts: {exc}")
                _finish(item.job_id)
            return
        log.warning("ingestion of item %s failed (%s); retrying", item_id, exc)
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
    except Exception as exc:
        # Not a passing trouble: record it on the file so the job can finish.
        log.exception("ingestion of item %s failed", item_id)
        item = JobItem.objects.filter(pk=item_id).first()
        if item is not None and not item.is_terminal:
            fail_item(item, f"{type(exc).__name__}: {exc}")
            finished = True
        else:
            return
    if finished:
        job_id = JobItem.objects.filter(pk=item_id).values_list("job_id", flat=True).first()
        if job_id is not None:
            _finish(job_id)


def _finish(job_id: Any) -> None:
    if all_items_finished(job_id):
        finalize_job_task.delay(str(job_id))


@shared_task(bind=True, name="ingestion.finalize_job", acks_late=True, max_retries=None)
def finalize_job_task(self: Task, job_id: str) -> None:
    try:
        finalize_job(job_id)
    except _transient_errors() as exc:
        IngestionJob.objects.filter(pk=job_id).update(worker="")
        if self.request.retries >= settings.INGESTION_TASK_MAX_RETRIES:
            IngestionJob.objects.filter(pk=job_id).update(status="done", error=str(exc)[:2000])
            return
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc


def recover_interrupted() -> tuple[list[int], list[str]]:
    """Files and final steps whose worker died: put back in the queue. Returns their ids."""
    items = []
    for item in JobItem.objects.filter(status__in=[ItemStatus.PROCESSING, ItemStatus.QUEUED]):
        if item.status == ItemStatus.PROCESSING and not holder_alive(
            item.worker, item.heartbeat_at
        ):
            JobItem.objects.filter(pk=item.pk).update(worker="")
            items.append(item.pk)
    jobs = []
    for job in IngestionJob.objects.exclude(status__in=[JobStatus.DONE, JobStatus.FAILED]):
        if job.status == JobStatus.FINALIZING and holder_alive(job.worker, job.heartbeat_at):
            continue
        if all_items_finished(job.pk):
            jobs.append(str(job.pk))
    for item_id in items:
        process_item.delay(item_id)
    for job_id in jobs:
        finalize_job_task.delay(job_id)
    return items, jobs


@worker_ready.connect
def _resume_interrupted(**_: Any) -> None:
    """A worker killed mid-file leaves it claimed by a dead process: take it up again."""
    try:
        items, jobs = recover_interrupted()
    except Exception:
        log.warning("could not look for interrupted ingestion work", exc_info=True)
        return
    if items or jobs:
        log.info("resumed %d interrupted files and %d final steps", len(items), len(jobs))
