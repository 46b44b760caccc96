"""How likely a linked plan is right, from its evidence: how much of the question it
explains, how sure and how ambiguous its links are, and how much it had to compose.

A logistic model over these features (`confidence.json`) is fitted on the development half
of a labelled set (`manage.py train_sql_confidence`, from `eval_sql` reports): its threshold
is the lowest probability whose answers on development data were wrong at most
`MAX_WRONG_SHARE` of the time.
"""

import json
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from core.calibration import probability
from sqlagent.linking.chosen import Chosen
from sqlagent.linking.intent import Intent
from sqlagent.linking.question import Word
from sqlagent.linking.signals import SHAPE_WORDS

MODEL = Path(__file__).with_name("confidence.json")
# Without a fitted model: a plan that explains every word with sure links is tried.
FALLBACK = {"weights": {"unexplained_share": -6.0, "min_score": 3.0, "ambiguous": -1.0},
            "bias": -1.0, "threshold": 0.5, "scale": {}}  # fmt: skip


@dataclass(frozen=True)
class Evidence:
    unexplained_share: float  # content words no link or signal explains, of all content words
    unexplained: float
    min_score: float  # the weakest link the plan uses
    mean_score: float
    ambiguous: float  # links with a rival meaning as likely
    guessed_values: float  # values read from plain lower-case words
    tables: float
    conditions: float
    outputs: float
    grouped: float
    counted: float  # HAVING or ORDER BY a count
    missing: float
    ordered: float
    guessed_label: float = 0.0  # the rows are shown by a column that does not name them
    unexplained_signals: float = 0.0  # shape words ("most", "each", "not") left unread
    stray_columns: float = 0.0  # columns of tables the question does not name
    unnamed_tables: float = 0.0  # tables joined that the question does not name
    unplaced: tuple[str, ...] = ()  # literals the plan does not use (not a feature)

    @property
    def unplaced_literals(self) -> tuple[str, ...]:
        return self.unplaced

    def features(self) -> dict[str, float]:
        found = asdict(self)
        found.pop("unplaced")
        return found

    @classmethod
    def of(cls, words: tuple[Word, ...], chosen: Chosen, intent: Intent) -> "Evidence":
        covered = {i for c in chosen.choices for i in range(c.start, c.end)} | intent.used
        content = [i for i, w in enumerate(words) if w.content]
        unexplained = [i for i in content if i not in covered]
        scores = [c.link.score for c in chosen.choices] or [0.0]
        named = set(chosen.tables)
        unplaced = tuple(
            w.text for i, w in enumerate(words) if (w.quoted or (w.number is not None and
                                                    w.lower[:1].isdigit())) and i not in covered
        )  # fmt: skip
        return cls(
            unexplained_share=len(unexplained) / max(1, len(content)),
            unexplained=float(len(unexplained)),
            min_score=min(scores),
            mean_score=sum(scores) / len(scores),
            ambiguous=float(sum(1 for c in chosen.choices if c.alternatives)),
            guessed_values=float(
                sum(1 for c in chosen.choices if c.is_value and c.link.score < 0.9)
            ),
            tables=float(len(intent.tables)),
            conditions=float(len(intent.conditions) + len(intent.both)),
            outputs=float(len(intent.outputs)),
            grouped=float(intent.group is not None),
            counted=float(
                intent.having is not None
                or bool(intent.order and intent.order.aggregate == "count")
            ),
            missing=float(intent.missing is not None),
            ordered=float(intent.order is not None),
            guessed_label=float(intent.guessed_label),
            unexplained_signals=float(sum(1 for i in unexplained if words[i].lower in SHAPE_WORDS)),
            stray_columns=float(
                sum(1 for c in chosen.choices if named and not c.is_table and c.table not in named)
            ),
            unnamed_tables=float(len(set(intent.tables) - named)),
            unplaced=unplaced,
        )


@cache
def model() -> dict[str, Any]:
    try:
        return dict(json.loads(MODEL.read_text()))
    except (OSError, ValueError):
        return FALLBACK


def weigh(evidence: Evidence) -> float:
    return round(probability(evidence.features(), model()), 4)


def threshold() -> float:
    configured = settings.SQL_LINKED_MIN_CONFIDENCE
    return float(model()["threshold"] if configured is None else configured)
