"""POST /internal/chat/stream: the service token, the seed-003 body, and the same events as
the websocket, one `data:` line each, ending with complete."""

import json
import uuid
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.contrib.auth.models import User
from django.test import AsyncClient
from pytest_django.fixtures import Settings

from chat.models import ChatSession, Message
from chat.sse import session_uuid
from config.asgi import application

from ..sqlagent.agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, warehouse
from .chat_fixtures import HeldModel, alice, bob, held_model, make_session, no_llm

__all__ = [
    "agent_warehouse_schema", "agent_warehouse_url", "alice", "bob", "held_model", "no_llm",
    "warehouse",
]  # fmt: skip

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/internal/chat/stream"
TOKEN = "service-token-for-tests-0123456789"
QUESTION = "How many work orders were completed in 2025?"


@pytest.fixture
def token(settings: Settings) -> str:
    settings.CHAT_SERVICE_TOKEN = TOKEN
    return TOKEN


def body(message: str, conversation_id: str, user_id: Any) -> dict[str, Any]:
    return {
        "input": {"message": message},
        "conversation": {"id": conversation_id, "user_id": user_id, "company_id": "company-789"},
    }


async def post(payload: Any, authorization: str | None = f"Bearer {TOKEN}") -> Any:
    headers = {"Authorization": authorization} if authorization else {}
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return await AsyncClient().post(URL, data, content_type="application/json", headers=headers)


async def read_events(response: Any) -> list[dict[str, Any]]:
    raw = b"".join([chunk async for chunk in response.streaming_content]).decode()
    blocks = [block for block in raw.split("\n\n") if block]
    assert all(block.startswith("data: ") and "\n" not in block for block in blocks), raw[:500]
    return [json.loads(block.removeprefix("data: ")) for block in blocks]


@sync_to_async
def count_messages() -> int:
    return Message.objects.count()


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer wrong-token", f"Token {TOKEN}", f"Bearer {TOKEN}x", "Bearer"],
)
async def test_without_the_service_token_nothing_happens(
    token: str, alice: User, authorization: str | None
) -> None:
    response = await post(body("hello", str(uuid.uuid4()), alice.pk), authorization)

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response.json() == {
        "detail": "A valid service token is required.",
        "code": "unauthorized",
    }
    assert await count_messages() == 0
    assert not await ChatSession.objects.aexists()


async def test_the_stream_is_off_without_a_configured_token(
    settings: Settings, alice: User
) -> None:
    settings.CHAT_SERVICE_TOKEN = ""

    response = await post(body("hello", str(uuid.uuid4()), alice.pk), "Bearer ")

    assert response.status_code == 403
    assert "CHAT_SERVICE_TOKEN" in response.json()["detail"]


async def test_only_post(token: str) -> None:
    response = await AsyncClient().get(URL, headers={"Authorization": f"Bearer {TOKEN}"})

    assert response.status_code == 405


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ("{not json", "detail"),
        ({"input": {"message": "hi"}}, "conversation"),
        ({"input": {}, "conversation": {"id": "c", "user_id": "1"}}, "input"),
        ({"input": {"message": "   "}, "conversation": {"id": "c", "user_id": "1"}}, "input"),
        ({"input": {"message": "x" * 4001}, "conversation": {"id": "c", "user_id": "1"}}, "input"),
        ({"input": {"message": "hi"}, "conversation": {"id": "c"}}, "conversation"),
    ],
)
async def test_a_bad_body_is_a_400_and_stores_nothing(
    token: str, alice: User, payload: Any, field: str
) -> None:
    response = await post(payload)

    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    fields = {e["field"].split(".")[0] for e in response.json().get("errors", [])}
    assert field in fields or field == "detail"
    assert await count_messages() == 0 and not await ChatSession.objects.aexists()


async def test_an_unknown_user_is_a_404(token: str, alice: User) -> None:
    response = await post(body("hello", str(uuid.uuid4()), "nobody-like-this"))

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


async def test_another_persons_conversation_is_a_404(token: str, alice: User, bob: User) -> None:
    bobs = await sync_to_async(make_session)(bob, "bob's")

    response = await post(body("what did bob ask?", str(bobs.pk), alice.username))

    assert response.status_code == 404
    assert response.json() == {"detail": "No conversation with that id.", "code": "not_found"}
    assert await count_messages() == 0


@pytest.mark.usefixtures("warehouse", "no_llm")
async def test_a_question_streams_as_server_sent_events(token: str, alice: User) -> None:
    conversation = str(uuid.uuid4())

    response = await post(body(QUESTION, conversation, alice.username))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    events = await read_events(response)
    names = [e["event"] for e in events]
    assert names[0] == "accepted" and names[-1] == "complete"
    assert names.index("tool_start") < names.index("route_decision") < names.index("token")
    assert names.count("tool_start") == names.count("tool_end") and "error" not in names
    assert {e["session_id"] for e in events} == {conversation}
    assert len({e["request_id"] for e in events}) == 1
    expected = gold(
        "SELECT COUNT(*) FROM `workOrder` WHERE `completedAt` >= '2025-01-01' "
        "AND `completedAt` < '2026-01-01'"
    )[0][0]
    assert str(expected) in events[-1]["answer"]["content"]
    assert events[-1]["stats"]["tokens"] >= 1
    # The conversation is the session of that id, created for alice, with both messages.
    session = await ChatSession.objects.select_related("owner").aget(pk=conversation)
    assert session.owner == alice and session.title == QUESTION
    roles = [m.role async for m in session.messages.order_by("id")]
    assert roles == ["user", "assistant"]


@pytest.mark.usefixtures("no_llm")
async def test_a_callers_own_conversation_id_maps_to_one_session_per_person(
    token: str, alice: User, bob: User
) -> None:
    for user_id in (alice.pk, alice.pk, bob.username):
        response = await post(body("What can you do?", "conv-uuid-123", user_id))
        events = await read_events(response)
        assert events[-1]["event"] == "complete"

    alices = await ChatSession.objects.aget(pk=session_uuid(alice.pk, "conv-uuid-123"))
    bobs = await ChatSession.objects.aget(pk=session_uuid(bob.pk, "conv-uuid-123"))
    assert alices.pk != bobs.pk
    assert await alices.messages.acount() == 4 and await bobs.messages.acount() == 2


async def test_a_caller_that_disconnects_cancels_the_run(
    token: str, alice: User, held_model: HeldModel
) -> None:
    conversation = str(uuid.uuid4())
    data = json.dumps(body("Hello! What can you do for me?", conversation, alice.pk)).encode()
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": URL, "raw_path": URL.encode(), "query_string": b"",
        "root_path": "", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 50000),
        "headers": [
            (b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
            (b"content-length", str(len(data)).encode()),
            (b"authorization", f"Bearer {TOKEN}".encode()),
        ],
    }  # fmt: skip
    caller = ApplicationCommunicator(application, scope)
    await caller.send_input({"type": "http.request", "body": data, "more_body": False})

    start = await caller.receive_output(timeout=30)
    accepted = await caller.receive_output(timeout=30)
    assert await sync_to_async(held_model.called.wait)(60)
    await caller.send_input({"type": "http.disconnect"})
    await caller.wait(timeout=30)

    assert start["status"] == 200
    assert accepted["body"].startswith(b'data: {"event":"accepted"')
    session = await ChatSession.objects.aget(pk=conversation)
    statuses = [(m.role, m.status) async for m in session.messages.order_by("id")]
    assert statuses == [("user", "complete"), ("assistant", "cancelled")]
