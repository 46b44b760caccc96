"""Fits the learned fusion's weights on the development half of labelled question sets.

Each development question is searched with the weighted fusion; among its first
`PAIR_DEPTH` candidates, the best chunk of every relevant document is paired with the best
chunk of every other document, and a logistic regression without bias learns, from the
difference of their evidence, which of the two comes first. Both orders of each pair are
used, so the model has no preference of its own. Evidence that only ever counts for a
candidate must not count against it: a feature whose weight comes out below 0 (an
artefact of features that move together) is dropped and the rest refitted.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.calibration import fit_logistic

from ..fusion import FEATURES
from ..search import graphrag_search
from ..search.learned_ranking import features
from .metrics import distinct, mean, score_question
from .runner import DEPTH, Question

PAIR_DEPTH = 30  # the candidates the weighted fusion ranks first: where the order matters
C = 0.1


@dataclass
class Example:
    """One question's candidates, best first by the weighted fusion."""

    question: str
    relevant: frozenset[str]
    files: list[str]
    evidence: list[dict[str, float]]
    weighted: list[float]


def collect(questions: Sequence[Question], *, user: Any, collection: str | None) -> list[Example]:
    examples = []
    for q in questions:
        outcome = graphrag_search(
            q.question, user=user, collection=collection, top_k=DEPTH, record_trace=False,
            fusion="weighted",
        )  # fmt: skip
        found = features(outcome.candidates, q.question)
        examples.append(
            Example(
                question=q.question,
                relevant=frozenset(q.relevant_documents),
                files=[str(c.row.get("file_name")) for c in outcome.candidates],
                evidence=[found[c.chunk_id] for c in outcome.candidates],
                weighted=[c.hybrid_score for c in outcome.candidates],
            )
        )
    return examples


def _best_per_document(example: Example, indexes: range) -> dict[str, int]:
    best: dict[str, int] = {}
    for i in indexes:
        best.setdefault(example.files[i], i)
    return best


def pairs(examples: Sequence[Example]) -> tuple[list[dict[str, float]], list[bool]]:
    rows: list[dict[str, float]] = []
    labels: list[bool] = []
    for example in examples:
        best = _best_per_document(example, range(min(PAIR_DEPTH, len(example.files))))
        relevant = [i for name, i in best.items() if name in example.relevant]
        others = [i for name, i in best.items() if name not in example.relevant]
        for i in relevant:
            for j in others:
                up, down = example.evidence[i], example.evidence[j]
                difference = {name: up[name] - down[name] for name in FEATURES}
                rows += [difference, {name: -value for name, value in difference.items()}]
                labels += [True, False]
    return rows, labels


def fit(examples: Sequence[Example]) -> dict[str, Any]:
    rows, labels = pairs(examples)
    if not rows:
        raise ValueError("no pair to learn from: no development question found a relevant document")
    signs = dict.fromkeys(FEATURES, 1)
    fitted = fit_logistic(rows, labels, FEATURES, c=C, signs=signs)
    fitted["trained_on"] = {"questions": len(examples), "pairs": len(rows) // 2}
    return fitted


def ranking_figures(
    examples: Sequence[Example], score: Callable[[dict[str, float]], float] | None = None
) -> dict[str, float]:
    """Mean metrics of the examples ranked by `score(evidence)`, or as the weighted fusion
    ranked them."""
    rows = []
    for example in examples:
        order = list(range(len(example.files)))
        if score is not None:
            order.sort(key=lambda i: -score(example.evidence[i]))
        ranked = distinct([example.files[i] for i in order])
        rows.append(score_question(ranked, example.relevant))
    return {name: round(value, 3) for name, value in mean(rows).items()}
