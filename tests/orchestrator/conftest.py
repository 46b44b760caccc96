"""Fixtures of the orchestrator tests. None is autouse: ask for them by name."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from chat.orchestrator.breaker import CircuitBreaker
from chat.orchestrator.context import RunContext
from chat.orchestrator.events import Event

from . import engine_tools


class EventLog:
    """A RunContext emit callback that keeps every event."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def named(self, name: str) -> list[dict]:
        return [event.data for event in self.events if event.name == name]

    def text(self) -> str:
        """The answer as its `token` events streamed it."""
        return "".join(data["content"] for data in self.named("token"))


@pytest.fixture
def engine_events() -> EventLog:
    return EventLog()


@pytest.fixture
def engine_ctx(engine_events: EventLog) -> RunContext:
    """A run context whose events land in `engine_events`."""
    return RunContext(user=None, question="test question", emit=engine_events)


@pytest.fixture
def engine_tool_calls() -> Iterator[None]:
    """The `test_*` engine tools registered, with their call log and breakers cleared."""
    engine_tools.reset()
    names = ("test_fail", "test_crash", "test_sleepy", "test_flaky")
    for name in names:
        CircuitBreaker(name).reset()
    yield
    for name in names:
        CircuitBreaker(name).reset()


ROOT_DIR = Path(__file__).resolve().parents[2]
