"""Execution accuracy of the SQL agent on a question set (`manage.py eval_sql`).

Each line of the set is `{"question": ..., "sql": gold SQL}` with an optional `"db"` (the
data source to ask) and `"expected"` (the gold rows, when the gold SQL cannot run as is).
An answer is correct when every gold column matches one of its columns and the rows agree
as multisets on those columns; row order counts only where the gold SQL orders; where it orders
and keeps the first n rows, rows tied at the cut may stand in for the ones it kept. An answer
that runs and disagrees is wrong; a declined question is neither.
"""

import json
import logging
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from itertools import combinations, islice
from pathlib import Path
from typing import Any

import sqlglot
from django.conf import settings
from django.test.utils import override_settings
from sqlglot import exp

from core.databases.scope import Scope
from core.databases.urls import WarehouseUrl
from sqlagent.agent import ask
from sqlagent.answer_matching import matches, normalise
from sqlagent.execution import ExecutionError, execute_read

log = logging.getLogger(__name__)

MAX_TIE_CHOICES = 100  # ways to fill a top-n cut from tied rows worth trying
_REASON_DETAIL = re.compile(r"'[^']*'(?:, '[^']*')*|\d+(?:\.\d+)?")


@dataclass(frozen=True)
class Case:
    question: str
    sql: str
    db: str | None = None
    expected: list[list[Any]] | None = None
    ordered: bool | None = None  # None: read from the gold SQL


@dataclass
class Outcome:
    case: Case
    verdict: str  # correct, wrong, declined, error, gold_error
    sql: str | None
    reason: str
    timings: dict[str, float]
    generator: str = ""  # compiler, linked or llm
    linking: dict[str, Any] = field(default_factory=dict)  # the linked reading's evidence


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(1 for o in self.outcomes if o.verdict == verdict)

    @property
    def scored(self) -> int:
        return len(self.outcomes) - self.count("gold_error")

    def rate(self, verdict: str) -> float:
        return self.count(verdict) / self.scored if self.scored else 0.0

    def latency(self) -> dict[str, dict[str, float]]:
        per_step: dict[str, list[float]] = {}
        for outcome in self.outcomes:
            for step, ms in outcome.timings.items():
                per_step.setdefault(step, []).append(ms)
        return {step: _percentiles(values) for step, values in per_step.items()}

    def summary(self) -> dict[str, Any]:
        return {
            "questions": len(self.outcomes),
            "scored": self.scored,
            "correct": self.count("correct"),
            "wrong": self.count("wrong"),
            "declined": self.count("declined"),
            "errors": self.count("error"),
            "gold_errors": self.count("gold_error"),
            "accuracy": round(self.rate("correct"), 4),
            "wrong_rate": round(self.rate("wrong"), 4),
            "declined_rate": round(self.rate("declined"), 4),
            "from_verified": sum(1 for o in self.outcomes if o.generator == "verified"),
            "latency_ms": self.latency(),
        }

    def by_generator(self) -> dict[str, dict[str, int]]:
        """Right and wrong answers by what wrote the SQL (verified, linked, compiler, llm)."""
        found: dict[str, dict[str, int]] = {}
        for o in self.outcomes:
            if o.verdict in ("correct", "wrong"):
                counts = found.setdefault(o.generator or "-", {"correct": 0, "wrong": 0})
                counts[o.verdict] += 1
        return found

    def by_db(self) -> dict[str, dict[str, Any]]:
        """The summary per database, for a set that spans several ("db" on its lines)."""
        groups: dict[str, Report] = {}
        for outcome in self.outcomes:
            groups.setdefault(outcome.case.db or "", Report()).outcomes.append(outcome)
        return {db: report.summary() for db, report in groups.items()}

    def decline_reasons(self) -> list[tuple[str, int]]:
        """Why questions were declined, most common first; the words and numbers a reason
        quotes are left out so that reasons of one kind count together."""
        kinds = Counter(
            _REASON_DETAIL.sub("…", o.reason) for o in self.outcomes if o.verdict == "declined"
        )
        return kinds.most_common()

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary(),
            "by_db": self.by_db(),
            "by_generator": self.by_generator(),
            "decline_reasons": self.decline_reasons(),
            "questions": [
                {
                    "question": o.case.question,
                    "db": o.case.db,
                    "verdict": o.verdict,
                    "sql": o.sql,
                    "gold_sql": o.case.sql,
                    "reason": o.reason,
                    "timings": o.timings,
                    "generator": o.generator,
                    "linking": o.linking,
                }
                for o in self.outcomes
            ],
        }


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2), "n": len(ordered)}


def load_cases(path: Path) -> list[Case]:
    cases = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            cases.append(
                Case(
                    question=data["question"],
                    sql=data["sql"],
                    db=data.get("db"),
                    expected=data.get("expected"),
                    ordered=data.get("ordered"),
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ValueError(f"{path}:{number}: not a question line ({error})") from error
    return cases


def gold_orders(sql: str, dialect: str) -> bool:
    try:
        statement = sqlglot.parse_one(sql, read=dialect)
    except sqlglot.errors.ParseError:
        return False
    return statement.args.get("order") is not None


def gold_rows(case: Case, url: str) -> list[tuple[Any, ...]]:
    if case.expected is not None:
        return [tuple(row) for row in case.expected]
    return execute_read(case.sql, url=url, agent=False, max_rows=100_000).rows


def evaluate(
    cases: Iterable[Case],
    *,
    source_for: Callable[[Case], tuple[str | None, str]],
    today: date | None = None,
    progress: Callable[[Outcome], None] | None = None,
) -> Report:
    """`source_for` names the data source and its URL for a case."""
    report = Report()
    for case in cases:
        source, url = source_for(case)
        outcome = _evaluate_one(case, source, url, today)
        report.outcomes.append(outcome)
        if progress:
            progress(outcome)
    return report


def tied_golds(case: Case, url: str, gold: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    """Other right answers to a gold SQL that orders and keeps its first n rows: rows tied
    with the n-th on the ordering are as right as the ones the database happened to keep.

    Reads the gold query again without its limit and with its ordering keys as extra
    columns; empty when there is no tie at the cut (or the query cannot be widened).
    """
    dialect = WarehouseUrl.parse(url).engine
    try:
        statement = sqlglot.parse_one(case.sql, read=dialect)
    except sqlglot.errors.ParseError:
        return []
    order, limit = statement.args.get("order"), statement.args.get("limit")
    if (
        case.expected is not None
        or not isinstance(statement, exp.Select)
        or order is None
        or limit is None
        or not gold
        or statement.args.get("offset") is not None
        or statement.args.get("distinct") is not None
        or any(isinstance(e, exp.Star) for e in statement.expressions)
    ):
        return []
    width = len(gold[0])
    wide = statement.copy()
    wide.set("limit", None)
    for i, ordered in enumerate(order.expressions):
        wide = wide.select(exp.alias_(ordered.this.copy(), f"tie_key_{i}"), append=True)
    try:
        rows = execute_read(wide.sql(dialect=dialect), url=url, agent=False, max_rows=10_000).rows
    except ExecutionError:
        return []
    n = len(gold)
    if len(rows) <= n:
        return []

    def key(row: tuple[Any, ...]) -> str:
        return repr([normalise(v) for v in row[width:]])

    cut = key(rows[n - 1])
    kept = [row[:width] for row in rows[:n] if key(row) != cut]
    ties = [row[:width] for row in rows if key(row) == cut]
    need = n - len(kept)
    if len(ties) == need:  # nothing else could have been kept
        return []
    return [kept + list(chosen) for chosen in islice(combinations(ties, need), MAX_TIE_CHOICES)]


def _evaluate_one(case: Case, source: str | None, url: str, today: date | None) -> Outcome:
    dialect = WarehouseUrl.parse(url).engine
    try:
        gold = gold_rows(case, url)
    except ExecutionError as error:
        return Outcome(case, "gold_error", None, f"gold SQL failed: {error}", {})
    # Unscoped: the set measures the agent's SQL, not one person's view of the data. The
    # row limit is the gold's size at least: a cut result would say nothing about the SQL.
    try:
        with override_settings(MAX_QUERY_ROWS=max(settings.MAX_QUERY_ROWS, len(gold))):
            answer = ask(case.question, source=source, scope=Scope(), today=today)
    except Exception as error:  # one question's crash is an error in the report, not the end
        log.exception("question failed: %s", case.question)
        return Outcome(case, "error", None, f"{type(error).__name__}: {error}"[:400], {})
    about: dict[str, Any] = {"generator": answer.generator, "linking": _linking(answer.trace)}
    if answer.status in ("declined", "error"):
        verdict = "declined" if answer.status == "declined" else "error"
        return Outcome(case, verdict, answer.sql, answer.reason, answer.timings, **about)
    ordered = case.ordered if case.ordered is not None else gold_orders(case.sql, dialect)
    if not answer.truncated and (
        matches(gold, answer.rows, ordered=ordered)
        or any(matches(other, answer.rows, ordered=False) for other in tied_golds(case, url, gold))
    ):
        return Outcome(case, "correct", answer.sql, "", answer.timings, **about)
    difference = _difference(gold, answer.rows)
    return Outcome(case, "wrong", answer.sql, difference, answer.timings, **about)


def _linking(trace: list[dict[str, Any]]) -> dict[str, Any]:
    """The linked reading's links, and its confidence and evidence once its rows were
    judged (before, when they never were)."""
    found: dict[str, Any] = {}
    for step in ("linking", "confidence"):
        ended = [e for e in trace if e["step"] == step and e["status"] == "end"]
        found.update(ended[-1]["detail"] if ended else {})
    return found


def _difference(gold: list[tuple[Any, ...]], rows: list[list[Any]]) -> str:
    return f"gold {len(gold)} rows {gold[:2]!r}; answer {len(rows)} rows {rows[:2]!r}"[:400]
