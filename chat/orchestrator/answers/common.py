"""What every answer writer shares: the answer's shape, streaming text as `token` events,
a model's streamed reply, and example questions for people who need a starting point."""

import logging
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from chat.models import DisplayFormat, Outcome, RouteExample
from chat.orchestrator.context import RunContext
from core.providers import llm
from core.providers.llm import ChatCompletionMessageParam

logger = logging.getLogger(__name__)


def answer(
    *,
    route: str,
    content: str,
    display_format: str = DisplayFormat.TEXT,
    sources: Sequence[dict[str, Any]] = (),
    data: dict[str, Any] | None = None,
    follow_ups: Sequence[str] = (),
    outcome: str = Outcome.ANSWERED,
) -> dict[str, Any]:
    """The answer as the `complete` event carries it. `outcome` says what became of the
    question (answered, partial, not_found, declined, clarify)."""
    return {
        "content": content,
        "route": route,
        "outcome": str(outcome),
        "display_format": str(display_format),
        "sources": list(sources),
        "data": data or {},
        "follow_ups": list(follow_ups),
    }


def send_text(ctx: RunContext, pieces: Iterable[str]) -> str:
    """Stream each piece as it comes as a `token` event; return the whole text."""
    parts: list[str] = []
    for piece in pieces:
        if piece:
            ctx.send("token", channel="final", content=piece)
            parts.append(piece)
    return "".join(parts)


def send_lines(ctx: RunContext, lines: Sequence[str]) -> str:
    """Stream Markdown lines one by one ("" makes a blank line); return the text."""
    return send_text(ctx, [line if not i else f"\n{line}" for i, line in enumerate(lines)])


class ModelUnavailable(RuntimeError):
    """The model failed before it said anything: the caller may answer without it."""


def stream_model(ctx: RunContext, messages: list[ChatCompletionMessageParam]) -> str:
    """The model's reply, streamed piece by piece as it arrives. A failure before the first
    piece raises ModelUnavailable; after it, the text so far stands with a note."""
    pieces = llm.stream(messages, temperature=0.0)
    try:
        first = next(pieces, "")
    except Exception as error:  # each SDK has its own errors; none of them is ours
        logger.warning("the language model did not answer: %s", error)
        raise ModelUnavailable(str(error)[:300]) from error
    return send_text(ctx, _rest(first, pieces))


def _rest(first: str, pieces: Iterator[str]) -> Iterator[str]:
    yield first
    try:
        yield from pieces
    except Exception as error:
        logger.warning("the language model stopped mid-answer: %s", error)
        yield "\n\n_(The language model stopped before finishing this answer.)_"


def history_messages(ctx: RunContext, limit: int = 6) -> list[ChatCompletionMessageParam]:
    """The last turns as chat messages, for model answers that continue a conversation."""
    messages: list[ChatCompletionMessageParam] = []
    for turn in list(ctx.history)[-limit:]:
        if turn.role == "user":
            messages.append({"role": "user", "content": turn.content})
        elif turn.role == "assistant":
            messages.append({"role": "assistant", "content": turn.content})
    return messages


_WORD = re.compile(r"[a-z0-9]+")


def example_questions(route: str, question: str = "", *, limit: int = 3) -> list[str]:
    """Example questions of a route, those sharing most words with `question` first: the
    admin's RouteExample rows, or the shipped examples while there are none."""
    examples = list(
        RouteExample.objects.filter(route=route, enabled=True)
        .order_by("pk")
        .values_list("question", flat=True)[:200]
    )
    if not examples and not RouteExample.objects.exists():
        from chat.orchestrator.routing import shipped_examples

        examples = [text for kind, text in shipped_examples() if kind == route]
    words = set(_WORD.findall(question.lower()))

    def shared(text: str) -> int:
        return len(words & set(_WORD.findall(text.lower())))

    ranked = sorted(enumerate(examples), key=lambda item: (-shared(item[1]), item[0]))
    return [text for _, text in ranked[:limit]]
