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

from core.boosted_trees import fit_trees
from core.calibration import best_threshold, probability
from registries.services import spider_split
from sqlagent.linking.confidence import PLAN_FEATURES, RESULT_FEATURES

FEATURES = (*PLAN_FEATURES, *RESULT_FEATURES)


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
    """Boosted trees over the evidence; the threshold is chosen on out-of-fold scores
    (each database's questions scored by trees grown without that database), since the
    trees score the questions they were grown on higher than new ones."""
    fitted = fit_trees([e.features for e in train], [e.right for e in train], FEATURES)
    scored = list(zip(out_of_fold(train), (e.right for e in train), strict=True))
    fitted["threshold"] = round(best_threshold(scored, cost=cost), 4)
    fitted["trained_on"] = {
        "examples": len(train),
        "right": sum(e.right for e in train),
        "cost": cost,
    }
    return fitted


def out_of_fold(train: Sequence[Example], folds: int = 5, repeats: int = 3) -> list[float]:
    """Each example's probability from trees fitted on the other folds, the folds split by
    database so that no database is scored by trees that saw it; averaged over `repeats`
    different splits, since one split's scores move the chosen threshold by chance."""
    from sklearn.model_selection import GroupKFold

    scores = [0.0] * len(train)
    for seed in range(repeats):
        split = GroupKFold(folds, shuffle=True, random_state=seed)
        for fold_train, fold_test in split.split(train, groups=[e.db for e in train]):
            part = [train[i] for i in fold_train]
            fitted = fit_trees([e.features for e in part], [e.right for e in part], FEATURES)
            for i in fold_test:
                scores[i] += probability(train[i].features, fitted) / repeats
    return scores
