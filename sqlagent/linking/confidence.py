"""How likely a linked plan is right, from its evidence: how much of the question it
explains, how sure and how ambiguous its links are, and how much it had to compose.

The plan is run, and what its rows look like is evidence too (`ResultEvidence`: none, rows
that repeat, every row at the limit). A logistic model over both (`confidence.json`) is
fitted on development databases only (`manage.py train_sql_confidence`, from `eval_sql`
reports), with its threshold: the one that maximises right answers minus `--cost` times
wrong ones on those databases.
"""

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from itertools import pairwise, product
from pathlib import Path
from typing import Any

from django.conf import settings

from core.boosted_trees import tree_upper_bound
from core.calibration import feature_mean, probability
from core.language import bare_states, is_modifier, is_noun, word_tags
from sqlagent.linking.chosen import Chosen
from sqlagent.linking.intent import Intent
from sqlagent.linking.question import Word
from sqlagent.linking.signals import (
    DETERMINERS,
    EXCLUSIONS,
    GROUP_WORDS,
    NEGATIONS,
    ROW_NOUNS,
    SHAPE_WORDS,
    phrase_at,
)

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
    unexplained_nouns: float = 0.0  # of the unexplained words, nouns ("unicorns")
    unexplained_modifiers: float = 0.0  # and adjectives ("active", "pink")
    unread_groups: float = 0.0  # "for each", "per" that no grouping was read from
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
        if intent.count_of and all(words[i].lower in ROW_NOUNS for i in intent.count_of):
            covered |= set(intent.count_of)  # "how many times", "the number of records"
        content = [i for i, w in enumerate(words) if w.content]
        unexplained = [i for i in content if i not in covered]
        scores = [c.link.score for c in chosen.choices] or [0.0]
        named = set(chosen.tables)
        # Quoted text, numbers and names ("Texas") the plan does not use: a value not found.
        unplaced = tuple(
            w.text for i, w in enumerate(words) if (w.quoted or w.capitalised or (
                w.number is not None and w.lower[:1].isdigit())) and i not in covered
        )  # fmt: skip
        tags = word_tags(tuple(w.text for w in words))
        # "which parts have been discontinued": a state said of the rows that nothing reads
        unplaced += tuple(words[i].text for i in _bare_states(words) if i not in covered)
        unplaced += tuple(words[i].text for i in _listed_with_shown(words, tags, chosen, intent))
        # "chip models that do not have wifi": a negation the reading does not use would
        # answer the opposite question
        unplaced += tuple(words[i].text for i in _unread_negations(words, intent))
        lows = [w.lower for w in words]
        groups = [i for i in range(len(words)) if phrase_at(lows, i, GROUP_WORDS)]
        counted = intent.count_of  # "how many pink unicorns": things the schema does not hold
        if counted and covered.isdisjoint(counted) and all(_a_noun(words[i]) for i in counted):
            unplaced += (" ".join(words[i].text for i in counted),)
        else:  # "how many technitians completed work orders": what is counted, unread
            head = next((i for i in counted if _a_noun(words[i]) and is_noun(tags[i])), None)
            if head is not None and head not in covered:
                unplaced += (words[head].text,)
        # "for each wibble": a grouping by something the schema does not hold (nothing
        # named in the next words either: "each set of payment terms" is by the terms)
        grouped_by = sorted({i + phrase_at(lows, i, GROUP_WORDS) for i in groups})
        unplaced += tuple(
            words[i].text
            for i in grouped_by
            if i < len(words) and words[i].content and is_noun(tags[i])
            and covered.isdisjoint(range(i, i + 4))
        )  # fmt: skip
        return cls(
            unexplained_share=len(unexplained) / max(1, len(content)),
            unexplained=float(len(unexplained)),
            min_score=min(scores),
            mean_score=sum(scores) / len(scores),
            ambiguous=float(sum(1 for c in chosen.choices if c.alternatives)),
            guessed_values=float(
                sum(1 for c in chosen.choices if c.is_value and c.link.score < 0.9)
                + intent.guessed_values
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
            unexplained_nouns=float(sum(1 for i in unexplained if is_noun(tags[i]))),
            unexplained_modifiers=float(sum(1 for i in unexplained if is_modifier(tags[i]))),
            unread_groups=float(intent.group is None and any(i not in covered for i in groups)),
            unplaced=unplaced,
        )


@dataclass(frozen=True)
class ResultEvidence:
    """What the rows of a linked plan say of it: a wrong join repeats rows, a condition
    on the wrong column finds none, a missing aggregate lists every row."""

    empty: float
    one_row: float
    at_limit: float  # more rows than the answer may show
    repeated_share: float  # rows that repeat an earlier row, of all rows
    null_share: float  # empty cells, of all cells
    zero_only: float  # one row of zeros and empty cells
    log_rows: float

    @classmethod
    def of(cls, rows: Sequence[Sequence[Any]], truncated: bool) -> "ResultEvidence":
        cells = [value for row in rows for value in row]
        first = rows[0] if rows else ()
        return cls(
            empty=float(not rows),
            one_row=float(len(rows) == 1),
            at_limit=float(truncated),
            repeated_share=1 - len({tuple(map(str, r)) for r in rows}) / max(1, len(rows)),
            null_share=sum(v is None for v in cells) / max(1, len(cells)),
            zero_only=float(len(rows) == 1 and all(v in (0, None) for v in first)),
            log_rows=math.log1p(len(rows)),
        )

    def features(self) -> dict[str, float]:
        return asdict(self)

    def caution(self) -> str:
        """The result's warning sign in words, for a decline's reason."""
        if self.empty:
            return "it found no rows"
        if self.repeated_share >= 0.2:
            return "its rows repeat, as a wrong join's do"
        return ""


RESULT_FEATURES = tuple(ResultEvidence.__dataclass_fields__)
PLAN_FEATURES = tuple(f for f in Evidence.__dataclass_fields__ if f != "unplaced")


@cache
def model() -> dict[str, Any]:
    try:
        return dict(json.loads(MODEL.read_text()))
    except (OSError, ValueError):
        return FALLBACK


def weigh(evidence: Evidence, result: ResultEvidence | None = None) -> float:
    """The plan's probability of being right; before its rows are known, evidence about
    them counts as neutral (each at the development data's mean)."""
    fitted = model()
    features = evidence.features()
    if result is not None:
        features.update(result.features())
    else:
        for name in RESULT_FEATURES:
            features[name] = feature_mean(fitted, name)
    return round(probability(features, fitted), 4)


def _row_profiles() -> Iterator[dict[str, float]]:
    """Every kind of result rows can be, each figure at the ends of its range: none, one
    row, several up to more than the answer may show."""
    yield {"empty": 1.0, "log_rows": 0.0}
    for nulls, zeros in product((0.0, 1.0), (0.0, 1.0)):
        yield {"one_row": 1.0, "null_share": nulls, "zero_only": zeros, "log_rows": math.log(2)}
    limit = settings.MAX_QUERY_ROWS + 1
    for cut, repeated, nulls, size in product(
        (0.0, 1.0), (0.0, 1.0), (0.0, 1.0), (math.log(3), math.log1p(limit))
    ):
        yield {"at_limit": cut, "repeated_share": repeated, "null_share": nulls, "log_rows": size}


def best_case(evidence: Evidence) -> float:
    """The highest confidence any rows could give this reading: below the threshold, it
    is not worth running."""
    fitted = model()
    plan = evidence.features()
    if fitted.get("kind") == "trees":
        return round(tree_upper_bound(plan, fitted, frozenset(RESULT_FEATURES)), 4)
    neutral = dict.fromkeys(RESULT_FEATURES, 0.0)
    return round(
        max(probability({**plan, **neutral, **rows}, fitted) for rows in _row_profiles()), 4
    )


def threshold() -> float:
    configured = settings.SQL_LINKED_MIN_CONFIDENCE
    return float(model()["threshold"] if configured is None else configured)


def _a_noun(word: Word) -> bool:
    """A word a count can be of: meaning of its own, not a shape word ("how many more")."""
    return word.content and word.lower not in SHAPE_WORDS and not word.quoted


def _bare_states(words: tuple[Word, ...]) -> list[int]:
    """The positions of the words that say a bare state of the rows, sentence by sentence."""
    starts = [i for i, w in enumerate(words) if i == 0 or w.opens] + [len(words)]
    return [
        start + i
        for start, end in pairwise(starts)
        for i in sorted(bare_states(tuple(w.text for w in words[start:end])))
    ]


def _listed_with_shown(
    words: tuple[Word, ...], tags: tuple[str, ...], chosen: Chosen, intent: Intent
) -> list[int]:
    """ "the first name and gender of the student": a noun nothing explains listed with a
    column the answer shows is another column asked for; the answer would leave it out."""
    shown = {o.element for o in intent.outputs}
    beside = {
        i
        for c in chosen.choices
        if not c.is_value and c.link.element in shown
        for i in range(c.start, c.end)
    }
    covered = {i for c in chosen.choices for i in range(c.start, c.end)} | intent.used
    columns = {i for c in chosen.choices if not c.is_table for i in range(c.start, c.end)}

    def alone(i: int) -> bool:
        """Not part of a name the schema reads ("snatch score", "type of gender") nor
        another name for one ("altitude or elevation")."""
        after = words[i + 1].lower if i + 1 < len(words) else ""
        return {i - 1, i + 1}.isdisjoint(covered) and not (
            after in ("of", "or") and i + 2 in columns
        )

    return [
        i
        for i, word in enumerate(words)
        if i not in covered
        and _a_noun(word)
        and len(word.lower) > 1  # "... and the n": a question cut short
        and word.lemma not in SHAPE_WORDS
        and is_noun(tags[i])
        and alone(i)
        and any(_across_and(words, i, side) in beside for side in (-1, 1))
    ]


_DETERMINERS = DETERMINERS | {"a", "an", "each"}


def _across_and(words: tuple[Word, ...], i: int, side: int) -> int:
    """The word on the other side of an "and" next to word i, determiners skipped ("the
    names of the pilots and their salary"); -1 if there is none."""
    j = i + side
    while 0 <= j < len(words) and side < 0 and words[j].lower in _DETERMINERS:
        j += side
    if not (0 <= j < len(words)) or words[j].lower != "and":
        return -1
    j += side
    while 0 <= j < len(words) and side > 0 and words[j].lower in _DETERMINERS:
        j += side
    return j if 0 <= j < len(words) else -1


def _unread_negations(words: tuple[Word, ...], intent: Intent) -> list[int]:
    """The negations the reading does not use ("chip models that do not have wifi"), which
    would answer the opposite question; one said twice ("do no not have") is read once."""
    said = [i for i, w in enumerate(words) if w.lower in NEGATIONS or w.lower in EXCLUSIONS]
    return [i for i in said if not {i - 1, i, i + 1} & set(said) & intent.used]
