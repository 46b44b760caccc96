"""eval_answers: question files, the split, the scoring of answered questions, and one run of
the command on the real orchestrator."""

import hashlib
import json
from collections.abc import Sequence
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from chat.orchestrator.answer_evaluation import (
    OUTCOMES,
    AnswerQuestion,
    format_report,
    in_split,
    load_answer_questions,
    score,
    split_of,
)
from chat.orchestrator.question_files import QuestionFileError
from ingestion.models import Document

from .chat_fixtures import alice, handbook, no_llm

__all__ = ["alice", "handbook", "no_llm"]


def write(path: Path, rows: Sequence[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def complete(
    outcome: str | None, content: str = "", route: str = "documents", files: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A `complete` event as the orchestrator sends it (without trace and stats)."""
    answer = {
        "content": content,
        "route": route,
        "sources": [{"file_name": name, "n": n} for n, name in enumerate(files, start=1)],
    }
    return {"event": "complete", "outcome": outcome, "answer": answer}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", r"q.jsonl:2: not JSON"),
        ('["a list"]', r"q.jsonl:2: not a JSON object"),
        ('{"question": " ", "expect": "answer"}', r"q.jsonl:2: 'question' must be a non-empty"),
        ('{"question": "Hi", "expect": "maybe"}', r"q.jsonl:2: 'expect' must be one of answer, "),
        ('{"question": "Hi", "expect": "answer", "source": "web"}', r"'source' must be one of"),
        ('{"question": "Hi", "expect": "answer", "gold_file": 3}', r"'gold_file' must be"),
    ],
)
def test_a_bad_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    path = write(tmp_path / "q.jsonl", [{"question": "hello", "expect": "no_answer"}, line])
    with pytest.raises(QuestionFileError, match=message):
        load_answer_questions(path)


def test_a_set_is_read_with_its_optional_fields(tmp_path: Path) -> None:
    path = write(
        tmp_path / "q.jsonl",
        [
            {"question": "Who signs the crane log?", "expect": "answer", "gold_file": "h.md",
             "source": "documents", "note": "closing"},
            "",
            {"question": "What is the weather on Mars?", "expect": "no_answer"},
        ],
    )  # fmt: skip
    first, second = load_answer_questions(path)
    assert first == AnswerQuestion(
        "Who signs the crane log?", "answer", "h.md", "documents", "closing"
    )
    assert (second.expect, second.gold_file, second.source) == ("no_answer", "", "")
    with pytest.raises(QuestionFileError, match="no questions"):
        load_answer_questions(write(tmp_path / "empty.jsonl", ["", "  "]))


def test_the_split_depends_on_the_question_text_only() -> None:
    questions = [AnswerQuestion(f"Question number {n}?", "answer") for n in range(40)]
    for item in questions:
        first_byte = hashlib.sha256(item.question.encode()).digest()[0]
        assert item.split == ("dev" if first_byte % 2 == 0 else "held-out")
        assert split_of(f"  {item.question}\n") == item.split  # surrounding space is not text
    dev, held_out = in_split(questions, "dev"), in_split(questions, "held-out")
    assert dev and held_out and len(dev) + len(held_out) == len(questions)
    assert not set(dev) & set(held_out)
    assert in_split(questions, "all") == questions
    assert in_split(list(reversed(questions)), "dev") == list(reversed(dev))  # order aside, same


def test_scoring_counts_abstentions_right_answers_and_the_confusion() -> None:
    declined = "I cannot answer this from the business database: no such table."
    rows = [
        # unanswerable: abstentions of every kind, an answer given anyway, and an error
        (AnswerQuestion("Mars weather?", "no_answer", source="none"), complete("not_found")),
        (AnswerQuestion("Moon rent?", "no_answer", source="none"), complete("answered", "Yes.")),
        (AnswerQuestion("Pluto tax?", "no_answer", source="none"), complete("clarify")),
        (AnswerQuestion("Payroll of Mars?", "no_answer", source="database"),
         complete("declined", declined, route="sql")),
        (AnswerQuestion("Payroll of Venus?", "no_answer", source="database"),
         complete("declined", "Not possible.", route="sql")),
        (AnswerQuestion("Crash?", "no_answer"), {"event": "error", "message": "boom"}),
        # answerable from a document: the gold file must be among the cited sources
        (AnswerQuestion("Sling?", "answer", "h.md", "documents"),
         complete("answered", "Tagged [1].", files=("a.md", "h.md"))),
        (AnswerQuestion("Keys?", "answer", "h.md", "documents"),
         complete("partial", "Returned [1].", files=("h.md",))),
        (AnswerQuestion("Wind?", "answer", "h.md", "documents"),
         complete("answered", "Calm [1].", files=("other.md",))),
        (AnswerQuestion("Log?", "answer", "h.md", "documents"),
         complete("not_found", files=("h.md",))),
        # answerable from the database: an sql answer that answered
        (AnswerQuestion("Orders?", "answer", source="database"),
         complete("answered", "715", route="sql")),
        (AnswerQuestion("Quotes?", "answer", source="database"), complete("answered", "Some.")),
        (AnswerQuestion("Customers?", "answer", source="database"),
         complete("partial", "12", route="sql")),
        # no gold: answered or partly answered is right; the outcome defaults to the answer's
        (AnswerQuestion("Hello?", "answer"),
         {"answer": {"content": "Hi", "route": "general", "outcome": "partial"}}),
    ]  # fmt: skip
    report = score(rows, split="dev")

    assert (report.overall.abstained.hits, report.overall.abstained.total) == (4, 6)
    assert (report.overall.answered_right.hits, report.overall.answered_right.total) == (4, 8)
    abstained = {kind: str(s.abstained) for kind, s in report.per_source.items()}
    assert abstained == {
        "documents": "-", "database": "100.0% (2/2)", "none": "66.7% (2/3)",
        "unlabelled": "0.0% (0/1)",
    }  # fmt: skip
    assert list(report.per_source) == ["documents", "database", "none", "unlabelled"]
    assert str(report.per_source["documents"].answered_right) == "50.0% (2/4)"
    assert str(report.per_source["database"].answered_right) == "33.3% (1/3)"
    assert report.confusion["no_answer"] == {
        "answered": 1, "partial": 0, "not_found": 1, "declined": 2, "clarify": 1, "error": 1,
    }  # fmt: skip
    assert (
        report.confusion["answer"]["answered"] == 4 and report.confusion["answer"]["partial"] == 3
    )
    assert (report.sql_declines_stated.hits, report.sql_declines_stated.total) == (1, 2)
    assert [row.question for row in report.misses] == [
        "Moon rent?", "Crash?", "Wind?", "Log?", "Quotes?", "Customers?",
    ]  # fmt: skip
    first = report.rows[6]
    assert first.cited == ["a.md", "h.md"] and first.right and first.split == split_of("Sling?")
    crash = report.rows[5]
    assert (crash.outcome, crash.route, crash.answer) == ("error", "", "boom")

    figures = json.loads(json.dumps(report.to_dict()))
    assert figures["split"] == "dev" and figures["questions"] == len(rows)
    assert figures["abstained"] == {"hits": 4, "total": 6, "share": 0.6667}
    assert figures["per_source"]["documents"]["abstained"]["share"] is None
    assert figures["misses"] == 6 and figures["rows"][8]["cited"] == ["other.md"]
    assert set(figures["rows"][0]) >= {"question", "expect", "outcome", "route", "cited",
                                        "answer", "split"}  # fmt: skip

    text = format_report(report)
    assert "split: dev   questions: 14 (8 answer, 6 no_answer)" in text
    assert "abstained:            66.7% (4/6)" in text
    assert "SQL declines stated:  50.0% (1/2)" in text
    assert (
        "- 'Wind?': expected answer, got answered (route documents, gold h.md, cited other.md)"
        in text
    )


def test_an_unknown_outcome_is_counted_in_its_own_column() -> None:
    report = score([(AnswerQuestion("Q?", "no_answer"), complete("refused"))])
    assert report.confusion["no_answer"]["refused"] == 1 and not report.rows[0].right
    assert "refused" in format_report(report)


def test_a_split_without_questions_is_refused(tmp_path: Path) -> None:
    questions = [f"Question number {n}?" for n in range(20)]
    held_out = [q for q in questions if split_of(q) == "held-out"]
    path = write(tmp_path / "q.jsonl", [{"question": q, "expect": "answer"} for q in held_out])
    with pytest.raises(CommandError, match="no questions in the dev split"):
        call_command("eval_answers", str(path), "--split", "dev", stdout=StringIO())
    with pytest.raises(CommandError, match=r"q\.jsonl:1: not JSON"):
        call_command("eval_answers", str(write(path, ["nope"])), stdout=StringIO())


@pytest.mark.django_db(transaction=True)  # the tools read with connections of their own
@pytest.mark.usefixtures("no_llm")
def test_the_command_answers_each_question_and_writes_the_report(
    alice: User, handbook: Document, tmp_path: Path
) -> None:
    rows = [
        {"question": "What happens to a damaged sling?", "expect": "answer",
         "gold_file": "crew_handbook.md", "source": "documents"},
        {"question": "What is 15% of 2400?", "expect": "answer", "source": "none"},
        {"question": "Which moon of Neptune has the thickest ice?", "expect": "no_answer",
         "source": "none"},
    ]  # fmt: skip
    path = write(tmp_path / "answers.jsonl", rows)
    out, err, report_path = StringIO(), StringIO(), tmp_path / "report.json"

    call_command(
        "eval_answers", str(path), "--user", alice.username, "--split", "all",
        "--report", str(report_path), stdout=out, stderr=err,
    )  # fmt: skip

    report = json.loads(report_path.read_text())
    assert report["split"] == "all" and report["questions"] == 3
    by_question = {row["question"]: row for row in report["rows"]}
    sling = by_question["What happens to a damaged sling?"]
    assert sling["right"] and sling["route"] == "documents" and sling["outcome"] == "answered"
    assert "crew_handbook.md" in sling["cited"] and "tagged" in sling["answer"]
    assert by_question["What is 15% of 2400?"]["right"]
    assert "360" in by_question["What is 15% of 2400?"]["answer"]
    assert all(row["outcome"] in OUTCOMES for row in report["rows"])
    assert all(row["split"] == split_of(row["question"]) for row in report["rows"])
    assert report["answered_right"] == {"hits": 2, "total": 2, "share": 1.0}
    assert "split: all   questions: 3 (2 answer, 1 no_answer)" in out.getvalue()
    assert err.getvalue().count("/3 ") == 3  # one progress line a question

    with pytest.raises(CommandError, match="no such user: nobody"):
        call_command(
            "eval_answers", str(path), "--user", "nobody", "--split", "all", stdout=StringIO()
        )
