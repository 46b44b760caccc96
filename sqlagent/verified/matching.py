"""Which verified query a question rewords, and how surely.

Candidates are the verified questions nearest by meaning (embedding cosine) and by shared
words. Each is compared with the question after its literals are fitted (`literals`): what
the question says that the verified one does not, and the other way round, weighted by
whether those words name the schema, a number, or the query's shape (a count, an average,
an order, a negation). A logistic model fitted on development databases
(`manage.py train_verified_matching`) turns that evidence into the probability that the
verified SQL answers the question; it is reused only above the model's threshold.
"""

import calendar
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
from django.conf import settings
from sqlglot import exp

from core.calibration import probability
from sqlagent.linking.links import name_links, value_links
from sqlagent.linking.question import Word, read_words
from sqlagent.linking.schema_words import SchemaWords, stem
from sqlagent.linking.signals import (
    AFTER_NUMBER,
    AGGREGATES,
    ASCENDING,
    COUNT_WORDS,
    DESCENDING,
    DISTINCT_WORDS,
    GROUP_WORDS,
    NEGATIONS,
    ONLY_WITH_NUMBER,
    SHAPE_WORDS,
    comparator_at,
    lowers,
    phrase_at,
)
from sqlagent.linking.values import StoredValues, value_key
from sqlagent.verified.literals import Fitted, fit_literals, unsaid_numbers, without_conditions_on
from sqlagent.verified.store import Known, Pool

T = TypeVar("T")

MODEL = Path(__file__).with_name("matching.json")
# Without a fitted model: a near question that adds and drops almost nothing is reused.
FALLBACK = {"weights": {"cosine": 8.0, "asked_extra": -6.0, "verified_extra": -4.0,
                        "shape_differs": -3.0, "numbers_differ": -3.0, "schema_extra": -2.0},
            "bias": -4.0, "threshold": 0.5, "scale": {}}  # fmt: skip
SURE_LINK = 0.8  # a link this sure counts as the question naming the column or value
CANDIDATES = 6  # nearest by meaning, and as many by shared words
FEATURES = (
    "cosine", "margin", "overlap", "asked_extra", "verified_extra", "schema_extra",
    "named_extra", "shape_differs", "numbers_differ", "swapped", "unnamed", "said_not_done",
    "done_not_said", "group_unsaid", "unused_names", "verified_unused_names",
    "negation_differs", "count_differs", "set_differs", "aggregate_differs", "order_differs",
    "comparison_differs",
)  # fmt: skip


@dataclass(frozen=True)
class Match:
    known: Known
    statement: exp.Expression  # the verified SQL with the question's literals
    swapped: list[tuple[str, str]]
    features: dict[str, float] = field(default_factory=dict)
    probability: float = 0.0
    contradicts: str = ""  # what the question asks the other way round: never reused

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.known.id,
            "question": self.known.question,
            "probability": round(self.probability, 4),
            "swapped": self.swapped,
            "features": {k: round(v, 4) for k, v in self.features.items()},
            **({"contradicts": self.contradicts} if self.contradicts else {}),
        }


def matches(
    question: str,
    vector: Sequence[float],
    pool: Pool,
    *,
    schema: SchemaWords,
    values: StoredValues,
) -> list[Match]:
    """The nearest verified queries fitted to `question`, most probable first."""
    if not pool:
        return []
    words = read_words(question)
    mine = _stems(words, set())
    named = _named(words, schema, values)
    cosines = _cosines(vector, pool)
    overlaps = [
        _jaccard(mine, _derived(k, "stems", lambda k: _stems(k.words, set()))) for k in pool
    ]
    by_meaning = sorted(range(len(pool)), key=lambda i: -cosines[i])[:CANDIDATES]
    by_words = sorted(range(len(pool)), key=lambda i: -overlaps[i])[:CANDIDATES]
    found: list[Match] = []
    for i in dict.fromkeys(by_meaning + by_words):
        known = pool[i]
        fitted = fit_literals(words, known.words, known.statement, values)
        if _new_numbers(words, known, fitted):
            # A number the question says that neither the verified question nor its SQL
            # holds: "in 2024" is not a rewording of the 2025 query.
            continue
        if unsaid := unsaid_numbers(words, known.words, fitted):
            # "Which technician completed the most work orders?" of the 2025 query: every
            # year's, its condition on 2025 left out; a number elsewhere (LIMIT 5) differs.
            statement = without_conditions_on(fitted.statement, unsaid)
            if statement is None:
                continue
            fitted.statement = statement
        theirs = _derived(known, "named", lambda k: _named(k.words, schema, values))
        contradicts = (
            contradiction(words, known.words)
            or said_once(words, known.words)
            or _asks_about_other(words, named, fitted.statement)
            or _grouping_unnamed(named, theirs, fitted.statement)
        )
        others = [c for j, c in enumerate(cosines) if j != i]
        features = _features(words, known.words, fitted.asked_used, fitted.verified_used, schema)
        features["unused_names"] = float(_unused(named, fitted.statement, fitted.asked_used))
        features["verified_unused_names"] = float(
            _unused(theirs, known.statement, fitted.verified_used)
        )
        said, done = shape(words), sql_shape(fitted.statement)
        features["said_not_done"] = float(len({c for c in said if not done & SATISFIED_BY[c]}))
        features["done_not_said"] = float(len({c for c in done & CORE if c not in said}))
        features["group_unsaid"] = float("group" in done and not said & {"group", "distinct"})
        features |= shape_differences(said, done)
        features |= {
            "cosine": cosines[i],
            "margin": cosines[i] - max(others, default=0.0),
            "overlap": overlaps[i],
            "swapped": float(len(fitted.swapped)),
            "unnamed": float(fitted.unnamed),
        }
        sure = 0.0 if contradicts else probability(features, model())
        found.append(Match(known, fitted.statement, fitted.swapped, features, sure, contradicts))
    return sorted(found, key=lambda m: -m.probability)


def contradiction(asked: tuple[Word, ...], verified: tuple[Word, ...]) -> str:
    """What one question asks the other way round, which no weighing of evidence may
    outvote: the fewest against the most, a count against rows ("how many technicians"
    against "which technician ... the most")."""
    mine, theirs = _directions(asked), _directions(verified)
    if len(mine) == 1 and len(theirs) == 1 and mine != theirs:
        return f"the {mine.pop()} against the {theirs.pop()}"
    # "which department has the most employees" is "the largest number of employees"
    count, counted = _counts(asked) and not mine, _counts(verified) and not theirs
    rank, ranked = mine and not _counts(asked), theirs and not _counts(verified)
    if (count and ranked) or (rank and counted):
        return "a count against the rows ranked first"
    return ""


def said_once(asked: tuple[Word, ...], verified: tuple[Word, ...]) -> str:
    """What one question says and the other does not, which turns the rows around: a
    negation ("invoices that are not overdue"), a ranking ("which customer owes the most"
    against what each owes), a month ("in March 2025" against the year)."""
    if ("not" in shape(asked)) != ("not" in shape(verified)) or _opposites(asked, verified):
        return "a negation one question says and the other does not"
    if bool(_directions(asked)) != bool(_directions(verified)):
        return "a ranking one question asks and the other does not"
    if _months(asked) != _months(verified):
        return "a month one question names and the other does not"
    return ""


def _opposites(asked: tuple[Word, ...], verified: tuple[Word, ...]) -> bool:
    """ "paid" and "unpaid", "active" and "inactive", "billable" and "non-billable"."""
    mine, theirs = {w.lower for w in asked}, {w.lower for w in verified}
    return any(
        word.startswith(prefix) and word[len(prefix) :].lstrip("-") in other
        for one, other in ((mine, theirs), (theirs, mine))
        for word in one - other
        for prefix in ("un", "in", "non")
    )


_MONTH_NAMES = {m.lower() for m in calendar.month_name[1:]}


def _months(words: tuple[Word, ...]) -> set[str]:
    return {w.lower for w in words if w.lower in _MONTH_NAMES and w.capitalised}


def _directions(words: tuple[Word, ...]) -> set[str]:
    lows = lowers(words)
    found = set()
    for i, low in enumerate(lows):
        numbered = i + 1 < len(words) and words[i + 1].number is not None
        if low in ONLY_WITH_NUMBER and not numbered:
            continue  # "first name", "last name"
        if low in DESCENDING or AGGREGATES.get(low) == "max":
            found.add("highest")
        elif low in ASCENDING or AGGREGATES.get(low) == "min":
            found.add("lowest")
    return found


def _counts(words: tuple[Word, ...]) -> bool:
    """Whether the question counts anything ("how many", "the number of"; not "the average
    number of" or "the total number of", which may be amounts)."""
    lows = lowers(words)
    return any(
        phrase_at(lows, i, COUNT_WORDS) and lows[i] != "total" and lows[i - 1 : i] != ["average"]
        for i in range(len(lows))
    )


def _new_numbers(words: tuple[Word, ...], known: Known, fitted: Fitted) -> set[float]:
    theirs = {w.number for w in known.words if w.number is not None}
    mine = {
        w.number for i, w in enumerate(words) if w.number is not None and i not in fitted.asked_used
    }
    return mine - theirs


def _all_stems(known: Known) -> set[str]:
    return _stems(known.words, set())


def _cosines(vector: Sequence[float], pool: Pool) -> list[float]:
    units = pool.unit_vectors
    query = np.asarray(vector, dtype=float)
    norm = float(np.linalg.norm(query))
    if not norm or units.shape[1] != query.shape[0]:
        return [0.0] * len(pool)
    return [float(c) for c in units @ (query / norm)]


def _derived(known: Known, name: str, read: Callable[[Known], T]) -> T:
    """What is read from a verified query alone, once per process and version of it."""
    if name not in known.derived:
        known.derived[name] = read(known)
    return cast(T, known.derived[name])


def _features(
    asked: tuple[Word, ...],
    verified: tuple[Word, ...],
    asked_used: set[int],
    verified_used: set[int],
    schema: SchemaWords,
) -> dict[str, float]:
    mine, theirs = _stems(asked, asked_used), _stems(verified, verified_used)
    extra_mine = [w for w in _content(asked, asked_used) if _stem(w) not in theirs]
    extra_theirs = [w for w in _content(verified, verified_used) if _stem(w) not in mine]
    extra = extra_mine + extra_theirs
    numbers_mine = {
        w.number for i, w in enumerate(asked) if w.number is not None and i not in asked_used
    }
    numbers_theirs = {
        w.number for i, w in enumerate(verified) if w.number is not None and i not in verified_used
    }
    return {
        "asked_extra": len(extra_mine) / max(1, len(mine)),
        "verified_extra": len(extra_theirs) / max(1, len(theirs)),
        "schema_extra": float(sum(1 for w in extra if _names_schema(w, schema))),
        "named_extra": float(sum(1 for w in extra if w.quoted or w.capitalised)),
        "shape_differs": float(len(shape(asked) ^ shape(verified))),
        "numbers_differ": float(len(numbers_mine ^ numbers_theirs)),
    }


def shape(words: tuple[Word, ...]) -> set[str]:
    """What the words say about a query's shape, whatever it is about: a count, which
    aggregate, which way an order or superlative runs, a negation, a comparison."""
    lows = lowers(words)
    found: set[str] = set()
    for i, low in enumerate(lows):
        if phrase_at(lows, i, COUNT_WORDS):
            found.add("count")
        if phrase_at(lows, i, GROUP_WORDS):
            found.add("group")
        if low in AGGREGATES and low != "total":
            found.add(AGGREGATES[low])
        if low in DESCENDING:
            found.add("descending")
        if low in ASCENDING:
            found.add("ascending")
        if low in NEGATIONS:
            found.add("not")
        if low in DISTINCT_WORDS:
            found.add("distinct")
        if low == "both":
            found.add("both")
        if low == "either" or (low == "or" and not phrase_at(lows, i, tuple(AFTER_NUMBER))):
            found.add("or")
        compared = comparator_at(lows, i)
        if compared is not None:
            found.add(compared[0])
    return found


# Which parts of a query carry out what the words say: "the most" is an ORDER BY ... DESC or
# a MAX; "each" a GROUP BY; "different" a DISTINCT or a GROUP BY.
SATISFIED_BY = {
    "count": {"count"}, "group": {"group"}, "avg": {"avg"}, "sum": {"sum"},
    "max": {"max", "descending"}, "min": {"min", "ascending"},
    "descending": {"descending", "max"}, "ascending": {"ascending", "min"},
    "not": {"not"}, "distinct": {"distinct", "group"}, ">": {"compare"}, ">=": {"compare"},
    "<": {"compare"}, "<=": {"compare"}, "=": {"compare", "eq"}, "both": {"both"},
    "or": {"or", "in"},
}  # fmt: skip
CORE = {"count", "avg", "sum", "not", "both", "or"}  # what a question hardly leaves unsaid
# Kinds of shape weighed apart: a negation or a set operation the SQL does not carry turns
# the answer around; an order the words leave implicit hardly does.
SHAPE_KINDS = {
    "negation": {"not"}, "count": {"count"}, "set": {"both", "or"}, "aggregate": {"avg", "sum"},
    "order": {"max", "min", "descending", "ascending"}, "comparison": {">", ">=", "<", "<=", "="},
}  # fmt: skip
_SQL_PARTS = {exp.Count: "count", exp.Group: "group", exp.Avg: "avg", exp.Sum: "sum",
              exp.Max: "max", exp.Min: "min", exp.Not: "not", exp.Except: "not", exp.NEQ: "not",
              exp.Distinct: "distinct", exp.GT: "compare", exp.GTE: "compare",
              exp.LT: "compare", exp.LTE: "compare", exp.EQ: "eq", exp.Intersect: "both",
              exp.Or: "or", exp.Union: "or", exp.In: "in"}  # fmt: skip


def shape_differences(said: set[str], done: set[str]) -> dict[str, float]:
    """Per kind of shape, whether the words ask for something of it the SQL does not do, or
    the SQL does something of it (a negation, a count, ...) the words never ask."""
    return {
        f"{kind}_differs": float(
            any(not done & SATISFIED_BY[c] for c in said & kinds)
            or bool(done & CORE & kinds - said)
        )
        for kind, kinds in SHAPE_KINDS.items()
    }


def sql_shape(statement: exp.Expression) -> set[str]:
    found = {name for kind, name in _SQL_PARTS.items() if statement.find(kind) is not None}
    for ordered in statement.find_all(exp.Ordered):
        found.add("descending" if ordered.args.get("desc") else "ascending")
    return found


Named = dict[tuple[int, int], set[str]]  # a span of words -> what it may name (lower case)


def _named(words: tuple[Word, ...], schema: SchemaWords, values: StoredValues) -> Named:
    """The runs of words that surely name a column, a table or a stored value: the names
    (and values, as `'value'`) each may stand for."""
    found: Named = {}
    for link in name_links(words, schema, roots=False):  # as the matcher was fitted
        shape_only = all(w.lower in SHAPE_WORDS for w in words[link.start : link.end])
        if link.score >= SURE_LINK and not shape_only:
            names = found.setdefault((link.start, link.end), set())
            names.add((link.element.column or link.element.table).lower())
    for link in value_links(words, values, schema):
        if link.score >= SURE_LINK and link.value is not None:
            found.setdefault((link.start, link.end), set()).add(f"'{value_key(link.value)}'")
    return found


def _unused(named: Named, statement: exp.Expression, used: set[int]) -> int:
    """Runs of words naming something the SQL does not use: a column, table or value the
    question asks about that this query never touches."""
    touched = _touched(statement)
    return sum(
        1
        for (start, end), names in named.items()
        if not used.intersection(range(start, end)) and not names & touched
    )


def _asks_about_other(words: tuple[Word, ...], named: Named, statement: exp.Expression) -> str:
    """ "Which branch ...", asked of a query that never reads branches: the thing asked for
    (named right after "which") is not what it returns."""
    if not words or words[0].lower != "which":
        return ""
    first = min(named, default=None)
    if first is None or first[0] != 1 or named[first] & _touched(statement):
        return ""
    return "the question asks about something the verified SQL never reads"


def _grouping_unnamed(named: Named, theirs: Named, statement: exp.Expression) -> str:
    """ "How much do customers owe on overdue invoices?" groups by customer because it
    names customers; "What is the total of overdue invoices?" names none and asks one
    total, not one per customer."""
    grouped = _grouped_by(statement)
    if not grouped or not any(names & grouped for names in theirs.values()):
        return ""
    if any(names & grouped for names in named.values()):
        return ""
    return "the verified SQL groups by something its question names and this one does not"


def _grouped_by(statement: exp.Expression) -> set[str]:
    """The columns the outermost query groups by, and their tables (lower case)."""
    group = statement.args.get("group")
    if group is None:
        return set()
    tables = {t.alias_or_name.lower(): t.name.lower() for t in statement.find_all(exp.Table)}
    found = set()
    for column in group.find_all(exp.Column):
        found.add(column.name.lower())
        if column.table:
            found.add(tables.get(column.table.lower(), column.table.lower()))
    return found


def _touched(statement: exp.Expression) -> set[str]:
    touched = {c.name.lower() for c in statement.find_all(exp.Column)}
    touched |= {t.name.lower() for t in statement.find_all(exp.Table)}
    return touched | {f"'{value_key(str(v.this))}'" for v in statement.find_all(exp.Literal)}


def _numbers(words: tuple[Word, ...], used: set[int]) -> set[float]:
    return {w.number for i, w in enumerate(words) if w.number is not None and i not in used}


def _content(words: tuple[Word, ...], used: set[int]) -> list[Word]:
    """The words that say what is asked about; the shape words ("number", "average",
    "most") are compared as shape, not as words."""
    return [
        w for i, w in enumerate(words) if w.content and i not in used and w.lower not in SHAPE_WORDS
    ]


def _stem(word: Word) -> str:
    return stem(word.lemma)


def _stems(words: tuple[Word, ...], used: set[int]) -> set[str]:
    return {_stem(w) for w in _content(words, used)}


def _names_schema(word: Word, schema: SchemaWords) -> bool:
    return word.lemma in schema.by_word or _stem(word) in schema.by_word


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


@cache
def model() -> dict[str, Any]:
    try:
        return dict(json.loads(MODEL.read_text()))
    except (OSError, ValueError):
        return FALLBACK


def threshold() -> float:
    configured = settings.SQL_VERIFIED_MIN_PROBABILITY
    return float(model()["threshold"] if configured is None else configured)
