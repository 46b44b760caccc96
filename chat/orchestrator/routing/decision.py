"""A route decision and the evidence it is made from: weights per route, each with the
reason it was added, turned into a confidence by a softmax over the scores."""

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from chat.models import Route
from chat.orchestrator.memory import FollowUp

ROUTES: tuple[str, ...] = tuple(Route.values)
SOFTMAX_TEMPERATURE = 0.12  # turns score gaps into a confidence; 0.1 apart ~ 70/30


@dataclass
class RouteDecision:
    route: str
    confidence: float  # 0..1
    reasons: list[str]
    scores: dict[str, float]
    follow_up: FollowUp | None = None
    method: str = "deterministic"  # or "llm"
    timings: dict[str, float] = field(default_factory=dict)  # ms per signal

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Evidence:
    """Weights per route, each with the reason it was added."""

    def __init__(self) -> None:
        self.scores = dict.fromkeys(ROUTES, 0.0)
        self.reasons: dict[str, list[tuple[float, str]]] = {route: [] for route in ROUTES}
        self.notes: list[str] = []  # what the decision had to do without, shown always

    def add(self, route: str, weight: float, reason: str) -> None:
        if weight > 0:
            self.scores[route] += weight
            self.reasons[route].append((weight, reason))


def decided(
    route: str, reasons: list[str], started: float, *, follow_up: FollowUp | None = None
) -> RouteDecision:
    """A decision no weighing was needed for (files attached, a follow-up, nothing asked)."""
    scores = {r: float(r == route) for r in ROUTES}
    return RouteDecision(
        str(route), 0.95, list(reasons), scores, follow_up, timings={"total": ms_since(started)}
    )


def decide(evidence: Evidence) -> RouteDecision:
    scores = {route: round(score, 3) for route, score in evidence.scores.items()}
    ranked = sorted(ROUTES, key=lambda r: -evidence.scores[r])
    best, second = ranked[0], ranked[1]
    top = max(evidence.scores.values())
    exps = {r: math.exp((evidence.scores[r] - top) / SOFTMAX_TEMPERATURE) for r in ROUTES}
    confidence = exps[best] / sum(exps.values())
    reasons = [reason for _, reason in sorted(evidence.reasons[best], key=lambda x: -x[0])][:5]
    if evidence.scores[second] > 0:
        reasons.append(f"next best: {second} ({scores[second]:.2f} against {scores[best]:.2f})")
    if not evidence.reasons[best]:
        reasons.insert(0, "no signal points anywhere")
    return RouteDecision(best, round(confidence, 3), reasons + evidence.notes, scores)


def ms_since(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)
