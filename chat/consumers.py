"""The chat websocket. Authenticated by Channels' session middleware; each connection
joins its user's group so that server-side work can reach every open tab.

Client messages: `ask` {request_id, session_id, content, attachments?}, `regenerate`
{request_id, session_id}, `cancel` {request_id}, `ping` {payload?}. Each ask runs as a task
of its own, so several sessions stream at once; a closed socket cancels its runs (each one
keeps what it had streamed as a cancelled answer)."""

import asyncio
import json
import logging
import uuid
from contextlib import aclosing
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from chat.conversations import find_session, run_turn
from chat.models import ChatSession
from core.api_errors import FAILED

logger = logging.getLogger(__name__)

# Application close codes (4000-4999): the client tells a refusal from a network drop.
CLOSE_UNAUTHENTICATED = 4401
MAX_REQUEST_ID = 100
MAX_ATTACHMENTS = 20
# Room for the longest question (in \uXXXX escapes) and its fields; a longer frame is refused.
MAX_FRAME_CHARS = 64_000


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


async def _own_session(user: Any, session_id: Any) -> ChatSession:
    """The user's session; anything else is "not found", whether it exists or not."""
    try:
        key = uuid.UUID(str(session_id))
    except ValueError:
        raise Refused("bad_request", "session_id must be a UUID.") from None
    session = await find_session(user, key)
    if session is None:
        raise Refused("not_found", "No conversation with that id.")
    return session


def _request_id(content: dict[str, Any]) -> str:
    request_id = content.get("request_id")
    if not isinstance(request_id, str) or not 0 < len(request_id) <= MAX_REQUEST_ID:
        raise Refused("bad_request", f"request_id must be a string of 1 to {MAX_REQUEST_ID}.")
    return request_id


def _attachments(content: dict[str, Any]) -> list[str]:
    attachments = content.get("attachments") or []
    if (
        not isinstance(attachments, list)
        or len(attachments) > MAX_ATTACHMENTS
        or not all(isinstance(a, str) for a in attachments)
    ):
        raise Refused(
            "bad_request", f"attachments must be a list of at most {MAX_ATTACHMENTS} ids."
        )
    return attachments


class ChatConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.runs: dict[str, asyncio.Task[None]] = {}
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        runs = list(getattr(self, "runs", {}).values())
        for run in runs:
            run.cancel()
        # Waited for, so that each stopped run has stored its partial answer.
        await asyncio.gather(*runs, return_exceptions=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every frame gets an answer: a frame that is not a JSON object, or too long, gets
        an `error` event and the connection stays open."""
        if text_data is None:
            await self._refuse("bad_request", "Frames are JSON text, not binary.")
        elif len(text_data) > MAX_FRAME_CHARS:
            await self._refuse("too_large", f"A frame holds at most {MAX_FRAME_CHARS} characters.")
        else:
            try:
                content = json.loads(text_data)
            except ValueError:
                await self._refuse("bad_request", "The frame is not JSON.")
                return
            await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._refuse("bad_request", "A frame is a JSON object with a `type`.")
            return
        kind = content.get("type")
        handler = {
            "ping": self.on_ping,
            "ask": self.on_ask,
            "regenerate": self.on_ask,
            "cancel": self.on_cancel,
        }.get(kind if isinstance(kind, str) else "")
        request_id = content.get("request_id")
        request_id = request_id if isinstance(request_id, str) else None
        if handler is None:
            types = "ask, regenerate, cancel or ping"
            await self._refuse("unknown_type", f"Unknown message type; one of {types}.", request_id)
            return
        try:
            await handler(content)
        except Refused as refusal:
            await self._refuse(refusal.code, str(refusal), request_id)

    async def _refuse(self, code: str, message: str, request_id: str | None = None) -> None:
        reply = {"event": "error", "code": code, "message": message}
        if request_id is not None:
            reply["request_id"] = request_id
        await self.send_json(reply)

    async def on_ping(self, content: dict[str, Any]) -> None:
        # Round trip through the channel layer, as server-side events travel.
        await self.channel_layer.group_send(
            self.group, {"type": "chat.pong", "payload": content.get("payload")}
        )

    async def on_ask(self, content: dict[str, Any]) -> None:
        request_id = _request_id(content)
        if request_id in self.runs:
            raise Refused("bad_request", "An answer with this request_id is in flight.")
        regenerate = content["type"] == "regenerate"
        question = content.get("content", "")
        if not regenerate and not isinstance(question, str):
            raise Refused("bad_request", "content must be a string.")
        attachments = _attachments(content)
        session = await _own_session(self.user, content.get("session_id"))
        turn = run_turn(
            session,
            self.user,
            question,
            attachments=attachments,
            regenerate=regenerate,
            request_id=request_id,
        )
        run = asyncio.create_task(self._relay(turn, request_id))
        self.runs[request_id] = run
        run.add_done_callback(lambda _: self.runs.pop(request_id, None))

    async def _relay(self, turn: Any, request_id: str) -> None:
        try:
            async with aclosing(turn):
                async for event in turn:
                    await self.send_json(event)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The turn's own failures arrive as `error` events; this is a failure around it.
            logger.exception("chat websocket: a turn failed")
            await self._refuse("internal", FAILED, request_id)

    async def on_cancel(self, content: dict[str, Any]) -> None:
        request_id = _request_id(content)
        run = self.runs.get(request_id)
        if run is None or run.done():
            raise Refused("not_found", "No answer in flight with this request_id.")
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)
        await self.send_json({"event": "cancelled", "request_id": request_id})

    async def chat_pong(self, event: dict[str, Any]) -> None:
        await self.send_json({"event": "pong", "payload": event.get("payload")})

    async def ingestion_progress(self, event: dict[str, Any]) -> None:
        """An upload of this user's moved on: relayed for the progress bar."""
        payload = {key: value for key, value in event.items() if key != "type"}
        await self.send_json({"event": "ingestion_progress", **payload})
