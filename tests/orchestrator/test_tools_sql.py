"""sql_agent on the demo warehouse (MariaDB) without an LLM: the answer, a declined
question, the person's data scope, other data sources, history and a database that is down.

The tool functions run here, in the test's transaction, where the warehouse fixture's
registry rows live (call_tool would run them in another thread)."""

from typing import Any

import pytest
from pytest_django.fixtures import Settings

from chat.orchestrator.context import Turn
from chat.orchestrator.tools.registry import ToolError
from chat.orchestrator.tools.sql import WAREHOUSE_DOWN, run, sql_history
from sqlagent.answer import Turn as SqlTurn
from sqlagent.models import DataScope

from ..sqlagent.agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, warehouse
from .tool_fixtures import closed_port, context, fixture_no_llm

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "fixture_no_llm", "warehouse"]

pytestmark = pytest.mark.usefixtures("warehouse", "no_llm")

COMPLETED_2025 = (
    "SELECT COUNT(*) FROM `workOrder` WHERE `status` = 'completed' "
    "AND `completedAt` >= '2025-01-01' AND `completedAt` < '2026-01-01'"
)


@pytest.fixture
def person(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("sql-person", password="pw")


def test_a_question_is_answered_with_its_sql_and_rows(person: Any) -> None:
    ctx, events = context(person, "How many work orders were completed in 2025?")
    out = run({}, ctx)
    assert out["declined"] is False and out["reason"] == ""
    answer = out["answer"]
    assert answer["status"] == "answered"
    assert [str(v) for v in answer["rows"][0]] == [str(gold(COMPLETED_2025)[0][0])]
    assert answer["sql"] and "secure_" in answer["sql"]
    assert answer["question"] == "How many work orders were completed in 2025?"
    assert "plan" not in answer
    # The agent's own steps stay in its trace; the tool adds no events of its own.
    assert [s["step"] for s in answer["trace"]][:2] == ["source", "source"]
    assert events.events == []


def test_a_question_the_database_cannot_answer_is_declined(person: Any) -> None:
    ctx, _ = context(person, "How many unicorns are there?")
    out = run({}, ctx)
    assert out["declined"] is True
    assert out["answer"]["status"] == "declined"
    assert out["reason"] and out["reason"] == out["answer"]["reason"]
    assert out["answer"]["sql"] is None


def test_the_persons_data_scope_applies(person: Any) -> None:
    closed = DataScope.objects.create(name="nothing", sees_nothing=True)
    closed.users.add(person)
    ctx, _ = context(person, "How many customers do we have?")
    out = run({"question": "How many customers do we have?"}, ctx)
    assert out["answer"]["status"] in ("answered", "empty")
    assert str(out["answer"]["rows"][0][0]) == "0"


def test_other_data_sources_are_for_staff(person: Any, django_user_model: Any) -> None:
    ctx, _ = context(person, "How many customers do we have?")
    with pytest.raises(ToolError, match=r"There is no data source named 'nowhere'\."):
        run({"data_source": "nowhere"}, ctx)
    from registries.models import DataSource

    DataSource.objects.create(name="evaluation", url="mysql://root@127.0.0.1:3306/x")
    with pytest.raises(ToolError, match="Only staff may ask a data source other than"):
        run({"data_source": "evaluation"}, ctx)


def test_a_database_that_cannot_be_reached_is_a_clear_error(
    person: Any, settings: Settings
) -> None:
    settings.WAREHOUSE_URL = f"mysql://root@127.0.0.1:{closed_port()}/switchboard_warehouse"
    ctx, _ = context(person, "How many work orders were completed in 2025?")
    with pytest.raises(ToolError) as error:
        run({}, ctx)
    assert str(error.value) == WAREHOUSE_DOWN


def test_an_empty_question_is_refused(person: Any) -> None:
    ctx, _ = context(person, "  ")
    with pytest.raises(ToolError, match=r"There is no question to ask the business database\."):
        run({"question": ""}, ctx)


def test_history_passes_earlier_database_questions_and_their_sql() -> None:
    history = [
        Turn("user", "How many work orders were completed in 2025?"),
        Turn("assistant", "812 work orders.", "sql",
             {"question": "How many work orders were completed in 2025?", "sql": "SELECT 1"}),
        Turn("user", "Who wrote the overtime policy?"),
        Turn("assistant", "Dana Whitfield [1].", "documents", {"query": "overtime policy"}),
        Turn("assistant", "Declined.", "sql", {"question": "How many unicorns?", "sql": None}),
    ]  # fmt: skip
    assert sql_history(history) == [
        SqlTurn("How many work orders were completed in 2025?", "SELECT 1"),
        SqlTurn("How many unicorns?", None),
    ]


def test_the_agent_reuses_the_routers_reading_of_the_question(person: Any) -> None:
    from chat.orchestrator import routing
    from chat.orchestrator.tools.chat_steps import run_route

    routing.clear_caches()  # the router reads this test's warehouse registry
    ctx, _ = context(person, "How many work orders were completed in 2025?")
    assert run_route({}, ctx)["route"] == "sql"
    assert ctx.analysis.sql is not None
    answer = run({}, ctx)["answer"]
    terms = [s for s in answer["trace"] if s["step"] == "terms" and s["status"] == "end"]
    assert terms[0]["detail"]["read_before"] is True
    assert [str(v) for v in answer["rows"][0]] == [str(gold(COMPLETED_2025)[0][0])]
    # Another question than the one routed is read afresh.
    other = run({"question": "How many work orders were completed in 2024?"}, ctx)["answer"]
    terms = [s for s in other["trace"] if s["step"] == "terms" and s["status"] == "end"]
    assert "read_before" not in terms[0]["detail"]


def test_a_decline_says_what_was_understood_and_the_terms_near_a_misspelling(
    person: Any,
) -> None:
    from chat.orchestrator.answers.sql import write_sql_answer

    ctx, _ = context(person, "How many technitians completed work orders in 2025?")
    out = run({}, ctx)
    assert out["declined"] is True
    found = out["answer"]
    assert "technitian" in found["unknown"]
    assert "technician" in found["nearby"]
    assert any(u.startswith("work order") for u in found["understood"])
    words = write_sql_answer(ctx.question, out, ctx)
    assert words["outcome"] == "declined"
    assert words["content"].startswith("I cannot answer this from the business database:")
    assert "I did understand: " in words["content"] and "technician" in words["content"]


def test_a_count_per_group_names_what_it_counted(person: Any) -> None:
    ctx, _ = context(person, "Which branch has the most work orders?")
    answer = run({}, ctx)["answer"]
    assert answer["status"] == "answered"
    assert answer["answer"].startswith("Top: ")
    assert "work order" in answer["answer"] and "(count)" not in answer["answer"]
