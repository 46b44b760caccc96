"""Routing accuracy on a labelled question set: overall and per route, the confusion
matrix, every misrouted question with the router's reasons, and routing time.

A set is JSON Lines, one question a line:
`{"question": ..., "route": ..., "history"?: [{"role", "content", "route"?, "data"?}],
"attachments"?: [paths], "note"?: ...}`.
"""

import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from chat.orchestrator.context import Turn
from chat.orchestrator.question_files import QuestionFileError, read_objects
from chat.orchestrator.routing import ROUTES, route_question


@dataclass(frozen=True)
class LabelledQuestion:
    question: str
    route: str
    history: tuple[Turn, ...] = ()
    attachments: tuple[str, ...] = ()
    note: str = ""


@dataclass
class Misrouted:
    question: str
    expected: str
    got: str
    confidence: float
    reasons: list[str]
    follow_up: str | None  # the standalone rewrite, when read as a follow-up
    note: str = ""


@dataclass
class RoutingReport:
    questions: int
    correct: int
    per_route: dict[str, dict[str, float]]  # route -> questions, correct, accuracy
    confusion: dict[str, dict[str, int]]  # expected -> got -> count
    misrouted: list[Misrouted] = field(default_factory=list)
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    max_ms: float = 0.0
    follow_ups: dict[str, int] = field(default_factory=dict)  # questions with history

    @property
    def accuracy(self) -> float:
        return self.correct / self.questions if self.questions else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "accuracy": round(self.accuracy, 4)}


def load_questions(path: Path) -> list[LabelledQuestion]:
    return [_labelled(row, where) for where, row in read_objects(path)]


def _labelled(row: dict[str, Any], where: str) -> LabelledQuestion:
    question, route = row.get("question"), row.get("route")
    if not isinstance(question, str) or not question.strip():
        raise QuestionFileError(f"{where}: 'question' must be a non-empty string")
    if route not in ROUTES:
        raise QuestionFileError(f"{where}: 'route' must be one of {', '.join(ROUTES)}")
    history = row.get("history") or []
    if not isinstance(history, list):
        raise QuestionFileError(f"{where}: 'history' must be a list of turns")
    turns = []
    for i, turn in enumerate(history):
        if (
            not isinstance(turn, dict)
            or turn.get("role") not in ("user", "assistant")
            or not isinstance(turn.get("content"), str)
            or not isinstance(turn.get("data", {}), dict)
        ):
            raise QuestionFileError(
                f"{where}: history[{i}] needs 'role' (user or assistant), 'content' and an "
                "optional 'data' object"
            )
        turns.append(
            Turn(turn["role"], turn["content"], turn.get("route") or "", turn.get("data") or {})
        )
    attachments = row.get("attachments") or []
    if not isinstance(attachments, list) or not all(isinstance(a, str) for a in attachments):
        raise QuestionFileError(f"{where}: 'attachments' must be a list of paths")
    return LabelledQuestion(
        question, route, tuple(turns), tuple(attachments), str(row.get("note") or "")
    )


def evaluate(questions: Sequence[LabelledQuestion], *, user: Any) -> RoutingReport:
    """Route every question as `user` (whose documents count). The first question is routed
    once before timing, so model loading and caches are not counted as routing time."""
    route_question(questions[0].question, questions[0].history, user=user)
    confusion = {expected: dict.fromkeys(ROUTES, 0) for expected in ROUTES}
    misrouted: list[Misrouted] = []
    times: list[float] = []
    follow_ups = {"questions": 0, "correct": 0}
    for item in questions:
        started = time.perf_counter()
        decision = route_question(
            item.question, item.history, attachments=item.attachments, user=user
        )
        times.append((time.perf_counter() - started) * 1000)
        confusion[item.route][decision.route] += 1
        if item.history:
            follow_ups["questions"] += 1
            follow_ups["correct"] += decision.route == item.route
        if decision.route != item.route:
            misrouted.append(
                Misrouted(
                    item.question, item.route, decision.route, decision.confidence,
                    decision.reasons,
                    decision.follow_up.question if decision.follow_up else None, item.note,
                )
            )  # fmt: skip
    per_route = {}
    for route in ROUTES:
        total = sum(confusion[route].values())
        if total:
            right = confusion[route][route]
            per_route[route] = {"questions": total, "correct": right, "accuracy": right / total}
    ordered = sorted(times)
    return RoutingReport(
        questions=len(questions),
        correct=sum(confusion[r][r] for r in ROUTES),
        per_route=per_route,
        confusion=confusion,
        misrouted=misrouted,
        p50_ms=round(statistics.median(ordered), 1),
        p95_ms=round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
        max_ms=round(ordered[-1], 1),
        follow_ups=follow_ups,
    )


def format_report(report: RoutingReport) -> str:
    lines = [
        f"questions: {report.questions}   accuracy: {report.accuracy:.1%} "
        f"({report.correct}/{report.questions})",
        f"routing time: p50 {report.p50_ms} ms, p95 {report.p95_ms} ms, max {report.max_ms} ms",
    ]
    if report.follow_ups.get("questions"):
        lines.append(
            f"with history: {report.follow_ups['correct']}/{report.follow_ups['questions']}"
        )
    lines += ["", "per route:"]
    for route, figures in report.per_route.items():
        lines.append(
            f"  {route:<14} {figures['accuracy']:6.1%}  "
            f"({int(figures['correct'])}/{int(figures['questions'])})"
        )
    shown = [r for r in ROUTES if r in report.per_route or any(
        report.confusion[e][r] for e in ROUTES)]  # fmt: skip
    width = max(len(r) for r in ROUTES) + 2
    lines += ["", "confusion (rows: expected, columns: routed to):"]
    lines.append(" " * width + "".join(f"{r[:6]:>8}" for r in shown))
    for expected in shown:
        lines.append(
            f"{expected:<{width}}" + "".join(f"{report.confusion[expected][r]:>8}" for r in shown)
        )
    if report.misrouted:
        lines += ["", f"misrouted ({len(report.misrouted)}):"]
        for miss in report.misrouted:
            lines.append(
                f"- {miss.question!r}: expected {miss.expected}, got {miss.got} "
                f"({miss.confidence:.2f})"
            )
            if miss.follow_up:
                lines.append(f"    read as: {miss.follow_up!r}")
            lines.extend(f"    {reason}" for reason in miss.reasons)
    return "\n".join(lines)
