"""The default chat workflow end to end on the demo data: routing, planning, the tools,
validation and the answer writers, through the orchestrator's entry point."""

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from chat.orchestrator import planning
from chat.orchestrator.context import Turn
from chat.orchestrator.service import answer_question
from chat.orchestrator.workflow import load_workflow
from registries.demo_registry import DEMO_DIR, DEMO_FILES
from registries.files import import_files
from registries.introspection import IntrospectedSchema
from registries.models import DataSource, Provenance
from registries.sync import store
from sqlagent.agent import ask

from ..sqlagent.agent_fixtures import (  # noqa: F401 - fixtures
    AES_KEY,
    AGENT_PASSWORD,
    AGENT_USER,
    agent_warehouse_schema,
    agent_warehouse_url,
    gold,
    no_llm,
)
from .tool_fixtures import ToolCorpus, streaming_llm, tool_corpus  # noqa: F401 - fixtures

# The tools run in worker threads with their own database connections: what they read
# (the corpus, the warehouse's registry) is committed, outside the test's transaction.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def warehouse(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[DataSource]:
    """The demo warehouse and its registry as the default data source, committed."""
    url = request.getfixturevalue("agent_warehouse_url")
    schema: IntrospectedSchema = request.getfixturevalue("agent_warehouse_schema")
    overrides = {
        "WAREHOUSE_URL": url,
        "WAREHOUSE_AGENT_USER": AGENT_USER,
        "WAREHOUSE_AGENT_PASSWORD": AGENT_PASSWORD,
        "WAREHOUSE_AES_KEY": AES_KEY,
    }
    saved = {name: getattr(settings, name) for name in overrides}
    for name, value in overrides.items():
        setattr(settings, name, value)
    with django_db_blocker.unblock():
        source, _ = DataSource.objects.update_or_create(
            name=settings.REGISTRIES_DEFAULT_DATA_SOURCE,
            defaults={"url_env": "WAREHOUSE_URL", "dialect": "mysql"},
        )
        store(source, schema)
        files = [(name, (DEMO_DIR / name).read_text()) for name in DEMO_FILES]
        import_files(source, files, provenance=Provenance.DEMO)
        try:
            yield source
        finally:
            source.delete()
            for name, value in saved.items():
                setattr(settings, name, value)


@pytest.fixture(scope="module")  # set up before the test's transaction opens
def corpus(request: pytest.FixtureRequest) -> ToolCorpus:
    return request.getfixturevalue("tool_corpus")


@pytest.fixture
def fake_llm(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue("streaming_llm")


def run(question: str, user: Any, **options: Any) -> list[dict[str, Any]]:
    async def collect() -> list[dict[str, Any]]:
        return [e.to_dict() async for e in answer_question(question, user=user, **options)]

    return asyncio.run(collect())


def named(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [event for event in events if event["event"] == name]


def tools_called(events: list[dict[str, Any]]) -> list[str]:
    return [event["tool"] for event in named(events, "tool_start")]


def test_the_shipped_workflow_is_valid() -> None:
    spec = load_workflow("chat")
    assert spec.entry_node_id == "route"


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_database_question_streams_its_table_and_ends_complete(corpus: ToolCorpus) -> None:
    events = run("How many technicians are currently active?", corpus.reader)
    assert events[0]["event"] == "tool_start"  # the router, announced at once
    decision = named(events, "route_decision")[0]
    assert decision["route"] == "sql" and decision["mode"] == "one_way"
    assert "sql_agent" in tools_called(events)
    table = named(events, "table")[0]
    expected = gold("SELECT COUNT(*) FROM employee WHERE isTechnician = TRUE AND isActive = TRUE")
    assert [tuple(row) for row in table["rows"]] == expected
    assert events[-1]["event"] == "complete"
    answer = events[-1]["answer"]
    assert answer["route"] == "sql" and str(expected[0][0]) in answer["content"]
    tokens = "".join(e["content"] for e in named(events, "token"))
    assert tokens == answer["content"]
    assert events[-1]["stats"]["first_token_ms"] <= events[-1]["stats"]["latency_ms"]
    assert {entry["node"] for entry in events[-1]["trace"]} >= {"route", "sql", "validate"}


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_follow_up_reuses_the_question_with_a_new_date_range(corpus: ToolCorpus) -> None:
    first_question = "How many work orders were completed in 2025?"
    first = run(first_question, corpus.reader)[-1]["answer"]
    history = [
        Turn("user", first_question),
        Turn("assistant", first["content"], route="sql", data=first["data"]),
    ]
    events = run("and in 2024?", corpus.reader, history=history)
    decision = named(events, "route_decision")[0]
    assert decision["route"] == "sql" and decision["follow_up"]
    assert "2024" in decision["question"] and "work order" in decision["question"].lower()
    direct = ask(decision["question"], user=corpus.reader)
    rows = named(events, "table")[0]["rows"]
    assert rows == json.loads(json.dumps(direct.rows, default=str))
    assert rows != named(run(first_question, corpus.reader), "table")[0]["rows"]


@pytest.mark.usefixtures("no_llm")
def test_a_document_question_answers_from_cited_sentences(corpus: ToolCorpus) -> None:
    events = run("Are salaried managers eligible for overtime pay under the policy?", corpus.reader)
    assert named(events, "route_decision")[0]["route"] == "documents"
    sources = named(events, "sources")[0]["sources"]
    assert sources and all(s["collection"] == corpus.team.name for s in sources)
    answer = events[-1]["answer"]
    assert answer["route"] == "documents" and "[1]" in answer["content"]
    cited = {s["file_name"] for s in answer["sources"]}
    assert "overtime_policy.pdf" in cited


@pytest.mark.usefixtures("no_llm")
def test_general_and_arithmetic_questions_call_no_data_tool(corpus: ToolCorpus) -> None:
    events = run("What can you do?", corpus.reader)
    assert events[-1]["answer"]["route"] == "general"
    assert not {"sql_agent", "document_search"} & set(tools_called(events))

    events = run("What is 15% of 2400?", corpus.reader)
    assert "calculator" in tools_called(events)
    assert "360" in events[-1]["answer"]["content"]


def test_an_empty_or_overlong_question_is_refused_before_any_work(
    corpus: ToolCorpus, settings: Any
) -> None:
    settings.CHAT_MAX_MESSAGE_CHARS = 50
    for question in ("   ", "x" * 51):
        events = run(question, corpus.reader)
        assert [e["event"] for e in events] == ["error"]
        assert events[0]["code"] == "bad_request"


@pytest.mark.usefixtures("no_llm")
def test_closing_the_stream_cancels_the_run(corpus: ToolCorpus) -> None:
    async def first_event_then_close() -> asyncio.Task[Any] | None:
        stream = answer_question("What does the overtime policy say?", user=corpus.reader)
        await stream.__anext__()
        await stream.aclose()
        await asyncio.sleep(0)
        running = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        return running[0] if running else None

    leftover = asyncio.run(first_event_then_close())
    assert leftover is None or leftover.cancelled() or leftover.done()


def test_the_language_model_may_plan_the_steps(fake_llm: Any) -> None:
    fake_llm.replies["You plan the tool calls"] = json.dumps(
        {
            "steps": [
                {
                    "tool": "document_search",
                    "inputs": {"query": "overtime approval"},
                    "why": "the policy says it",
                }
            ]
        }
    )
    decision = {"route": "documents", "confidence": 0.9, "question": "overtime?", "scores": {}}
    plan = planning.next_step(decision, None, {})
    assert plan.method == "llm" and plan.next == "document_search"
    assert plan.inputs == {"query": "overtime approval"}


def test_a_plan_the_model_gets_wrong_falls_back_to_the_deterministic_one(
    fake_llm: Any,
) -> None:
    fake_llm.replies["You plan the tool calls"] = '{"steps": [{"tool": "rm -rf"}]}'
    decision = {"route": "sql", "confidence": 0.9, "question": "How many customers?"}
    plan = planning.next_step(decision, None, {})
    assert plan.method == "deterministic" and plan.next == "sql_agent"


@pytest.mark.parametrize("route", ["sql", "documents", "graph"])
def test_a_rejected_result_is_replanned_on_the_next_likely_route(route: str) -> None:
    scores = {"sql": 0.5, "documents": 0.4, "graph": 0.2, "general": 0.1}
    decision = {"route": route, "confidence": 0.9, "question": "q", "scores": scores}
    plan = planning.next_step(decision, None, {})
    while plan.next != "respond":  # the planned steps run
        plan = planning.next_step(decision, plan.as_dict(), {})
    rejected = {"ok": False, "feedback": "no rows"}
    retry = planning.next_step(decision, plan.as_dict(), {}, rejected)
    expected = max((r for r in scores if r != route and r != "general"), key=scores.__getitem__)
    assert retry.route == expected and retry.attempt == 1
    assert "no rows" in retry.why


def test_react_mode_moves_on_when_a_result_does_not_answer() -> None:
    scores = {"sql": 0.45, "documents": 0.4}
    decision = {"route": "sql", "confidence": 0.5, "question": "q", "scores": scores}
    plan = planning.next_step(decision, None, {})
    assert plan.mode == "react" and plan.next == "sql_agent"
    declined = {"sql": {"answer": {"status": "declined", "rows": []}, "declined": True}}
    plan = planning.next_step(decision, plan.as_dict(), declined)
    assert plan.next == "document_search"
    assert plan.taken == ["sql_agent", "document_search"]


def test_plans_never_take_more_than_five_steps() -> None:
    scores = {"sql": 1.0, "documents": 1.0, "graph": 1.0}
    decision = {"route": "graph", "confidence": 0.3, "question": "q", "scores": scores}
    plan = planning.next_step(decision, None, {})
    for _ in range(10):
        plan = planning.next_step(decision, plan.as_dict(), {}, {"ok": False})
    assert len(plan.taken) <= planning.MAX_STEPS and plan.next == "respond"
