"""What every step and tool of one run can see: who asks, what, the conversation so far,
and a thread-safe way to stream events (tools run in worker threads)."""

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chat.orchestrator.analysis import QuestionAnalysis
from chat.orchestrator.events import Event


@dataclass(frozen=True)
class Turn:
    """One earlier message of the conversation, as memory sees it."""

    role: str  # "user" | "assistant"
    content: str
    route: str = ""
    data: dict[str, Any] = field(default_factory=dict)  # the structured answer, if any


@dataclass
class RunContext:
    user: Any
    question: str
    history: Sequence[Turn] = ()
    attachments: Sequence[str] = ()  # paths of files uploaded with the question
    session_id: str | None = None
    emit: Callable[[Event], None] = field(default=lambda event: None, repr=False)
    # What the router read of the question, for the route that runs (read once a turn).
    analysis: QuestionAnalysis = field(default_factory=QuestionAnalysis, repr=False)

    def send(self, name: str, **data: Any) -> None:
        self.emit(Event(name, data))


def queue_emitter(queue: "asyncio.Queue[Event]") -> Callable[[Event], None]:
    """An emit callback that may be called from any thread and feeds an asyncio queue."""
    loop = asyncio.get_running_loop()

    def emit(event: Event) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, event)

    return emit
