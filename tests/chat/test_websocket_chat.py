"""The chat websocket end to end: the real ASGI app, the Redis channel layer, the
orchestrator and the demo warehouse. Questions stream their events and are kept with their
answers; runs of one socket go on side by side; stopping or closing keeps what streamed."""

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from chat.models import ChatSession, Message
from config.asgi import application

from ..sqlagent.agent_fixtures import (
    agent_warehouse_schema,
    agent_warehouse_url,
    gold,
    warehouse,
)
from .chat_fixtures import HeldModel, alice, bob, held_model, make_session, no_llm, socket_headers

__all__ = [
    "agent_warehouse_schema",
    "agent_warehouse_url",
    "alice",
    "bob",
    "held_model",
    "no_llm",
    "warehouse",
]

pytestmark = pytest.mark.django_db(transaction=True)

COMPLETED_2025 = "How many work orders were completed in 2025?"
GENERAL = "Hello! What can you do for me?"


async def connect(user: User) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, "/ws/chat/", headers=await socket_headers(user)
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def until_done(
    communicator: WebsocketCommunicator, request_ids: set[str], timeout: float = 300
) -> dict[str, list[dict[str, Any]]]:
    """Every event received, per request, until each request ended (complete or error)."""
    events: dict[str, list[dict[str, Any]]] = {request_id: [] for request_id in request_ids}
    open_requests = set(request_ids)
    while open_requests:
        event = await communicator.receive_json_from(timeout=timeout)
        events[event["request_id"]].append(event)
        if event["event"] in ("complete", "error"):
            open_requests.discard(event["request_id"])
    return events


async def next_event(
    communicator: WebsocketCommunicator, name: str, timeout: float = 60
) -> dict[str, Any]:
    while True:
        event = await communicator.receive_json_from(timeout=timeout)
        if event["event"] == name:
            return event


async def wait_until(flag: Any, timeout: float = 60) -> None:
    assert await asyncio.to_thread(flag.wait, timeout), "the model was never called"


@sync_to_async
def messages_of(session: ChatSession) -> list[Message]:
    return list(session.messages.order_by("id"))


@sync_to_async
def new_session(user: User, title: str = "") -> ChatSession:
    return make_session(user, title)


@pytest.mark.usefixtures("warehouse", "no_llm")
async def test_a_question_streams_its_events_and_is_kept_with_its_answer(alice: User) -> None:
    session = await new_session(alice)
    communicator = await connect(alice)

    await communicator.send_json_to(
        {
            "type": "ask",
            "request_id": "r1",
            "session_id": str(session.pk),
            "content": COMPLETED_2025,
        }
    )
    events = (await until_done(communicator, {"r1"}))["r1"]
    await communicator.disconnect()

    names = [e["event"] for e in events]
    assert names[0] == "accepted" and names[-1] == "complete"
    assert names.count("accepted") == names.count("complete") == 1 and "error" not in names
    assert names.index("route_decision") < names.index("token") < names.index("table")
    assert names.count("tool_start") == names.count("tool_end") >= 2
    assert all(e["session_id"] == str(session.pk) and e["request_id"] == "r1" for e in events)
    assert events[names.index("route_decision")]["route"] == "sql"
    expected = gold(
        "SELECT COUNT(*) FROM `workOrder` WHERE `completedAt` >= '2025-01-01' "
        "AND `completedAt` < '2026-01-01'"
    )[0][0]
    table = next(e for e in events if e["event"] == "table")
    assert table["rows"] == [[expected]]
    complete = events[-1]
    streamed = "".join(e["content"] for e in events if e["event"] == "token")
    assert complete["answer"]["content"] == streamed
    assert complete["stats"]["tokens"] >= 1 and complete["stats"]["latency_ms"] > 0

    question, answer = await messages_of(session)
    assert events[0]["message"]["id"] == question.pk
    assert (question.role, question.content) == ("user", COMPLETED_2025)
    assert (answer.role, answer.status, answer.route) == ("assistant", "complete", "sql")
    assert answer.content == streamed and str(expected) in answer.content
    assert answer.data["sql"] == table["sql"] and answer.data["trace"]
    assert answer.tokens == complete["stats"]["tokens"] and answer.latency_ms is not None
    assert complete["message"]["id"] == answer.pk
    assert (
        complete["message"]["html"].startswith("<p>")
        and str(expected) in complete["message"]["html"]
    )
    await sync_to_async(session.refresh_from_db)()
    assert session.title == COMPLETED_2025


@pytest.mark.usefixtures("warehouse", "no_llm")
async def test_a_follow_up_is_answered_from_the_conversation(alice: User) -> None:
    session = await new_session(alice)
    communicator = await connect(alice)
    ask = {"type": "ask", "session_id": str(session.pk)}

    await communicator.send_json_to({**ask, "request_id": "first", "content": COMPLETED_2025})
    await until_done(communicator, {"first"})
    await communicator.send_json_to({**ask, "request_id": "then", "content": "and in 2024?"})
    events = (await until_done(communicator, {"then"}))["then"]
    await communicator.disconnect()

    table = next(e for e in events if e["event"] == "table")
    expected = gold(
        "SELECT COUNT(*) FROM `workOrder` WHERE `completedAt` >= '2024-01-01' "
        "AND `completedAt` < '2025-01-01'"
    )[0][0]
    assert "2024-01-01" in table["sql"] and table["rows"] == [[expected]]
    assert events[-1]["event"] == "complete"


@pytest.mark.usefixtures("warehouse", "no_llm")
async def test_regenerate_asks_the_last_question_again_as_a_new_answer(alice: User) -> None:
    session = await new_session(alice)
    communicator = await connect(alice)

    await communicator.send_json_to(
        {"type": "ask", "request_id": "a", "session_id": str(session.pk), "content": COMPLETED_2025}
    )
    first = (await until_done(communicator, {"a"}))["a"]
    await communicator.send_json_to(
        {"type": "regenerate", "request_id": "b", "session_id": str(session.pk)}
    )
    again = (await until_done(communicator, {"b"}))["b"]
    await communicator.disconnect()

    assert again[0]["event"] == "accepted"
    assert again[0]["message"]["id"] == first[0]["message"]["id"]  # the same question
    assert again[-1]["event"] == "complete"
    messages = await messages_of(session)
    assert [m.role for m in messages] == ["user", "assistant", "assistant"]
    assert messages[1].content == messages[2].content


async def test_regenerate_in_an_empty_session_is_refused(alice: User) -> None:
    session = await new_session(alice)
    communicator = await connect(alice)

    await communicator.send_json_to(
        {"type": "regenerate", "request_id": "x", "session_id": str(session.pk)}
    )
    event = await communicator.receive_json_from(timeout=10)
    await communicator.disconnect()

    assert (event["event"], event["code"], event["request_id"]) == ("error", "bad_request", "x")
    assert event["message"] == "There is no question in this conversation to ask again."
    assert await messages_of(session) == []


async def test_two_sessions_stream_at_once(alice: User, held_model: HeldModel) -> None:
    one, two = await new_session(alice), await new_session(alice)
    communicator = await connect(alice)

    for request_id, session in (("one", one), ("two", two)):
        await communicator.send_json_to(
            {"type": "ask", "request_id": request_id, "session_id": str(session.pk),
             "content": GENERAL}
        )  # fmt: skip
    # While the model holds the first answer, the second has started too.
    started = [await next_event(communicator, "accepted") for _ in range(2)]
    await wait_until(held_model.called)
    assert {e["request_id"] for e in started} == {"one", "two"}
    held_model.release()
    events = await until_done(communicator, {"one", "two"})
    await communicator.disconnect()

    for request_id, session in (("one", one), ("two", two)):
        assert events[request_id][-1]["event"] == "complete"
        assert {e["session_id"] for e in events[request_id]} == {str(session.pk)}
        assert [m.role for m in await messages_of(session)] == ["user", "assistant"]


async def test_cancel_stops_the_answer_and_keeps_it_as_cancelled(
    alice: User, held_model: HeldModel
) -> None:
    session = await new_session(alice)
    communicator = await connect(alice)

    await communicator.send_json_to(
        {"type": "ask", "request_id": "c", "session_id": str(session.pk), "content": GENERAL}
    )
    await next_event(communicator, "accepted")
    await wait_until(held_model.called)
    await communicator.send_json_to({"type": "cancel", "request_id": "c"})
    cancelled = await next_event(communicator, "cancelled")
    held_model.release()
    await communicator.send_json_to({"type": "cancel", "request_id": "c"})
    again = await communicator.receive_json_from(timeout=10)
    await communicator.disconnect()

    assert cancelled == {"event": "cancelled", "request_id": "c"}
    assert (again["event"], again["code"]) == ("error", "not_found")
    question, answer = await messages_of(session)
    assert (question.role, answer.role, answer.status) == ("user", "assistant", "cancelled")
    assert answer.data["note"] == "Stopped before the answer was complete."


async def test_a_closed_socket_cancels_its_runs(alice: User, held_model: HeldModel) -> None:
    session = await new_session(alice)
    communicator = await connect(alice)

    await communicator.send_json_to(
        {"type": "ask", "request_id": "gone", "session_id": str(session.pk), "content": GENERAL}
    )
    await next_event(communicator, "accepted")
    await wait_until(held_model.called)
    await communicator.disconnect(timeout=10)

    question, answer = await messages_of(session)
    assert (question.content, answer.status) == (GENERAL, "cancelled")


async def test_another_persons_session_is_not_found(alice: User, bob: User) -> None:
    alices = await new_session(alice, "alice's")
    communicator = await connect(bob)
    unknown = "00000000-0000-4000-8000-000000000000"

    replies = []
    for session_id in (str(alices.pk), unknown):
        await communicator.send_json_to(
            {"type": "ask", "request_id": "peek", "session_id": session_id, "content": "hello?"}
        )
        replies.append(await communicator.receive_json_from(timeout=10))
    await communicator.disconnect()

    assert (
        replies[0]
        == replies[1]
        == {
            "event": "error",
            "code": "not_found",
            "message": "No conversation with that id.",
            "request_id": "peek",
        }
    )
    assert await messages_of(alices) == []


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ({"session_id": "S", "content": "hi"}, "bad_request", "request_id must be"),
        ({"request_id": "r", "session_id": "nope", "content": "hi"}, "bad_request", "UUID"),
        ({"request_id": "r", "session_id": "S", "content": 7}, "bad_request", "string"),
        ({"request_id": "r", "session_id": "S", "content": "  "}, "bad_request", "empty"),
        ({"request_id": "r", "session_id": "S", "content": "x" * 4001}, "bad_request", "4000"),
        (
            {"request_id": "r", "session_id": "S", "content": "hi", "attachments": ["/etc/passwd"]},
            "not_found",
            "No upload of yours",
        ),
        ({"request_id": "r", "session_id": "S", "content": "a\x00b"}, "bad_request", "Null"),
    ],
)
async def test_bad_asks_are_refused_and_store_nothing(
    alice: User, message: dict[str, Any], code: str, words: str
) -> None:
    session = await new_session(alice)
    if message.get("session_id") == "S":
        message = {**message, "session_id": str(session.pk)}
    communicator = await connect(alice)

    await communicator.send_json_to({"type": "ask", **message})
    reply = await communicator.receive_json_from(timeout=10)
    await communicator.disconnect()

    assert (reply["event"], reply["code"]) == ("error", code)
    assert words in reply["message"]
    assert await messages_of(session) == []


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"text_data": "{not json"}, "bad_request"),
        ({"bytes_data": b"\x00\x01"}, "bad_request"),
        ({"text_data": "[1, 2]"}, "bad_request"),
        ({"text_data": '"ask"'}, "bad_request"),
        ({"text_data": '{"type": "dance"}'}, "unknown_type"),
        ({"text_data": '{"type": ["ask"]}'}, "unknown_type"),
        ({"text_data": '{"type": "ping", "payload": "' + "x" * 70_000 + '"}'}, "too_large"),
    ],
)
async def test_a_malformed_frame_gets_an_error_and_the_socket_stays_usable(
    alice: User, frame: dict[str, Any], code: str
) -> None:
    communicator = await connect(alice)

    await communicator.send_to(**frame)
    reply = await communicator.receive_json_from(timeout=10)
    await communicator.send_json_to({"type": "ping", "payload": 1})
    pong = await communicator.receive_json_from(timeout=10)
    await communicator.disconnect()

    assert reply["event"] == "error" and reply["code"] == code and reply["message"]
    assert pong == {"event": "pong", "payload": 1}


async def test_ping_and_progress_still_work_beside_the_chat(alice: User) -> None:
    from channels.layers import get_channel_layer

    communicator = await connect(alice)
    await communicator.send_json_to({"type": "ping", "payload": "marco"})
    pong = await communicator.receive_json_from(timeout=5)
    await get_channel_layer().group_send(
        f"user.{alice.pk}", {"type": "ingestion.progress", "job": "j", "progress": 50}
    )
    progress = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()

    assert pong == {"event": "pong", "payload": "marco"}
    assert progress == {"event": "ingestion_progress", "job": "j", "progress": 50}
