"""The query plan the steps build up: which rows, which filters, which shape."""

from dataclasses import dataclass, field
from typing import Any

from registries.services import Relationship
from sqlagent.join_paths import JoinPlan, JoinStep

# The column data types that hold amounts and dates, as the semantic layer names them.
NUMERIC = ("integer", "decimal")
DATES = ("date", "datetime")


@dataclass(frozen=True)
class ColumnRef:
    table: str
    column: str

    def __str__(self) -> str:
        return f"{self.table}.{self.column}"


@dataclass(frozen=True)
class Filter:
    """`columns` are OR'd together (a text search over several columns)."""

    columns: tuple[ColumnRef, ...]
    # =, !=, in (value: a tuple), any (value: Filters, one holds), like, >=, <, >, <=,
    # is_null, is_not_null
    op: str
    value: Any = None
    reason: str = ""

    @property
    def tables(self) -> set[str]:
        return {c.table for c in self.columns}


@dataclass(frozen=True)
class Absence:
    """Rows an anchor row must not have ("technicians with no work time"): the anchor's
    column `link` starts from is not among the values its far side takes in those rows."""

    link: JoinStep  # from the anchor to the first table of the missing rows
    joins: tuple[JoinStep, ...] = ()  # on from there to the other tables of those rows
    filters: tuple[Filter, ...] = ()


@dataclass
class QueryPlan:
    anchor: str  # the table whose rows the question is about
    tables: list[str] = field(default_factory=list)  # required, anchor first
    filters: list[Filter] = field(default_factory=list)
    aggregate: str | None = None  # count, sum, avg, min, max, ratio (share of rows)
    share_of: Filter | None = None  # with ratio: the condition whose share is asked
    in_percent: bool = True  # with ratio: 0-100, else a fraction 0-1
    measure: ColumnRef | None = None  # what sum/avg/min/max read; None with count
    counted_too: bool = False  # an amount per group, and how many rows each group has
    versus_average: str | None = None  # >, <: the measure (per group) against its average
    group_table: str | None = None  # grouped by this table's labels...
    group_column: ColumnRef | None = None  # ...or by this column
    group_period: str | None = None  # ...taken by "month" or "year" (a date column)
    order_by: ColumnRef | None = None  # None with an aggregate: order by the aggregate
    descending: bool = False
    limit: int | None = None
    columns: list[ColumnRef] = field(default_factory=list)  # asked for by name
    beside: list[ColumnRef] = field(default_factory=list)  # "and at which branch": after them
    reasons: dict[str, str] = field(default_factory=dict)  # why each table is there
    notes: list[str] = field(default_factory=list)  # how words were read, for the trace
    via: list[Relationship] = field(default_factory=list)  # joins the question fixes
    joins: JoinPlan | None = None
    having: tuple[str, float] | None = None  # (op, value): groups whose count compares so
    count_groups: bool = False  # with having: how many groups there are, not each group
    absent: list[Absence] = field(default_factory=list)
    span: tuple[ColumnRef, ColumnRef] | None = None  # days from the first to the second date
    values_only: bool = False  # "the different payment methods": the columns' values, once each

    def require(self, table: str, reason: str) -> None:
        if table not in self.tables:
            self.tables.append(table)
        self.reasons.setdefault(table, reason)


class CannotAnswer(Exception):
    """The agent cannot answer with confidence; the message says why."""


class UnknownWords(CannotAnswer):
    """Words of the question nothing in the database explains."""

    def __init__(self, words: list[str]) -> None:
        self.words = list(dict.fromkeys(words))
        listed = ", ".join(repr(w) for w in self.words)
        super().__init__(f"I do not know what {listed} means in this database")
