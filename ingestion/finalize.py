"""A job's final step, once every file is finished: what spans documents (similarity
edges, section types). One worker at a time holds it."""

from typing import Any

from django.db import transaction
from django.utils import timezone

from .models import IngestionJob, ItemStatus, JobItem, JobStatus
from .models.jobs import TERMINAL, JobKind
from .progress import publish
from .section_types import refresh_section_types
from .similarity import link_similar_chunks
from .workers import holder_alive, worker_id


def all_items_finished(job_id: Any) -> bool:
    return not JobItem.objects.filter(job_id=job_id).exclude(status__in=TERMINAL).exists()


def _claim_job(job_id: Any) -> IngestionJob | None:
    with transaction.atomic():
        job = IngestionJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.is_finished or not all_items_finished(job_id):
            return None
        me = worker_id()
        taken = job.status == JobStatus.FINALIZING and job.worker != me
        if taken and holder_alive(job.worker, job.heartbeat_at):
            return None
        job.status, job.worker, job.heartbeat_at = JobStatus.FINALIZING, me, timezone.now()
        job.started_at = job.started_at or job.heartbeat_at
        job.save()
    return job


def finalize_job(job_id: Any) -> IngestionJob | None:
    job = _claim_job(job_id)
    if job is None:
        return None
    publish(job)
    done = job.items.filter(status=ItemStatus.DONE, document__isnull=False).values("document_id")
    if job.kind == JobKind.DELETE:
        job.section_types = refresh_section_types()
    elif done.exists():
        job.similarity_edges = link_similar_chunks(done)
        job.section_types = refresh_section_types()
    statuses = set(job.items.values_list("status", flat=True))
    job.status = JobStatus.FAILED if statuses == {ItemStatus.FAILED} else JobStatus.DONE
    job.worker = ""
    job.finished_at = timezone.now()
    job.save()
    publish(job)
    return job
