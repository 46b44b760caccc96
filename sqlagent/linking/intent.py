"""What a linked question asks, as parts of a query: the asked columns and aggregates, the
conditions, grouping, ordering and limit, the tables to join and the rows that must be
missing. Each part keeps the words it came from, so that what is left over is known."""

from dataclasses import dataclass, field
from typing import Any

from sqlagent.linking.schema_words import Element


@dataclass(frozen=True)
class Output:
    """One asked column (`element` None: the rows themselves, as in COUNT(*))."""

    element: Element | None
    aggregate: str | None = None  # count, sum, avg, min, max
    distinct: bool = False  # COUNT(DISTINCT ...)
    part: str | None = None  # "year", "month": of a date


@dataclass(frozen=True)
class Condition:
    element: Element
    op: str  # =, !=, >, >=, <, <=, like, between, in
    value: Any
    second: Any = None  # between's upper bound
    against: str | None = None  # "avg": compared with the column's average, not `value`
    at: int = 0  # the word it was read from


@dataclass(frozen=True)
class Ordering:
    element: Element | None  # None: order by the count of rows in each group
    descending: bool
    # "count"; an aggregate of `element` ("sum", "avg", ...); "output": the first column
    # shown; "shown": the count or total shown beside labels, else the first column
    aggregate: str | None = None
    as_number: bool = False  # text that holds numbers: "9" before "10", not after


@dataclass(frozen=True)
class Apart:
    """ "Which publishers did not publish a book in 1989?": the values of `column` that no
    row meeting `conditions` (joined to `tables`) holds."""

    column: Element
    conditions: list[Condition]
    tables: list[str]


@dataclass
class Intent:
    anchor: str
    outputs: list[Output] = field(default_factory=list)
    star: bool = False
    distinct: bool = False
    conditions: list[Condition] = field(default_factory=list)
    any_of: bool = False  # conditions joined by OR, not AND
    group: Element | None = None
    period: str | None = None  # "year", "month": the group is its date's year or month
    having: tuple[str, float, float | None] | None = None  # COUNT(*) op value (second)
    having_of: Output | None = None  # what HAVING compares when not the rows counted
    order: Ordering | None = None
    then: Ordering | None = None  # a second key: "by price decreasing and name ascending"
    picked: str | None = None  # the table of the one row the superlative picks, holding others
    limit: int | None = None
    counted: str | None = None  # the table whose rows HAVING or ORDER BY count
    count_of: range = range(0)  # the words a count is of ("how many pink unicorns")
    tables: list[str] = field(default_factory=list)  # to join, anchor first
    missing: str | None = None  # a table whose rows the anchor's rows must not have
    missing_by: str | None = None  # its column that refers to the anchor, where it has several
    none_with: list[Condition] = field(default_factory=list)  # no joined row may meet these
    apart: Apart | None = None  # values of a column that no row meeting a condition holds
    both: list[Condition] = field(default_factory=list)  # each must hold in some row (INTERSECT)
    guessed_label: bool = False  # rows shown by a column that does not name them
    guessed_values: int = 0  # numbers read as the value of the one column storing them
    joined_by: list[Element] = field(default_factory=list)  # columns said to be had: joins
    used: set[int] = field(default_factory=set)  # word indexes the intent explains
    notes: list[str] = field(default_factory=list)  # how words were read, for the trace

    def need(self, table: str) -> None:
        if table not in self.tables:
            self.tables.append(table)
