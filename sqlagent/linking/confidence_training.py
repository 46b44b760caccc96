"""Fitting the linked planner's confidence model from `eval_sql` reports.

The reports come from runs with every linked plan executed (SQL_LINKED_MIN_CONFIDENCE=0),
so each linked answer is a labelled example: its evidence, and whether it was right. Only
questions of development databases train (`registries.services.spider_split`; a question
without a database counts as development). The threshold is the one that maximises
right answers minus `cost` times wrong ones on those questions: a wrong answer costs more
than a decline.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import mean, pstdev
from typing import Any

from registries.services import spider_split
from sqlagent.linking import confidence

FEATURES = (
    "unexplained_share", "unexplained", "min_score", "mean_score", "ambiguous",
    "guessed_values", "tables", "conditions", "outputs", "grouped", "counted", "missing",
    "ordered", "guessed_label", "unexplained_signals", "stray_columns", "unnamed_tables",
)  # fmt: skip
C = 0.5  # regularisation: a few thousand examples, features that overlap


@dataclass(frozen=True)
class Example:
    db: str
    features: dict[str, float]
    right: bool

    @property
    def split(self) -> str:
        return spider_split(self.db) if self.db else "dev"


def examples(reports: Iterable[dict[str, Any]]) -> list[Example]:
    found = []
    for report in reports:
        for line in report["questions"]:
            evidence = (line.get("linking") or {}).get("evidence")
            if line.get("generator") != "linked" or not evidence:
                continue
            if line["verdict"] in ("correct", "wrong"):
                found.append(Example(line.get("db") or "", evidence, line["verdict"] == "correct"))
    return found


def fit(train: Sequence[Example], *, cost: float) -> dict[str, Any]:
    from sklearn.linear_model import LogisticRegression

    columns = list(zip(*([e.features.get(n, 0.0) for n in FEATURES] for e in train), strict=True))
    scale = {
        n: [round(mean(c), 6), round(pstdev(c) or 1.0, 6)]
        for n, c in zip(FEATURES, columns, strict=True)
    }
    x = [[(e.features.get(n, 0.0) - scale[n][0]) / scale[n][1] for n in FEATURES] for e in train]
    regression = LogisticRegression(C=C, max_iter=2000)
    regression.fit(x, [int(e.right) for e in train])
    fitted: dict[str, Any] = {
        "features": list(FEATURES),
        "scale": scale,
        "weights": {
            n: round(float(w), 6) for n, w in zip(FEATURES, regression.coef_[0], strict=True)
        },
        "bias": round(float(regression.intercept_[0]), 6),
    }
    scored = [(confidence.probability(e.features, fitted), e.right) for e in train]
    fitted["threshold"] = round(best_threshold(scored, cost=cost), 4)
    fitted["trained_on"] = {
        "examples": len(train),
        "right": sum(e.right for e in train),
        "cost": cost,
    }
    return fitted


def best_threshold(scored: Sequence[tuple[float, bool]], *, cost: float) -> float:
    """The cut maximising right minus cost x wrong among the answers at or above it."""
    best, best_gain = 1.0, 0.0
    for cut in sorted({p for p, _ in scored}):
        kept = [right for p, right in scored if p >= cut]
        gain = sum(kept) - cost * (len(kept) - sum(kept))
        if gain > best_gain:
            best, best_gain = cut, gain
    return best


def figures(scored: Sequence[tuple[float, bool]], cut: float) -> dict[str, float]:
    kept = [right for p, right in scored if p >= cut]
    return {"examples": len(scored), "answered": len(kept), "right": sum(kept),
            "wrong": len(kept) - sum(kept)}  # fmt: skip
