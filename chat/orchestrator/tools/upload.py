"""Tool `upload_document`: the files attached to the question go into ingestion, through the
same job service as the upload API (staged, then one worker task per file). Progress
reaches the person's open chats as `ingestion_progress` events, which the websocket relays.

Input: {"collection"?: name} (default: the person's upload collection, "uploads-<username>",
created for them on first use). The files are the run's attachments (paths), never paths
from the inputs. Output: {"collection", "jobs": [job id], "files": [{file_name, status,
error}], "queued": int, "skipped": int, "failed": int}.
"""

from pathlib import Path
from typing import Any

from django.db import transaction

from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.registry import ToolError, register
from ingestion.models import Collection, ItemStatus
from ingestion.services import Source, create_job, enqueue

UPLOAD_DIRECTORY = "uploads"


def upload_collection_name(user: Any) -> str:
    return f"uploads-{user.get_username()}"


def _sources(attachments: list[str]) -> list[Source]:
    paths = [Path(p) for p in attachments]
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        raise ToolError(f"These attached files are no longer available: {', '.join(missing)}.")
    return [
        Source(path=p.name, read=p.read_bytes, size=p.stat().st_size, directory=UPLOAD_DIRECTORY)
        for p in paths
    ]


def upload_attachments(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    user = ctx.user
    if user is None or not user.is_authenticated:
        raise ToolError("Sign in to upload documents.")
    if not ctx.attachments:
        raise ToolError("No files are attached: attach the files to upload with the question.")
    sources = _sources(list(ctx.attachments))
    name = str(inputs.get("collection") or "").strip() or upload_collection_name(user)
    with transaction.atomic():
        collection = Collection.objects.filter(name=name).first()
        if collection is None:
            collection = Collection.objects.create(name=name, owner_id=user.pk)
        elif not collection.is_writable_by(user):
            raise ToolError(f"You may not add documents to the collection {name!r}.")
        job = create_job(collection=collection, sources=sources, user=user)
        enqueue(job)  # the tasks are sent once this transaction commits
    items = list(job.items.order_by("pk").values_list("file_name", "status", "error"))
    files = [{"file_name": f, "status": s, "error": e} for f, s, e in items]
    return {
        "collection": collection.name,
        "jobs": [str(job.pk)],
        "files": files,
        "queued": sum(1 for f in files if f["status"] == ItemStatus.QUEUED),
        "skipped": sum(1 for f in files if f["status"] == ItemStatus.SKIPPED),
        "failed": sum(1 for f in files if f["status"] == ItemStatus.FAILED),
    }


@register(
    "upload_document",
    "Ingests the files attached to the question into the person's upload collection; "
    "inputs: collection.",
    timeout_seconds=120,
)
def run(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    return upload_attachments(inputs, ctx)
