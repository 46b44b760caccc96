"""eval_routing: question files, the report, and the shipped development set's accuracy."""

import json
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from chat.orchestrator.routing import ROUTES, shipped_examples
from chat.orchestrator.routing_evaluation import QuestionFileError, evaluate, load_questions
from registries.models import DataSource

from .conftest import ROOT_DIR
from .routing_fixtures import (  # noqa: F401 - fixtures
    RoutingCorpus,
    agent_warehouse_schema,
    agent_warehouse_url,
    no_router_llm,
    routing_corpus,
    routing_warehouse,
    warehouse,
)

DEV_SET = ROOT_DIR / "demo" / "questions" / "routing.jsonl"


@pytest.fixture
def demo(routing_warehouse: DataSource, routing_corpus: RoutingCorpus) -> RoutingCorpus:  # noqa: F811
    return routing_corpus


def write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", r"q.jsonl:2: not JSON"),
        ('["a list"]', r"q.jsonl:2: not a JSON object"),
        ('{"question": "", "route": "sql"}', r"q.jsonl:2: 'question' must be a non-empty"),
        ('{"question": "Hi", "route": "weather"}', r"q.jsonl:2: 'route' must be one of sql, "),
        ('{"question": "Hi", "route": "general", "history": [{"role": "bot"}]}', r"history\[0\]"),
        ('{"question": "Hi", "route": "upload", "attachments": "a.pdf"}', r"'attachments' must"),
    ],
)
def test_a_bad_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    path = write(tmp_path / "q.jsonl", [{"question": "hello", "route": "general"}, line])
    with pytest.raises(QuestionFileError, match=message):
        load_questions(path)


def test_histories_and_attachments_are_read(tmp_path: Path) -> None:
    history = [
        {"role": "user", "content": "How many quotes were accepted?"},
        {"role": "assistant", "content": "715", "route": "sql", "data": {"sql": "SELECT 1"}},
    ]
    path = write(
        tmp_path / "q.jsonl",
        [
            {"question": "and in 2024?", "route": "sql", "history": history, "note": "date"},
            "",
            {"question": "add this", "route": "upload", "attachments": ["a.pdf"]},
        ],
    )
    first, second = load_questions(path)
    assert [t.role for t in first.history] == ["user", "assistant"]
    assert first.history[1].route == "sql" and first.history[1].data == {"sql": "SELECT 1"}
    assert first.note == "date"
    assert second.attachments == ("a.pdf",) and second.history == ()


@pytest.mark.django_db
def test_the_command_reports_accuracy_confusion_misroutes_and_time(
    demo: RoutingCorpus, tmp_path: Path
) -> None:
    question = "How many work orders were completed in 2025?"
    history = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "3,397", "route": "sql", "data": {"question": question}},
    ]
    path = write(
        tmp_path / "small.jsonl",
        [
            {"question": question, "route": "sql"},
            {"question": "and in 2024?", "route": "sql", "history": history},
            {"question": "What PPE is required on every job?", "route": "documents"},
            {"question": "hello", "route": "general"},
            # Labelled wrong on purpose: the report must list it with the router's reasons.
            {"question": "What is the total amount invoiced in 2025?", "route": "graph"},
        ],
    )
    out = StringIO()
    report_path = tmp_path / "report.json"
    call_command(
        "eval_routing", str(path), "--report", str(report_path), "--user", demo.reader.username,
        stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert "questions: 5   accuracy: 80.0% (4/5)" in text
    assert "with history: 1/1" in text
    assert "  graph            0.0%  (0/1)" in text
    assert "  sql            100.0%  (2/2)" in text
    assert "routing time: p50 " in text and "p95 " in text
    assert "confusion (rows: expected, columns: routed to):" in text
    assert "- 'What is the total amount invoiced in 2025?': expected graph, got sql" in text
    assert "warehouse words cover" in text.split("expected graph, got sql")[1]
    report = json.loads(report_path.read_text())
    assert report["accuracy"] == 0.8 and report["questions"] == 5
    assert report["confusion"]["graph"]["sql"] == 1
    assert report["per_route"]["documents"] == {"questions": 1, "correct": 1, "accuracy": 1.0}
    assert [m["question"] for m in report["misrouted"]] == [
        "What is the total amount invoiced in 2025?"
    ]
    assert 0 < report["p50_ms"] <= report["p95_ms"] <= report["max_ms"]


def test_the_command_refuses_a_missing_file_or_user(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No such file"):
        call_command("eval_routing", str(tmp_path / "missing.jsonl"))


@pytest.mark.django_db
def test_an_unknown_user_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "q.jsonl", [{"question": "hello", "route": "general"}])
    with pytest.raises(CommandError, match="no such user: nobody"):
        call_command("eval_routing", str(path), "--user", "nobody")


def test_the_development_set_is_varied_and_apart_from_the_examples() -> None:
    questions = load_questions(DEV_SET)
    assert len(questions) >= 100
    counts = Counter(q.route for q in questions)
    assert set(counts) == set(ROUTES) and min(counts.values()) >= 10
    follow_ups = [q for q in questions if q.history]
    assert len(follow_ups) >= 15
    # The router's nearest-example signal must not simply recognise the set.
    examples = {q.lower().strip(" ?!.") for _, q in shipped_examples()}
    assert not [q.question for q in questions if q.question.lower().strip(" ?!.") in examples]


@pytest.mark.django_db
@pytest.mark.timeout(1800)  # ingests the demo corpus unless --reuse-db kept it
def test_the_development_set_routes_at_least_95_percent(demo: RoutingCorpus) -> None:
    report = evaluate(load_questions(DEV_SET), user=demo.reader)
    misrouted = [(m.question, m.expected, m.got) for m in report.misrouted]
    assert report.accuracy >= 0.95, misrouted
    assert all(figures["accuracy"] >= 0.85 for figures in report.per_route.values()), misrouted
