"""POST /api/chat/sessions/{id}/messages with the real orchestrator: the seed's reply, its
failures as 500 and 503 that tell nothing about their cause, and attachments by id only."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from pytest_django.fixtures import Settings

from chat.attachments import resolve
from chat.models import Message
from ingestion.models import Document

from ..sqlagent.agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, warehouse
from .chat_fixtures import alice, api_client, bob, handbook, make_session, no_llm

__all__ = [
    "agent_warehouse_schema", "agent_warehouse_url", "alice", "bob", "handbook", "no_llm",
    "warehouse",
]  # fmt: skip

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "How many work orders were completed in 2025?"


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_question_gets_the_seeds_reply_and_both_messages_are_kept(alice: User) -> None:
    session = make_session(alice)

    response = api_client(alice).post(
        f"/api/chat/sessions/{session.pk}/messages", {"content": QUESTION}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    expected = gold(
        "SELECT COUNT(*) FROM `workOrder` WHERE `completedAt` >= '2025-01-01' "
        "AND `completedAt` < '2026-01-01'"
    )[0][0]
    assert body["conversation_id"] == str(session.pk)
    assert str(expected) in body["response"]
    assert body["route"] == "sql" and body["sources"] == []
    assert body["data"]["rows"] == [[expected]] and "secure_workorder" in body["data"]["sql"]
    assert body["follow_ups"] == body["data"]["follow_ups"]
    assert body["message"]["id"] == body["message_id"] and body["message"]["html"]
    question, answer = Message.objects.filter(session=session).order_by("id")
    assert (question.role, question.content) == ("user", QUESTION)
    assert (answer.pk, answer.status, answer.content) == (
        body["message_id"],
        "complete",
        body["response"],
    )
    decision = answer.data["route_decision"]  # kept, so a reloaded trace shows why
    assert decision["route"] == "sql" and decision["reasons"]
    session.refresh_from_db()
    assert session.title == QUESTION


@pytest.mark.usefixtures("no_llm")
def test_a_document_question_is_answered_with_its_sources(alice: User, handbook: Document) -> None:
    session = make_session(alice)

    response = api_client(alice).post(
        f"/api/chat/sessions/{session.pk}/messages",
        {"content": "What happens to a damaged sling?"},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert body["route"] == "documents"
    assert "tagged and removed from service" in body["response"]
    assert "[1]" in body["response"] or "[2]" in body["response"]  # cited
    assert body["sources"], body
    source = body["sources"][0]
    assert source["file_name"] == "crew_handbook.md" and source["document_id"] == str(handbook.pk)
    assert source["url"].startswith(f"/documents/{handbook.pk}/#chunk-")
    answer = Message.objects.get(pk=body["message_id"])
    assert answer.sources == body["sources"] and answer.route == "documents"


@pytest.mark.usefixtures("no_llm")
def test_a_failed_answer_is_a_500_that_tells_nothing(alice: User, settings: Settings) -> None:
    # A real failure: the configured workflow does not exist.
    settings.ORCHESTRATOR_CHAT_WORKFLOW = "missing-workflow-x9"
    session = make_session(alice)

    response = api_client(alice).post(
        f"/api/chat/sessions/{session.pk}/messages", {"content": "What can you do?"}, format="json"
    )

    assert response.status_code == 500
    body = response.json()
    assert body["code"] == "internal"
    assert "missing-workflow-x9" not in response.content.decode()
    assert "Traceback" not in body["detail"] and "Error" not in body["detail"]
    # The question is kept, with the failure as its answer: nothing typed is lost.
    question, answer = Message.objects.filter(session=session).order_by("id")
    assert question.content == "What can you do?"
    assert (answer.status, answer.data["error"]["code"]) == ("error", "internal")


@pytest.fixture
def database_out_of_reach() -> Iterator[None]:
    """The app's PostgreSQL refuses connections: its address points at a closed port. The
    pool keeps the address it was made with, so a new one is made, that waits 1 s for a
    connection instead of DB_POOL_TIMEOUT."""
    postgres: Any = connection  # the PostgreSQL backend: it has a pool to close
    saved = dict(connection.settings_dict)
    connection.close()
    postgres.close_pool()
    connection.settings_dict["PORT"] = 1
    options = saved["OPTIONS"]
    if "pool" in options:
        connection.settings_dict["OPTIONS"] = {**options, "pool": {**options["pool"], "timeout": 1}}
    try:
        yield
    finally:
        connection.close()
        postgres.close_pool()
        connection.settings_dict.update(saved)


def test_the_database_out_of_reach_is_a_503(alice: User, database_out_of_reach: None) -> None:
    client = api_client(alice)

    listing = client.get("/api/chat/sessions")
    asking = client.post(
        "/api/chat/sessions/00000000-0000-4000-8000-000000000000/messages",
        {"content": "hello"},
        format="json",
    )

    for response in (listing, asking):
        assert response.status_code == 503
        assert response.json() == {
            "detail": "A service this needs is down. Try again later.",
            "code": "unavailable",
        }
        assert "5432" not in response.content.decode() and "port" not in response.content.decode()


def test_attachments_are_my_uploads_by_id(
    alice: User, bob: User, settings: Settings, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = str(tmp_path)
    upload = api_client(alice).post(
        "/api/chat/uploads",
        {"files": [SimpleUploadedFile("../../Report 2025.md", b"# Report\n\nAll good.")]},
        format="multipart",
    )

    assert upload.status_code == 201
    [saved] = upload.json()
    assert saved["file_name"] == "Report_2025.md" and saved["size"] == 19
    [path] = resolve(alice, [saved["id"]])
    assert Path(path).read_bytes() == b"# Report\n\nAll good."
    assert Path(path).is_relative_to(tmp_path / "chat-uploads" / str(alice.pk))

    session = make_session(bob)
    refused = api_client(bob).post(
        f"/api/chat/sessions/{session.pk}/messages",
        {"content": "upload these", "attachments": [saved["id"]]},
        format="json",
    )
    assert refused.status_code == 404
    assert refused.json()["detail"].startswith("No upload of yours has the id")
    assert not Message.objects.filter(session=session).exists()


def test_an_upload_larger_than_the_limit_is_refused(
    alice: User, settings: Settings, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = str(tmp_path)
    settings.INGESTION_MAX_FILE_MB = 0.001

    response = api_client(alice).post(
        "/api/chat/uploads",
        {"files": [SimpleUploadedFile("big.txt", b"x" * 2000)]},
        format="multipart",
    )

    assert response.status_code == 413
    assert response.json()["detail"] == "big.txt is larger than 0.001 MB."
    assert not list(tmp_path.rglob("big.txt"))


@pytest.mark.usefixtures("no_llm")
def test_an_unanswerable_question_is_stored_and_returned_with_its_outcome(
    alice: User, handbook: Document
) -> None:
    session = make_session(alice)
    response = api_client(alice).post(
        f"/api/chat/sessions/{session.pk}/messages",
        {"content": "Who won the 2022 World Cup final according to the handbook?"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["message"]["outcome"] in ("not_found", "declined")
    assert body["sources"] == []
    stored = Message.objects.get(pk=body["message_id"])
    assert stored.outcome == body["message"]["outcome"]
    listed = api_client(alice).get(f"/api/chat/sessions/{session.pk}/messages").json()
    assert listed["results"][-1]["outcome"] == stored.outcome
