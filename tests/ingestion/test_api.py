"""Upload through the API, processed by a real Celery worker, followed by polling and by
the progress events on the user's channel group."""

import asyncio
import time
from typing import Any
from urllib.parse import quote

import pytest
from asgiref.sync import async_to_sync
from channels.layers import DEFAULT_CHANNEL_LAYER, BaseChannelLayer, channel_layers
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from core.providers import graph
from ingestion.models import Collection, Document

from . import samples
from .helpers import count

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cleanup_documents")]


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def wait_for_job(client: APIClient, job_id: str, timeout: float = 180) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/api/ingestion/jobs/{job_id}/").json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.5)
    raise AssertionError(f"job {job_id} did not finish: {job}")


def private_layer() -> BaseChannelLayer:
    # The shared layer may already be bound to another test's event loop; receiving needs
    # an instance of its own (it still talks to the same Redis as the worker).
    return channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)


def drain(
    layer: BaseChannelLayer, channel: str, until_status: str = "done", timeout: float = 10
) -> list[dict[str, Any]]:

    async def collect() -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        while True:
            try:
                event = await asyncio.wait_for(layer.receive(channel), timeout)
            except TimeoutError:
                return events
            events.append(event)
            if event.get("status") == until_status and "item" not in event:
                return events

    return async_to_sync(collect)()


def test_upload_poll_list_and_delete(celery_worker: str, django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("uploader", password="pw-123456")
    client = client_for(user)
    layer = private_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(f"user.{user.pk}", channel)

    response = client.post(
        "/api/ingestion/uploads/?collection=team-docs&folder=team/2024",
        {
            "files": [
                SimpleUploadedFile("alexis.md", samples.ALEXIS_MD.encode()),
                SimpleUploadedFile("manual.pdf", samples.pdf_manual()),
                SimpleUploadedFile("broken.pdf", b"%PDF-1.4 nothing here"),
            ],
        },
        format="multipart",
    )
    assert response.status_code == 202, response.content
    job = wait_for_job(client, response.json()["id"])

    assert job["status"] == "done" and job["progress"] == 1.0
    items = {item["file_path"]: item for item in job["items"]}
    assert items["team/2024/alexis.md"]["status"] == "done"
    assert items["team/2024/alexis.md"]["chunk_count"] > 0
    assert set(items["team/2024/alexis.md"]["timings"]) >= {"parsing", "embedding", "graph"}
    assert items["team/2024/broken.pdf"]["status"] == "failed"
    assert "corrupt or unreadable PDF" in items["team/2024/broken.pdf"]["error"]
    assert job["counts"]["done"] == 2 and job["counts"]["failed"] == 1

    events = drain(layer, channel)
    assert {e["type"] for e in events} == {"ingestion.progress"}
    assert events[-1]["status"] == "done" and events[-1]["job"] == job["id"]
    assert {"parsing", "embedding", "graph"} <= {e.get("stage") for e in events}
    failed = [e["item"] for e in events if "item" in e]
    assert [(i["file_path"], i["status"]) for i in failed] == [("team/2024/broken.pdf", "failed")]
    assert events[-1]["throughput"]["files_done"] == 3
    # The socket, the API and `manage.py ingest` give the same figures.
    assert job["throughput"] == events[-1]["throughput"]
    assert job["throughput"]["seconds_left"] == 0.0 and job["throughput"]["chunks_done"] > 0
    progress = [e["progress"] for e in events]
    assert progress == sorted(progress)

    collection = Collection.objects.get(name="team-docs")
    assert collection.owner == user
    listed = client.get("/api/ingestion/documents/", {"collection": "team-docs"}).json()
    assert sorted(d["file_path"] for d in listed["results"]) == [
        "team/2024/alexis.md",
        "team/2024/manual.pdf",
    ]
    pdf = next(d for d in listed["results"] if d["file_path"] == "team/2024/manual.pdf")
    assert pdf["directory_name"] == "2024" and pdf["page_count"] == 2

    stranger_user = django_user_model.objects.create_user("stranger", password="pw-123456")
    stranger = client_for(stranger_user)
    assert stranger.get("/api/ingestion/documents/").json()["results"] == []
    assert stranger.get(f"/api/ingestion/jobs/{job['id']}/").status_code == 404
    refused = stranger.post(
        "/api/ingestion/uploads/?collection=team-docs",
        {"files": [SimpleUploadedFile("x.md", b"# X\n\ntext")]},
        format="multipart",
    )
    assert refused.status_code == 403
    collection.readers.add(stranger_user)
    assert len(stranger.get("/api/ingestion/documents/").json()["results"]) == 2
    assert stranger.delete(f"/api/ingestion/documents/{pdf['id']}/").status_code == 403

    assert client.delete(f"/api/ingestion/documents/{pdf['id']}/").status_code == 204
    assert not Document.objects.filter(pk=pdf["id"]).exists()
    assert count("MATCH (c:Chunk {document_id: $id}) RETURN count(c) AS n", id=pdf["id"]) == 0
    assert graph.run_read("MATCH (d:Document {id: $id}) RETURN d", id=pdf["id"]) == []


def test_upload_requires_login_and_files() -> None:
    assert APIClient().post("/api/ingestion/uploads/", {}).status_code == 401


@pytest.mark.parametrize("folder", ["../../etc", "/etc", "a/../..", "a//b", "."])
def test_upload_rejects_folders_outside_the_collection(folder: str, django_user_model: Any) -> None:
    client = client_for(django_user_model.objects.create_user("u2", password="pw-123456"))
    response = client.post(
        f"/api/ingestion/uploads/?collection=c&folder={quote(folder)}",
        {"files": [SimpleUploadedFile("a.md", b"# A\n\nx")]},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "folder", "message": "Not a folder inside the collection."}
    ]


def test_an_empty_folder_sent_in_the_address_is_refused_not_ignored(
    django_user_model: Any,
) -> None:
    client = client_for(django_user_model.objects.create_user("u3", password="pw-123456"))
    response = client.post(
        "/api/ingestion/uploads/?collection=c&folder=",
        {"files": [SimpleUploadedFile("a.md", b"# A\n\nx")]},
        format="multipart",
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["folder"]
