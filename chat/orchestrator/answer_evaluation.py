"""Honest answers: does the orchestrator answer what the documents or the business database
answer, and say plainly when neither does?

A set is JSON Lines, one question a line:
`{"question", "expect": "answer" | "no_answer", "gold_file"?, "source"?: "documents" |
"database" | "none", "note"?}`. Each question is answered by the real orchestrator and
scored on its `complete` event (an `error` event is the outcome "error"):

- abstained: of the `no_answer` questions, the share answered not_found, declined or clarify;
- answered right: of the `answer` questions, the share answered (or partly answered) that
  also cite `gold_file` when one is given; a `database` question without one needs an
  answer of the sql route with the outcome answered (the database cites no file);
- both shares per source kind, the confusion of expect by outcome, every miss, and of the
  sql answers that declined, the share that say so in words ("business database").

A question's split comes from its text alone (the first byte of the sha256 of the stripped
question: even is dev, odd is held-out), so it never depends on results.
"""

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from chat.orchestrator.question_files import QuestionFileError, read_objects
from chat.orchestrator.service import answer_question
from core.splits import in_split as in_half
from core.splits import split_of

EXPECTS = ("answer", "no_answer")
SOURCES = ("documents", "database", "none")
ANSWERED = ("answered", "partial")
ABSTAINED = ("not_found", "declined", "clarify")
OUTCOMES = (*ANSWERED, *ABSTAINED, "error")
SPLITS = ("dev", "held-out", "all")
PREVIEW_CHARS = 120
DECLINE_WORDS = "business database"  # how a declined sql answer names what it could not use

# A labelled question and the last event the orchestrator sent for it: `complete` (its
# data, with or without the `event` key) or `error`.
Answered = tuple["AnswerQuestion", Mapping[str, Any]]


@dataclass(frozen=True)
class AnswerQuestion:
    question: str
    expect: str  # "answer" or "no_answer"
    gold_file: str = ""  # a document an answer must cite
    source: str = ""  # where the answer is: documents, database or none
    note: str = ""

    @property
    def split(self) -> str:
        return split_of(self.question)


def in_split(questions: Sequence[AnswerQuestion], split: str) -> list[AnswerQuestion]:
    return [q for q in questions if in_half(q.question, split)]


def load_answer_questions(path: Path) -> list[AnswerQuestion]:
    """The questions of a JSONL set; a bad line raises QuestionFileError naming it."""
    return [_labelled(row, where) for where, row in read_objects(path)]


def _labelled(row: dict[str, Any], where: str) -> AnswerQuestion:
    question = row.get("question")
    if not isinstance(question, str) or not question.strip():
        raise QuestionFileError(f"{where}: 'question' must be a non-empty string")
    if row.get("expect") not in EXPECTS:
        raise QuestionFileError(f"{where}: 'expect' must be one of {', '.join(EXPECTS)}")
    if row.get("source") not in (None, *SOURCES):
        raise QuestionFileError(f"{where}: 'source' must be one of {', '.join(SOURCES)}")
    gold_file = row.get("gold_file") or ""
    if not isinstance(gold_file, str):
        raise QuestionFileError(f"{where}: 'gold_file' must be a file name")
    return AnswerQuestion(
        question, row["expect"], gold_file, row.get("source") or "", str(row.get("note") or "")
    )


@dataclass
class AnswerRow:
    """One question as answered, for the report."""

    question: str
    expect: str
    outcome: str
    route: str
    cited: list[str]  # file names of the answer's sources, in order
    answer: str
    split: str
    source: str = ""
    gold_file: str = ""
    note: str = ""
    right: bool = False
    routed: str = ""  # the router's route (a database question may end on another route)


def row_of(item: AnswerQuestion, event: Mapping[str, Any]) -> AnswerRow:
    """What became of `item`, read from its last event."""
    answer = event.get("answer")
    if event.get("event") == "error" or not isinstance(answer, dict):
        outcome, route, cited = "error", "", []
        text = str(event.get("message") or "")
    else:
        # The service sets `outcome` on every complete event; it defaults to answered.
        outcome = str(event.get("outcome") or answer.get("outcome") or "answered")
        route = str(answer.get("route") or "")
        names = (s.get("file_name") for s in answer.get("sources") or [] if isinstance(s, dict))
        cited = list(dict.fromkeys(str(name) for name in names if name))
        text = str(answer.get("content") or "")
    row = AnswerRow(
        item.question, item.expect, outcome, route, cited, text, item.split,
        item.source, item.gold_file, item.note,
    )  # fmt: skip
    decision = event.get("route_decision")
    row.routed = str(decision.get("route") or "") if isinstance(decision, dict) else ""
    row.right = is_right(row)
    return row


def is_right(row: AnswerRow) -> bool:
    if row.expect == "no_answer":
        return row.outcome in ABSTAINED
    if row.gold_file:
        return row.outcome in ANSWERED and row.gold_file in row.cited
    if row.source == "database":
        return row.route == "sql" and row.outcome == "answered"
    return row.outcome in ANSWERED


@dataclass
class Share:
    hits: int = 0
    total: int = 0

    def add(self, hit: bool) -> None:
        self.total += 1
        self.hits += hit

    @property
    def rate(self) -> float | None:
        return self.hits / self.total if self.total else None

    def to_dict(self) -> dict[str, Any]:
        rate = self.rate
        return {"hits": self.hits, "total": self.total, "share": rate and round(rate, 4)}

    def __str__(self) -> str:
        rate = self.rate
        return "-" if rate is None else f"{rate:.1%} ({self.hits}/{self.total})"


@dataclass
class Shares:
    """The two figures of a set of questions: abstentions and right answers."""

    abstained: Share = field(default_factory=Share)
    answered_right: Share = field(default_factory=Share)

    def add(self, row: AnswerRow) -> None:
        (self.abstained if row.expect == "no_answer" else self.answered_right).add(row.right)

    def to_dict(self) -> dict[str, Any]:
        return {
            "abstained": self.abstained.to_dict(),
            "answered_right": self.answered_right.to_dict(),
        }


@dataclass
class AnswerReport:
    split: str
    rows: list[AnswerRow]
    overall: Shares
    per_source: dict[str, Shares]  # "documents", "database", "none", "unlabelled"
    confusion: dict[str, dict[str, int]]  # expect -> outcome -> count
    # declined database questions (answered on the sql route or routed there) that name
    # the business database
    sql_declines_stated: Share

    @property
    def misses(self) -> list[AnswerRow]:
        return [row for row in self.rows if not row.right]

    def to_dict(self) -> dict[str, Any]:
        return {
            "split": self.split,
            "questions": len(self.rows),
            **self.overall.to_dict(),
            "per_source": {kind: shares.to_dict() for kind, shares in self.per_source.items()},
            "confusion": self.confusion,
            "sql_declines_stated": self.sql_declines_stated.to_dict(),
            "misses": len(self.misses),
            "rows": [asdict(row) for row in self.rows],
        }


def score(answered: Sequence[Answered], *, split: str = "all") -> AnswerReport:
    """The report of questions already answered; pure, so any labelled events can be scored."""
    rows = [row_of(item, event) for item, event in answered]
    overall = Shares()
    per_source: dict[str, Shares] = {}
    confusion = {expect: dict.fromkeys(OUTCOMES, 0) for expect in EXPECTS}
    declines = Share()
    for row in rows:
        overall.add(row)
        per_source.setdefault(row.source or "unlabelled", Shares()).add(row)
        confusion[row.expect][row.outcome] = confusion[row.expect].get(row.outcome, 0) + 1
        if row.outcome == "declined" and "sql" in (row.route, row.routed):
            declines.add(DECLINE_WORDS in row.answer.lower())
    order = [*SOURCES, "unlabelled"]
    per_source = dict(sorted(per_source.items(), key=lambda item: order.index(item[0])))
    return AnswerReport(split, rows, overall, per_source, confusion, declines)


def format_report(report: AnswerReport) -> str:
    expected = {e: sum(report.confusion[e].values()) for e in EXPECTS}
    lines = [
        f"split: {report.split}   questions: {len(report.rows)} "
        f"({expected['answer']} answer, {expected['no_answer']} no_answer)",
        f"abstained:            {report.overall.abstained}",
        f"answered right:       {report.overall.answered_right}",
        f"SQL declines stated:  {report.sql_declines_stated}",
        "",
        "per source:",
    ]
    for kind, shares in report.per_source.items():
        lines.append(
            f"  {kind:<11} abstained {shares.abstained!s:<20} "
            f"answered right {shares.answered_right}"
        )
    outcomes = list(dict.fromkeys(o for counts in report.confusion.values() for o in counts))
    lines += ["", "confusion (rows: expected, columns: outcome):"]
    lines.append(" " * 11 + "".join(f"{o[:9]:>10}" for o in outcomes))
    for expect in EXPECTS:
        counts = report.confusion[expect]
        lines.append(f"{expect:<11}" + "".join(f"{counts.get(o, 0):>10}" for o in outcomes))
    misses = report.misses
    if misses:
        lines += ["", f"misses ({len(misses)}):"]
        for row in misses:
            cited = f", cited {', '.join(row.cited[:3])}" if row.cited else ""
            gold = f", gold {row.gold_file}" if row.gold_file else ""
            lines.append(
                f"- {row.question!r}: expected {row.expect}, got {row.outcome} "
                f"(route {row.route or '-'}{gold}{cited})"
            )
            lines.append(f"    {' '.join(row.answer.split())[:PREVIEW_CHARS]}")
    return "\n".join(lines)


async def final_event(question: str, user: Any) -> dict[str, Any]:
    """The orchestrator's last event for `question`: `complete` or `error`."""
    final: dict[str, Any] = {"event": "error", "message": "the answer ended without an event"}
    async for event in answer_question(question, user=user):
        if event.name in ("complete", "error"):
            final = event.to_dict()
    return final


def answer_all(
    questions: Sequence[AnswerQuestion],
    *,
    user: Any,
    on_answer: Callable[[int, AnswerRow], None] | None = None,
) -> list[Answered]:
    """Ask every question in turn as `user`; `on_answer(n, row)` follows progress."""

    async def ask_each() -> list[Answered]:
        answered: list[Answered] = []
        for item in questions:
            try:
                event = await final_event(item.question, user)
            except Exception as error:  # one broken question must not end the run
                event = {"event": "error", "message": f"{type(error).__name__}: {error}"}
            answered.append((item, event))
            if on_answer:
                on_answer(len(answered), row_of(item, event))
        return answered

    return asyncio.run(ask_each())
