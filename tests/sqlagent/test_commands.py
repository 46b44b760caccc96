"""ask_sql, eval_sql and spider_questions, run as an operator runs them."""

import csv
import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from sqlagent.models import DataScope

from .agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, no_llm, warehouse

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "no_llm", "warehouse"]

COMPLETED_2025 = (
    "SELECT COUNT(*) FROM `workOrder` WHERE `status` = 'completed' "
    "AND `completedAt` >= '2025-01-01' AND `completedAt` < '2026-01-01'"
)


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_ask_sql_prints_answer_sql_tables_joins_rows_and_timings() -> None:
    out = _run("ask_sql", "List the technicians in Denver")
    technicians = gold(
        "SELECT COUNT(*) FROM `employee` e JOIN `branch` b ON b.`id` = e.`branchId` "
        "WHERE e.`isTechnician` = 1 AND b.`name` = 'Denver'"
    )[0][0]
    assert out.startswith(f"answered: {technicians} employees")
    assert "SQL:\n  SELECT " in out and "secure_employee" in out
    assert "tables:\n  employee: " in out and "branch: 'Denver'" in out
    assert "join path:\n  employee.branchId = branch.id" in out
    assert f"rows ({technicians}):" in out
    shown = out.split("rows (", 1)[1].split("\n\n", 1)[0].splitlines()
    # Header, rule, at most 20 rows, then how many more.
    assert len(shown) == 1 + 2 + min(20, technicians) + (technicians > 20)
    assert "timings (ms):" in out and "execution" in out and "total" in out


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_ask_sql_streams_steps_with_v2_and_prints_json() -> None:
    out = _run("ask_sql", "How many work orders are there?", "-v", "2")
    lines = out.splitlines()
    assert lines[0].startswith("  [source end")
    assert any(line.startswith("  [execution end") for line in lines)
    assert out.index("[finalize end") < out.index("answered:")
    data = json.loads(_run("ask_sql", "How many work orders are there?", "--json"))
    assert data["rows"] == [[gold("SELECT COUNT(*) FROM `workOrder`")[0][0]]]


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_ask_sql_answers_within_a_users_scope() -> None:
    user = User.objects.create_user("carol")
    customer = gold("SELECT MAX(`customerId`) FROM `workOrder`")[0][0]
    DataScope.objects.create(name="one", customer_ids=[customer]).users.add(user)
    data = json.loads(
        _run("ask_sql", "How many work orders are there?", "--user", "carol", "--json")
    )
    expected = gold("SELECT COUNT(*) FROM `workOrder` WHERE `customerId` = %s", customer)[0][0]
    assert data["rows"] == [[expected]]
    with pytest.raises(CommandError, match="no user named 'dave'"):
        _run("ask_sql", "How many work orders are there?", "--user", "dave")


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_ask_sql_fails_on_an_unknown_data_source() -> None:
    with pytest.raises(CommandError, match="nowhere"):
        _run("ask_sql", "How many work orders are there?", "--data-source", "nowhere")


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_eval_sql_tallies_correct_wrong_declined_and_writes_a_report(tmp_path: Path) -> None:
    lines = [
        {"question": "How many work orders were completed in 2025?", "sql": COMPLETED_2025},
        # A gold answer for another year: the agent's right answer disagrees with it.
        {
            "question": "How many work orders were completed in 2024?",
            "sql": COMPLETED_2025,
        },
        {"question": "How many unicorns are there?", "sql": "SELECT COUNT(*) FROM `employee`"},
        {"question": "How many branches are there?", "sql": "SELECT COUNT(*) FROM `nothing`"},
    ]
    questions = tmp_path / "set.jsonl"
    questions.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    report = tmp_path / "report.json"
    out = _run("eval_sql", str(questions), "--report", str(report), "-v", "2")
    data = json.loads(report.read_text())
    summary = data["summary"]
    assert (summary["questions"], summary["scored"]) == (4, 3)
    assert (summary["correct"], summary["wrong"], summary["declined"]) == (1, 1, 1)
    assert summary["gold_errors"] == 1
    assert summary["accuracy"] == round(1 / 3, 4) == summary["wrong_rate"]
    assert {"terms", "execution", "total"} <= set(summary["latency_ms"])
    verdicts = [q["verdict"] for q in data["questions"]]
    assert verdicts == ["correct", "wrong", "declined", "gold_error"]
    assert "'unicorn'" in data["questions"][2]["reason"]
    assert "correct        1" in out and f"report written to {report}" in out


def test_eval_sql_refuses_a_file_that_is_not_a_question_set(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "no gold"}\n')
    with pytest.raises(CommandError, match=r"bad\.jsonl:1"):
        _run("eval_sql", str(bad))


def _datasets() -> Path:
    folder = Path(settings.DATASETS_DIR)
    if not (folder / "spider_train" / "train_queries.csv").is_file():
        pytest.skip(f"the sample datasets are not at {folder}")
    return folder


def test_spider_questions_writes_a_question_set_per_database(tmp_path: Path) -> None:
    folder = _datasets()
    with (folder / "spider_train" / "train_queries.csv").open(newline="") as handle:
        expected = [row for row in csv.DictReader(handle) if row["database"] == "hr_1"]
    out = tmp_path / "hr.jsonl"
    _run("spider_questions", "--out", str(out), "--dbs", "hr_1")
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == len(expected) > 0
    assert lines[0] == {
        "question": expected[0]["question"],
        "sql": expected[0]["sql"],
        "db": "hr_1",
    }
    with pytest.raises(CommandError, match="no Spider questions for: nope"):
        _run("spider_questions", "--out", str(out), "--dbs", "nope")


def test_spider_questions_writes_chinooks_without_a_db(tmp_path: Path) -> None:
    folder = _datasets()
    items = json.loads((folder / "chinook" / "spider_train_chinook_questions.json").read_text())
    out = tmp_path / "chinook.jsonl"
    _run("spider_questions", "--out", str(out), "--chinook")
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == sum(1 for item in items if item["db"] == "chinook_1") > 0
    assert all(set(line) == {"question", "sql"} for line in lines)
