"""One turn of a conversation, the one place where a question is stored, answered and its
answer kept: the REST API, the websocket and the internal SSE stream all run `run_turn`.

A turn stores the question (titling a new session), hands the orchestrator the last
MAX_CONVERSATION_MESSAGES messages as memory, relays every event tagged with its
session and request, and stores the answer however the run ends: complete, error, or
cancelled with the text streamed so far.
"""

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import aclosing, suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from chat.attachments import AttachmentRejected
from chat.attachments import resolve as resolve_attachments
from chat.models import ChatSession, DisplayFormat, Feedback, Message, Outcome, Route
from chat.orchestrator.context import Turn
from chat.orchestrator.service import QuestionRejected, answer_question, check_question
from chat.serializers import MessageSerializer

logger = logging.getLogger(__name__)

TITLE_CHARS = 80
CANCELLED_NOTE = "Stopped before the answer was complete."
UNAVAILABLE = "A service the answer needs is down. Your question was kept; try again later."
INTERNAL = "Something went wrong while answering. Your question was kept; try again."


P = ParamSpec("P")
R = TypeVar("R")

# The turns' own reads and writes run on threads of their own: storing a question must not
# wait behind the orchestrator's tools (the default pool) nor behind every other socket's
# work in the one thread-sensitive thread. Each thread keeps one database connection, which
# database_sync_to_async checks before and after every call.
_DATABASE_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="chat-db")


def in_database_thread(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`function` as a coroutine function run on the chat's database threads."""
    return database_sync_to_async(function, thread_sensitive=False, executor=_DATABASE_THREADS)


class TurnRejected(ValueError):
    """A turn that cannot start (nothing to regenerate)."""


def session_title(question: str) -> str:
    """The first question, on one line, cut at a word when long."""
    text = " ".join(question.split())
    if len(text) <= TITLE_CHARS:
        return text
    return text[: TITLE_CHARS - 1].rsplit(" ", 1)[0].rstrip(" ,;:.") + "…"


def history_turns(messages: Sequence[Message]) -> list[Turn]:
    """Earlier messages as memory: questions and complete answers (a stopped or failed
    answer says nothing the next question could build on)."""
    return [
        Turn(role=m.role, content=m.content, route=m.route, data=m.data)
        for m in messages
        if m.role == Message.Role.USER or m.status == Message.Status.COMPLETE
    ]


# One instance for every turn: a ModelSerializer builds its fields anew for each instance,
# which costs more than representing a message. It holds no state (no context).
_MESSAGE = MessageSerializer()


def serialize(message: Message) -> dict[str, Any]:
    return dict(_MESSAGE.to_representation(message))


@in_database_thread
def find_session(user: Any, session_id: uuid.UUID) -> ChatSession | None:
    """The user's session of that id; another person's is as absent as an unknown one."""
    return ChatSession.objects.filter(pk=session_id, owner=user).first()


def sessions_for(user: Any, *, search: str = "") -> QuerySet[ChatSession]:
    """A person's sessions, most recently used first; `search` matches titles and the text
    of any message (an EXISTS per session, not a join that repeats sessions)."""
    sessions = ChatSession.objects.filter(owner=user)
    words = search.strip()
    if words:
        in_messages = Message.objects.filter(session=OuterRef("pk"), content__icontains=words)
        sessions = sessions.filter(Q(title__icontains=words) | Exists(in_messages))
    return sessions.order_by("-updated_at", "-created_at")


def messages_for(session: ChatSession, *, reader: Any) -> QuerySet[Message]:
    """A session's messages, oldest first, each with the reader's own rating."""
    rating = Feedback.objects.filter(message=OuterRef("pk"), owner=reader).values("rating")[:1]
    return session.messages.annotate(my_rating=Subquery(rating)).order_by("created_at", "id")


def rate_answer(message: Message, user: Any, *, rating: int, comment: str = "") -> bool:
    """One rating per person and answer; rating again replaces it. True when new."""
    _, created = Feedback.objects.update_or_create(
        message=message, owner=user, defaults={"rating": rating, "comment": comment}
    )
    return created


@dataclass
class _Answer:
    """What the stream has told so far, to keep an answer that is stopped half way."""

    route: str = ""
    text: list[str] = field(default_factory=list)
    sources: list[Any] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    stored: bool = False

    def observe(self, event: dict[str, Any]) -> None:
        name = event["event"]
        if name == "route_decision":
            self.route = str(event.get("route", ""))
        elif name == "token" and event.get("channel", "final") == "final":
            self.text.append(str(event.get("content", "")))
        elif name == "sources":
            self.sources = list(event.get("sources") or [])
        elif name == "table":
            self.data["table"] = {k: v for k, v in event.items() if k != "event"}


def _route(value: Any) -> str:
    return value if value in Route.values else ""


@in_database_thread
def _start_turn(
    session: ChatSession, user: Any, question: str, *, regenerate: bool
) -> tuple[Message, list[Turn]]:
    """Store the question (or find the one to ask again) and read the memory before it."""
    with transaction.atomic():
        if regenerate:
            asked = (
                Message.objects.filter(session=session, role=Message.Role.USER)
                .order_by("-created_at", "-id")
                .first()
            )
            if asked is None:
                raise TurnRejected("There is no question in this conversation to ask again.")
        else:
            asked = Message.objects.create(
                session=session, owner=user, role=Message.Role.USER, content=question
            )
        if not session.title:
            session.title = session_title(asked.content)
        session.updated_at = timezone.now()
        session.save(update_fields=["title", "updated_at"])
    earlier = list(
        Message.objects.filter(session=session, id__lt=asked.pk).order_by("-id")[
            : settings.MAX_CONVERSATION_MESSAGES
        ]
    )
    return asked, history_turns(earlier[::-1])


@in_database_thread
def _store_answer(session: ChatSession, user: Any, **fields: Any) -> Message:
    with transaction.atomic():
        message = Message.objects.create(
            session=session, owner=user, role=Message.Role.ASSISTANT, **fields
        )
        ChatSession.objects.filter(pk=session.pk).update(updated_at=timezone.now())
    return message


def _complete_fields(event: dict[str, Any]) -> dict[str, Any]:
    answer = event.get("answer") or {}
    stats = event.get("stats") or {}
    data = dict(answer.get("data") or {})
    data.update(
        follow_ups=list(answer.get("follow_ups") or []),
        stats=stats,
        trace=list(event.get("trace") or []),
        route_decision=dict(event.get("route_decision") or {}),
    )
    display = answer.get("display_format")
    return {
        "content": str(answer.get("content", "")),
        "sources": list(answer.get("sources") or []),
        "route": _route(answer.get("route")),
        "outcome": _outcome(event.get("outcome")),
        "data": data,
        "display_format": display if display in DisplayFormat.values else DisplayFormat.TEXT,
        "status": Message.Status.COMPLETE,
        "tokens": int(stats.get("tokens") or 0),
        "latency_ms": round(stats["latency_ms"]) if stats.get("latency_ms") is not None else None,
    }


def _outcome(value: Any) -> str:
    return str(value) if value in Outcome.values else ""


def _failure(error: Exception) -> tuple[str, str]:
    """A code and words safe to show for a failure of our own (the details go to the log)."""
    if isinstance(error, OperationalError | InterfaceError):
        return "unavailable", UNAVAILABLE
    return "internal", INTERNAL


async def run_turn(
    session: ChatSession,
    user: Any,
    content: str,
    *,
    attachments: Sequence[str] = (),
    regenerate: bool = False,
    request_id: str = "",
) -> AsyncIterator[dict[str, Any]]:
    """Ask `content` in `session` (owned by `user`: the caller has checked) and yield event
    dicts: `accepted` with the stored question as `message`, the orchestrator's events, and
    last `complete` (with the stored answer as `message`) or `error`. A rejected question
    yields one `error` (code bad_request) and stores nothing. With `regenerate` the last
    question is asked again (`content` is ignored) and its new answer is added.
    `attachments` are ids of the user's uploads (chat.attachments), never paths."""
    tag = {"request_id": request_id or uuid.uuid4().hex, "session_id": str(session.pk)}
    try:
        question = "" if regenerate else check_question(content)
        paths = (
            await in_database_thread(resolve_attachments)(user, attachments) if attachments else []
        )
        asked, history = await _start_turn(session, user, question, regenerate=regenerate)
    except (QuestionRejected, AttachmentRejected, TurnRejected) as error:
        code = getattr(error, "code", "bad_request")
        yield {"event": "error", "message": str(error), "code": code, **tag}
        return

    answer = _Answer()
    try:
        yield {"event": "accepted", "message": serialize(asked), **tag}
        events = answer_question(
            asked.content,
            user=user,
            history=history,
            attachments=paths,
            session_id=str(session.pk),
        )
        async with aclosing(events):
            async for event in events:
                payload = {**event.to_dict(), **tag}
                answer.observe(payload)
                if event.name in ("complete", "error"):
                    # Marked first: a cancel while storing must not store a second answer.
                    answer.stored = True
                    if event.name == "complete":
                        stored = await _store_answer(session, user, **_complete_fields(payload))
                        payload["message"] = serialize(stored)
                    else:
                        await _store_answer(session, user, **_error_fields(answer, payload))
                    yield payload
                    return
                yield payload
        raise RuntimeError("the orchestrator stopped without complete or error")
    except (asyncio.CancelledError, GeneratorExit):
        if not answer.stored:
            answer.stored = True
            await asyncio.shield(_store_answer(session, user, **_cancelled_fields(answer)))
        raise
    except Exception as error:
        logger.exception("a chat turn failed in session %s", session.pk)
        code, text = _failure(error)
        if not answer.stored:
            failure = {"code": code, "message": text}
            with suppress(DatabaseError):
                await _store_answer(session, user, **_error_fields(answer, failure))
        yield {"event": "error", "message": text, "code": code, **tag}


def _cancelled_fields(answer: _Answer) -> dict[str, Any]:
    return {
        "content": "".join(answer.text),
        "sources": answer.sources,
        "route": _route(answer.route),
        "data": {**answer.data, "note": CANCELLED_NOTE},
        "status": Message.Status.CANCELLED,
    }


def _error_fields(answer: _Answer, error: dict[str, Any]) -> dict[str, Any]:
    return {
        "content": str(error.get("message") or INTERNAL),
        "sources": answer.sources,
        "route": _route(answer.route),
        "data": {**answer.data, "error": {"code": str(error.get("code") or "internal")}},
        "status": Message.Status.ERROR,
    }


def ask_and_wait(
    session: ChatSession, user: Any, content: str, *, attachments: Sequence[str] = ()
) -> dict[str, Any]:
    """Run a turn to its end from synchronous code (the REST API answers once) and return
    its last event: `complete` or `error`."""

    async def last_event() -> dict[str, Any]:
        last: dict[str, Any] = {}
        async for event in run_turn(session, user, content, attachments=attachments):
            last = event
        return last

    return async_to_sync(last_event)()


def delete_sessions_untouched_since(cutoff: datetime, *, batch: int = 500) -> int:
    """Delete sessions (with their messages and feedback) last used before `cutoff`, a batch
    at a time so that no one transaction holds many rows; returns how many went."""
    deleted = 0
    while True:
        ids = list(
            ChatSession.objects.filter(updated_at__lt=cutoff).values_list("pk", flat=True)[:batch]
        )
        if not ids:
            return deleted
        ChatSession.objects.filter(pk__in=ids).delete()
        deleted += len(ids)
