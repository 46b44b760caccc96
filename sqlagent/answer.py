"""What the SQL agent hands back: the answer, the SQL and rows it rests on, and how it got
there (tables and why, join path, per-step timings, a trace of the steps)."""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["answered", "empty", "declined", "error"]


@dataclass
class StepEvent:
    step: str  # terms, resolution, tables, joins, generation, rewrite, validation, ...
    status: Literal["start", "end", "error"]
    elapsed_ms: float = 0.0
    detail: dict[str, Any] = field(default_factory=dict)


EventSink = Callable[[StepEvent], None]


@dataclass(frozen=True)
class Turn:
    """An earlier question of the conversation and the SQL that answered it."""

    question: str
    sql: str | None = None


@dataclass
class Attempt:
    sql: str
    error: str | None = None
    repaired_by: str | None = None  # "deterministic" or "llm", for attempts after the first


@dataclass
class SqlAnswer:
    question: str
    status: Status = "declined"
    answer: str = ""  # in words
    reason: str = ""  # why declined or failed
    sql: str | None = None
    dialect: str = "mysql"
    data_source: str = ""  # the data source asked, by name
    generator: Literal["compiler", "linked", "llm", "verified", ""] = ""
    # The verified query reused, when the question rewords one: {"id", "question", "url", ...}
    verified: dict[str, Any] | None = None
    logical_sql: str | None = None  # the SQL that ran, over the tables the agent shows
    tables: list[dict[str, str]] = field(default_factory=list)  # {"table", "reason"}
    join_path: list[str] = field(default_factory=list)  # "a.x = b.id"
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    truncated: bool = False
    loosened: list[str] = field(default_factory=list)  # filters relaxed after an empty result
    follow_ups: list[str] = field(default_factory=list)
    # When declined: what was understood, the words nothing explained, known terms near them.
    understood: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    nearby: list[str] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # step -> ms
    trace: list[dict[str, Any]] = field(default_factory=list)
    plan: Any = field(default=None, repr=False)  # the QueryPlan, for follow-up questions

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("plan")
        return data


class StepClock:
    """Times each step into the answer and tells a listener as steps start and end."""

    def __init__(self, answer: SqlAnswer, on_event: EventSink | None) -> None:
        self.answer = answer
        self.on_event = on_event
        self.started = time.perf_counter()

    def emit(self, event: StepEvent) -> None:
        self.answer.trace.append(asdict(event))
        if self.on_event:
            self.on_event(event)

    @contextmanager
    def step(self, name: str, **detail: Any) -> Iterator[dict[str, Any]]:
        """The dict yielded collects what the step wants in its end event."""
        self.emit(StepEvent(name, "start", detail=detail))
        began = time.perf_counter()
        out: dict[str, Any] = {}
        try:
            yield out
        except Exception as error:
            elapsed = round((time.perf_counter() - began) * 1000, 2)
            self.answer.timings[name] = self.answer.timings.get(name, 0.0) + elapsed
            self.emit(StepEvent(name, "error", elapsed, {"error": str(error)[:500]}))
            raise
        elapsed = round((time.perf_counter() - began) * 1000, 2)
        self.answer.timings[name] = round(self.answer.timings.get(name, 0.0) + elapsed, 2)
        self.emit(StepEvent(name, "end", elapsed, out))

    def finish(self) -> None:
        self.answer.timings["total"] = round((time.perf_counter() - self.started) * 1000, 2)
