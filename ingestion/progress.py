"""Progress events for a job's owner, pushed to the Channels group "user.<id>" (the chat
websocket relays them) with the type "ingestion.progress"."""

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .models import IngestionJob, JobItem

log = logging.getLogger(__name__)


def job_payload(job: IngestionJob) -> dict[str, Any]:
    return {
        "job": str(job.pk),
        "collection": job.collection_id,
        "status": job.status,
        "progress": job.progress(),
        "total": job.total,
        "counts": job.counts(),
        "throughput": job.throughput(),
    }


def item_payload(item: JobItem) -> dict[str, Any]:
    return {
        "id": item.pk,
        "file_path": item.file_path,
        "status": item.status,
        "stage": item.stage,
        "error": item.error,
        "document": str(item.document_id) if item.document_id else None,
    }


def publish(job: IngestionJob, item: JobItem | None = None, stage: str = "") -> None:
    """The job's figures; with the file that just failed, or the stage a batch reached."""
    if job.created_by_id is None:
        return
    event: dict[str, Any] = {"type": "ingestion.progress", **job_payload(job)}
    if item is not None:
        event["item"] = item_payload(item)
    if stage:
        event["stage"] = stage
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(f"user.{job.created_by_id}", event)
    except Exception:
        log.warning("could not publish ingestion progress for job %s", job.pk, exc_info=True)
