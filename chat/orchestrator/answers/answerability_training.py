"""Fitting the answerability model on the development half of labelled question sets.

Each question is searched as the chat's document_search tool searches it, for the given
user; its features are computed as the answer writer computes them; the label says whether
the documents answer it (`expect: answer` with a document source). A logistic regression
(scikit-learn) is fitted on the development half only, and its threshold is the one that
does best on that half by the worse of the two rates (unanswerable questions declined,
answerable ones answered): neither kind is traded away for the other.
"""

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chat.orchestrator.answer_evaluation import split_of
from chat.orchestrator.answers import answerability, extractive
from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.documents import search_documents
from core.calibration import fit_logistic
from retrieval.services import keyword_evidence, readable_collection_ids

C = 0.3  # regularisation: few questions, several correlated features


@dataclass(frozen=True)
class Labelled:
    question: str
    answerable: bool  # the documents answer it
    split: str  # dev | held-out

    @classmethod
    def from_line(cls, row: dict[str, Any]) -> "Labelled | None":
        """None for questions of the business database: they are not the documents' to
        answer or decline (the SQL agent declines its own)."""
        question = str(row["question"]).strip()
        if row.get("source") == "database":
            return None
        return cls(question, row["expect"] == "answer", split_of(question))


def read_sets(paths: Iterable[Path]) -> list[Labelled]:
    rows: list[Labelled] = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            labelled = Labelled.from_line(json.loads(line)) if line.strip() else None
            if labelled is not None:
                rows.append(labelled)
    return rows


def features_of(question: str, user: Any) -> dict[str, float]:
    ctx = RunContext(user=user, question=question)
    search = search_documents({"query": question}, ctx)
    results = list(search.get("results") or [])
    scored = extractive.score_sentences(question, results) if results else []
    keywords = keyword_evidence(question, readable_collection_ids(user))
    found, _ = answerability.evidence(question, results, scored, keywords)
    return found


def fit(rows: Sequence[tuple[Labelled, dict[str, float]]]) -> dict[str, Any]:
    """The model file's content, fitted and thresholded on the dev rows. Every weight points
    the way its evidence does (more coverage never lowers the probability, a word no
    document holds never raises it)."""
    dev = [(r, f) for r, f in rows if r.split == "dev"]
    fitted = fit_logistic(
        [f for _, f in dev],
        [r.answerable for r, _ in dev],
        answerability.FEATURES,
        c=C,
        signs=answerability.SIGNS,
        balanced=True,
    )
    scored = [(answerability.probability(f, fitted), r.answerable) for r, f in dev]
    fitted["threshold"] = round(best_threshold(scored), 4)
    answerable = sum(r.answerable for r, _ in dev)
    fitted["trained_on"] = {"dev_questions": len(dev), "answerable": answerable}
    return fitted


def best_threshold(scored: Sequence[tuple[float, bool]]) -> float:
    """The cut that maximises the worse of the two rates (ties: the lower cut)."""
    best, best_rate = 0.5, -1.0
    for cut in sorted({p for p, _ in scored}):
        rate = min(rates(scored, cut))
        if rate > best_rate:
            best, best_rate = cut, rate
    return best


def rates(scored: Sequence[tuple[float, bool]], cut: float) -> tuple[float, float]:
    """(share of answerable ones at or above the cut, share of the others below it)."""
    yes = [p for p, answerable in scored if answerable]
    no = [p for p, answerable in scored if not answerable]
    answered = sum(p >= cut for p in yes) / len(yes) if yes else 1.0
    declined = sum(p < cut for p in no) / len(no) if no else 1.0
    return answered, declined
