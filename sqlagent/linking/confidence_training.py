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
from typing import Any

from core.calibration import best_threshold, fit_logistic, probability
from registries.services import spider_split
from sqlagent.linking.confidence import RESULT_FEATURES

FEATURES = (
    "unexplained_share", "unexplained", "min_score", "mean_score", "ambiguous",
    "guessed_values", "tables", "conditions", "outputs", "grouped", "counted", "missing",
    "ordered", "guessed_label", "unexplained_signals", "stray_columns", "unnamed_tables",
    *RESULT_FEATURES,
)  # fmt: skip
C = 0.5  # regularisation: a few thousand examples, features that overlap
# Rows that are warning signs may only lower the confidence: a weight fitted the other way
# (no rows at all, which overlaps with few rows) is an artefact, dropped and refitted.
SIGNS = {"empty": -1, "at_limit": -1, "repeated_share": -1, "null_share": -1, "zero_only": -1}


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
    fitted = fit_logistic(
        [e.features for e in train], [e.right for e in train], FEATURES, c=C, signs=SIGNS
    )
    scored = [(probability(e.features, fitted), e.right) for e in train]
    fitted["threshold"] = round(best_threshold(scored, cost=cost), 4)
    fitted["trained_on"] = {
        "examples": len(train),
        "right": sum(e.right for e in train),
        "cost": cost,
    }
    return fitted
