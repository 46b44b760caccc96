"""What resolution found, and the word helpers its readings share."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from registries.services import Relationship
from sqlagent.plan import ColumnRef, Filter
from sqlagent.question_terms import Mention, QuestionTerms

T = TypeVar("T", bound=tuple[Any, ...])


def by_position(found: Iterable[T]) -> list[T]:
    """In the order the question says them; what one word names keeps its own order (a
    term's tables, most likely first), never the alphabet's."""
    return sorted(found, key=lambda item: item[0])


@dataclass
class Resolved:
    entities: list[tuple[int, str, str]] = field(default_factory=list)  # (token, table, why)
    filters: list[tuple[int, Filter]] = field(default_factory=list)  # (token, filter)
    columns: list[tuple[int, ColumnRef]] = field(default_factory=list)  # mentioned columns
    via: list[Relationship] = field(default_factory=list)  # joins a role word fixes
    consumed: set[str] = field(default_factory=set)  # words a reading took in (negations)
    notes: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    # Positions of things that only qualify another ("Sterling Power Holdings' contacts",
    # "the oldest Grove crane"): never the rows the question is about.
    modifiers: set[int] = field(default_factory=set)
    bounds: list[tuple[int, str, str, float]] = field(default_factory=list)  # counts: (token,
    # table counted, op, value) from "more than 40 work orders"
    absent: list[tuple[int, str]] = field(default_factory=list)  # "no work time": (token, table)
    compared: set[int] = field(default_factory=set)  # numbers whose comparison was placed
    span: tuple[ColumnRef, ColumnRef] | None = None  # "days between the start and the end"
    bridges: list[tuple[str, str]] = field(default_factory=list)  # (table, why) the words add
    flags_shown: bool = False  # "... and which of them count as overtime": one question

    def tables(self) -> list[str]:
        seen = [t for _, t, _ in by_position(self.entities)]
        seen += [c.table for _, f in self.filters for c in f.columns[:1]]
        return list(dict.fromkeys(seen))


@dataclass(frozen=True)
class Said:
    """A mention where the question says it: whether a negation goes before it ("no longer
    active") and the table named right after it ("active customer locations")."""

    mention: Mention
    negated: bool
    head: str | None


# The words before a thing that say it is left out: "no longer active", "not counting
# voided invoices", "excluding void ones", longest first.
NEGATIONS: tuple[tuple[str, ...], ...] = (
    ("no", "longer"), ("not", "counting"), ("not", "including"), ("leaving", "out"),
    ("other", "than"), ("apart", "from"), ("not",), ("non",), ("never",), ("excluding",),
    ("except",), ("without",), ("ignoring",),
)  # fmt: skip


def _negation(terms: QuestionTerms, position: int) -> tuple[str, ...]:
    before = tuple(t.norm for t in terms.tokens[max(0, position - 2) : position])
    return next((n for n in NEGATIONS if before[len(before) - len(n) :] == n), ())


def negated_before(terms: QuestionTerms, position: int) -> bool:
    return bool(_negation(terms, position))


def negation_words(terms: QuestionTerms, position: int) -> set[str]:
    """The words of a negation a filter has taken in ("no longer active")."""
    return set(_negation(terms, position))


def position_of(word: str, terms: QuestionTerms) -> int:
    """The first token whose normal form is `word`."""
    return next(i for i, t in enumerate(terms.tokens) if t.norm == word)


def mention_lengths(terms: QuestionTerms) -> dict[int, int]:
    """How many tokens each mention spans, by its first token."""
    return {m.position: m.length for m in terms.mentions}
