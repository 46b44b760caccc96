"""upload_document: the run's attachments go through the ingestion job service to a real
Celery worker, into the person's upload collection, with progress on their channel group;
bad attachments and collections they may not write to are refused, and nothing is staged."""

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import DEFAULT_CHANNEL_LAYER, BaseChannelLayer, channel_layers
from django.contrib.auth.models import AnonymousUser
from pytest_django.fixtures import Settings

from chat.orchestrator.tools.documents import search_documents
from chat.orchestrator.tools.registry import ToolError
from chat.orchestrator.tools.upload import upload_attachments, upload_collection_name
from ingestion.documents import delete_document
from ingestion.models import Collection, Document, IngestionJob

from ..ingestion import samples
from .tool_fixtures import context

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def uploader(django_user_model: Any, settings: Settings) -> Iterator[Any]:
    # Files are staged where the worker process reads them (another test may have moved
    # MEDIA_ROOT of this process to a temporary folder).
    settings.MEDIA_ROOT = os.environ.get("MEDIA_ROOT", str(settings.VAR_DIR / "media"))
    user = django_user_model.objects.create_user("chat-uploader", password="pw")
    yield user
    for document in Document.objects.filter(collection__owner=user):
        delete_document(document)  # the graph is not flushed with the tables


def files(tmp_path: Path, **contents: bytes) -> list[str]:
    paths = []
    for name, data in contents.items():
        path = tmp_path / name.replace("__", ".")
        path.write_bytes(data)
        paths.append(str(path))
    return paths


def wait_for(job_id: str, timeout: float = 240) -> IngestionJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = IngestionJob.objects.get(pk=job_id)
        if job.status in ("done", "failed"):
            return job
        time.sleep(0.5)
    raise AssertionError(f"job {job_id} did not finish")


def progress_events(layer: BaseChannelLayer, channel: str, timeout: float = 10) -> list[Any]:
    async def collect() -> list[Any]:
        events: list[Any] = []
        while True:
            try:
                event = await asyncio.wait_for(layer.receive(channel), timeout)
            except TimeoutError:
                return events
            events.append(event)
            if event.get("status") == "done" and "item" not in event:
                return events

    return async_to_sync(collect)()


def test_attachments_are_ingested_into_the_persons_upload_collection(
    celery_worker: str, uploader: Any, tmp_path: Path
) -> None:
    # The progress bar's source: events on the person's group, which the websocket relays.
    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(f"user.{uploader.pk}", channel)
    attachments = files(tmp_path, alexis__md=samples.ALEXIS_MD.encode(),
                        notes__exe=b"MZ not a document")  # fmt: skip
    ctx, _ = context(uploader, "Please add these files", attachments=attachments)

    out = upload_attachments({}, ctx)

    name = upload_collection_name(uploader)
    assert name == "uploads-chat-uploader" and out["collection"] == name
    assert out["queued"] == 1 and out["failed"] == 1 and out["skipped"] == 0
    by_name = {f["file_name"]: f for f in out["files"]}
    assert by_name["alexis.md"]["status"] == "queued"
    assert by_name["notes.exe"]["status"] == "failed" and by_name["notes.exe"]["error"]
    job = wait_for(out["jobs"][0])
    assert job.status == "done"
    collection = Collection.objects.get(name=name)
    assert collection.owner == uploader
    document = Document.objects.get(collection=collection)
    assert (document.file_name, document.file_path, document.directory_name) == (
        "alexis.md",
        "alexis.md",
        "uploads",
    )
    events = progress_events(layer, channel)
    assert events and events[-1]["status"] == "done" and events[-1]["job"] == out["jobs"][0]
    # The person can search what they uploaded.
    found = search_documents({"query": "Who designed the billing platform on Kubernetes?"}, ctx)
    assert found["results"][0]["file_name"] == "alexis.md"

    # The same file again is recognised as unchanged.
    again = upload_attachments({}, ctx)
    assert again["skipped"] == 1 and again["collection"] == name


def test_nothing_to_upload_or_a_vanished_file_is_refused(uploader: Any, tmp_path: Path) -> None:
    ctx, _ = context(uploader, "upload this")
    with pytest.raises(ToolError, match="No files are attached"):
        upload_attachments({}, ctx)
    present = files(tmp_path, a__md=b"# A\n\nSome text about cranes.")
    gone = str(tmp_path / "gone.pdf")
    ctx, _ = context(uploader, "upload this", attachments=[*present, gone])
    with pytest.raises(ToolError, match=r"no longer available: gone\.pdf\."):
        upload_attachments({}, ctx)
    assert not IngestionJob.objects.exists()
    assert not Collection.objects.filter(name=upload_collection_name(uploader)).exists()


def test_a_collection_the_person_may_not_write_to_is_refused(
    uploader: Any, django_user_model: Any, tmp_path: Path
) -> None:
    owner = django_user_model.objects.create_user("someone-else", password="pw")
    theirs = Collection.objects.create(name="their-docs", owner=owner)
    theirs.readers.add(uploader)
    ctx, _ = context(uploader, "upload", attachments=files(tmp_path, a__md=b"# A\n\nText."))
    with pytest.raises(ToolError, match="You may not add documents to the collection 'their-docs'"):
        upload_attachments({"collection": "their-docs"}, ctx)
    assert not IngestionJob.objects.exists()
    ctx, _ = context(AnonymousUser(), "upload", attachments=files(tmp_path, b__md=b"# B\n\nText."))
    with pytest.raises(ToolError, match=r"Sign in to upload documents\."):
        upload_attachments({}, ctx)
