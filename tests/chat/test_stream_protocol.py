"""Real websocket and SSE streams checked against the event protocol that docs/chat.md
states as a JSON Schema: every event valid, and in each turn `accepted` first, exactly one
of complete, error or cancelled last."""

import json
import re
import uuid
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import AsyncClient
from jsonschema import Draft202012Validator
from pytest_django.fixtures import Settings

from config.asgi import application

from ..conftest import ROOT
from ..sqlagent.agent_fixtures import agent_warehouse_schema, agent_warehouse_url, warehouse
from .chat_fixtures import alice, make_session, no_llm, socket_headers

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "alice", "no_llm", "warehouse"]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_llm")]

QUESTIONS = ["How many work orders were completed in 2025?", "Hello! What can you do for me?"]
ENDINGS = {"complete", "error", "cancelled"}
TOKEN = "service-token-for-protocol-tests-0123"


def documented_schema() -> Draft202012Validator:
    text = (ROOT / "docs" / "chat.md").read_text()
    found = re.search(r"<!-- stream-events-schema -->\n```json\n(.*?)\n```", text, re.S)
    assert found, "docs/chat.md has no stream-events-schema block"
    schema = json.loads(found.group(1))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def check(events: list[dict[str, Any]]) -> None:
    """Each event against the schema; each turn in the documented order."""
    validator = documented_schema()
    for event in events:
        problems = [e.message for e in validator.iter_errors(event)]
        assert not problems, (event.get("event"), problems[:3], json.dumps(event)[:400])
    turns: dict[str, list[str]] = {}
    for event in events:
        if "request_id" in event:
            turns.setdefault(event["request_id"], []).append(event["event"])
    for request_id, names in turns.items():
        ends = [name for name in names if name in ENDINGS]
        assert len(ends) == 1 and names[-1] == ends[0], (request_id, names)
        assert names[0] == "accepted" or names == ["error"], (request_id, names)


async def test_websocket_streams_follow_the_documented_protocol(
    alice: User, warehouse: Any
) -> None:
    session = await sync_to_async(make_session)(alice)
    communicator = WebsocketCommunicator(
        application, "/ws/chat/", headers=await socket_headers(alice)
    )
    assert (await communicator.connect(timeout=10))[0]
    frames: list[dict[str, Any]] = [
        {"type": "ask", "request_id": f"q{i}", "session_id": str(session.pk), "content": q}
        for i, q in enumerate(QUESTIONS)
    ]
    frames += [
        {"type": "ask", "request_id": "empty", "session_id": str(session.pk), "content": " "},
        {"type": "ask", "request_id": "lost", "session_id": str(uuid.uuid4()), "content": "hi"},
        {"type": "dance"},
        {"type": "ping", "payload": {"n": 1}},
    ]
    for frame in frames:
        await communicator.send_json_to(frame)
    await communicator.send_to(text_data="{not json")
    events: list[dict[str, Any]] = []
    pending = {"q0", "q1"}
    while pending:
        event = await communicator.receive_json_from(timeout=300)
        events.append(event)
        if event["event"] in ENDINGS:
            pending.discard(event.get("request_id", ""))
    await communicator.disconnect()

    check(events)
    names = [e["event"] for e in events]
    assert names.count("complete") == 2 and "pong" in names
    codes = sorted(e["code"] for e in events if e["event"] == "error")
    assert codes == ["bad_request", "bad_request", "not_found", "unknown_type"]


async def test_server_sent_events_follow_the_documented_protocol(
    alice: User, warehouse: Any, settings: Settings
) -> None:
    settings.CHAT_SERVICE_TOKEN = TOKEN
    body = {
        "input": {"message": QUESTIONS[0]},
        "conversation": {"id": str(uuid.uuid4()), "user_id": alice.username},
    }
    response = await AsyncClient().post(
        "/internal/chat/stream",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    raw = b"".join([chunk async for chunk in response.streaming_content]).decode()  # type: ignore[attr-defined]
    events = [json.loads(b.removeprefix("data: ")) for b in raw.split("\n\n") if b]

    check(events)
    assert events[0]["event"] == "accepted" and events[-1]["event"] == "complete"
