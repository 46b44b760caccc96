"""Celery tasks: thin, idempotent, acknowledged late. The pipeline decides what is left to
do from the rows, so a redelivered or duplicated message is harmless. A job is sent as one
message per batch of files; a worker that takes one claims batch after batch (`SKIP
LOCKED`) until none is queued, so any number of workers share a job, and a message finds
nothing left to do once others have drained the job."""

import logging
import math
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_ready
from django.conf import settings

from .claims import requeue_abandoned, transient_errors
from .finalize import all_items_finished, finalize_job
from .models import IngestionJob, ItemStatus, JobItem, JobStatus
from .workers import holder_alive

log = logging.getLogger(__name__)


def _backoff(retries: int) -> int:
    return min(5 * 2**retries, 300)


@shared_task(bind=True, name="ingestion.process_batch", acks_late=True, max_retries=None)
def process_batch(self: Task, job_id: str) -> None:
    from .pipeline import run_batch

    give_up = self.request.retries >= settings.INGESTION_TASK_MAX_RETRIES
    try:
        while run_batch(job_id, give_up=give_up):
            pass
    except transient_errors() as exc:
        log.warning("a batch of job %s failed (%s); retrying", job_id, exc)
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
    if all_items_finished(job_id):
        finalize_job_task.delay(job_id)


def send_batches(job_id: Any) -> int:
    """One message per batch of the job's queued files; returns how many were sent."""
    queued = JobItem.objects.filter(job_id=job_id, status=ItemStatus.QUEUED).count()
    messages = math.ceil(queued / settings.INGESTION_BATCH_FILES)
    for _ in range(messages):
        process_batch.delay(str(job_id))
    return messages


@shared_task(bind=True, name="ingestion.finalize_job", acks_late=True, max_retries=None)
def finalize_job_task(self: Task, job_id: str) -> None:
    try:
        finalize_job(job_id)
    except transient_errors() as exc:
        IngestionJob.objects.filter(pk=job_id).update(worker="")
        if self.request.retries >= settings.INGESTION_TASK_MAX_RETRIES:
            IngestionJob.objects.filter(pk=job_id).update(status="done", error=str(exc)[:2000])
            return
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc


def recover_interrupted() -> tuple[list[int], list[str]]:
    """Files and final steps whose worker died go back in the queue, and every unfinished
    job is sent again (its messages may have been lost with the broker; a message that
    finds nothing queued costs nothing). Returns the files put back and the jobs whose
    final step was sent again."""
    items: list[int] = []
    jobs = []
    for job in IngestionJob.objects.exclude(status__in=[JobStatus.DONE, JobStatus.FAILED]):
        items += requeue_abandoned(job.pk)
        if not all_items_finished(job.pk):
            send_batches(job.pk)
        elif not (
            job.status == JobStatus.FINALIZING and holder_alive(job.worker, job.heartbeat_at)
        ):
            jobs.append(str(job.pk))
            finalize_job_task.delay(str(job.pk))
    return items, jobs


@worker_ready.connect
def _resume_interrupted(**_: Any) -> None:
    """A worker killed mid-batch leaves its files claimed by a dead process: take them up."""
    try:
        items, jobs = recover_interrupted()
    except Exception:
        log.warning("could not look for interrupted ingestion work", exc_info=True)
        return
    if items or jobs:
        log.info("resumed %d interrupted files and %d final steps", len(items), len(jobs))
