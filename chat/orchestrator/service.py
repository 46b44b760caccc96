"""The orchestrator's entry point: a question in, a stream of events out.

The question runs through a workflow (ORCHESTRATOR_CHAT_WORKFLOW, a JSON graph) whose nodes
stream their own events (route_decision, tool_start/tool_end, token, sources, table) through
the run context; this module adds the closing `complete` (the answer, figures and trace) or
`error`, and cancels the run when the consumer stops listening.
"""

import asyncio
import dataclasses
import logging
import time
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from chat.models import Outcome
from chat.orchestrator.context import RunContext, Turn, queue_emitter
from chat.orchestrator.events import Event

logger = logging.getLogger(__name__)


class QuestionRejected(ValueError):
    """A question that cannot be asked as it is (empty, too long)."""


EMPTY = "The question is empty."
TOO_LONG = "The question is longer than {max_length} characters."


def check_question(question: str) -> str:
    question = question.strip()
    if not question:
        raise QuestionRejected(EMPTY)
    if "\x00" in question:
        raise QuestionRejected("Null characters are not allowed.")
    if len(question) > settings.CHAT_MAX_MESSAGE_CHARS:
        raise QuestionRejected(TOO_LONG.format(max_length=settings.CHAT_MAX_MESSAGE_CHARS))
    return question


async def answer_question(
    question: str,
    *,
    user: Any,
    history: Sequence[Turn] = (),
    attachments: Sequence[str] = (),
    session_id: str | None = None,
    workflow: str | None = None,
) -> AsyncGenerator[Event, None]:
    """Yield the events of answering `question` for `user`; the last one is `complete` or
    `error`. Closing the generator cancels the work in flight."""
    started = time.perf_counter()
    try:
        question = check_question(question)
    except QuestionRejected as error:
        yield Event("error", {"message": str(error), "code": "bad_request"})
        return
    queue: asyncio.Queue[Event] = asyncio.Queue()
    ctx = RunContext(
        user=user,
        question=question,
        history=list(history)[-settings.MAX_CONVERSATION_MESSAGES :],
        attachments=list(attachments),
        session_id=session_id,
        emit=queue_emitter(queue),
    )
    run = asyncio.create_task(_run(workflow or settings.ORCHESTRATOR_CHAT_WORKFLOW, ctx))
    tokens = 0
    first_token_ms: float | None = None
    decision: dict[str, Any] = {}
    try:
        while True:
            getter = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait({getter, run}, return_when=asyncio.FIRST_COMPLETED)
            if getter in done:
                event = getter.result()
                if event.name == "token":
                    tokens += 1
                    if first_token_ms is None:
                        first_token_ms = _ms_since(started)
                elif event.name == "route_decision":
                    decision = event.data
                yield event
                continue
            getter.cancel()
            while not queue.empty():  # events sent just before the run ended
                event = queue.get_nowait()
                tokens += event.name == "token"
                yield event
            break
        outcome = run.result()
    except asyncio.CancelledError:
        raise
    except Exception as error:
        logger.exception("the orchestrator failed on a question")
        yield _error_event(error)
        return
    finally:
        if not run.done():
            run.cancel()
    stats = {
        "latency_ms": _ms_since(started),
        "first_token_ms": first_token_ms,
        "tokens": tokens,
        "steps": outcome.steps,
    }
    yield _last_event(outcome, stats, decision)


async def _run(slug: str, ctx: RunContext) -> Any:
    from chat.orchestrator.executor import run_workflow
    from chat.orchestrator.workflow import load_workflow

    # A pool thread's connection goes back to the pool after the call, as a request's does.
    spec = await database_sync_to_async(load_workflow, thread_sensitive=False)(slug)
    state: dict[str, Any] = {
        "question": ctx.question,
        "history": [dataclasses.asdict(turn) for turn in ctx.history],
        "attachments": list(ctx.attachments),
    }
    return await run_workflow(spec, state, ctx)


def _last_event(run: Any, stats: dict[str, Any], decision: dict[str, Any]) -> Event:
    """`complete` with the answer and what became of the question, or `error`."""
    answer = run.state.get("answer")
    if not isinstance(answer, dict) or "content" not in answer:
        reason = run.stopped_reason or "the workflow ended without an answer"
        return Event("error", {"message": f"No answer: {reason}.", "code": "internal"})
    return Event(
        "complete",
        {
            "outcome": str(answer.get("outcome") or Outcome.ANSWERED),
            "answer": answer,
            "stats": stats,
            "trace": [_plain(entry) for entry in run.trace],
            "route_decision": decision,
        },
    )


def _error_event(error: Exception) -> Event:
    from sqlagent.services import WarehouseUnavailable

    if isinstance(error, WarehouseUnavailable | ConnectionError):
        return Event(
            "error", {"message": "A service the answer needs is down.", "code": "unavailable"}
        )
    return Event(
        "error", {"message": "Something went wrong; nothing was lost.", "code": "internal"}
    )


def _plain(entry: Any) -> Any:
    if dataclasses.is_dataclass(entry) and not isinstance(entry, type):
        return dataclasses.asdict(entry)
    return entry


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
