"""The router against the real services: the demo registry over the test warehouse, the demo
documents ingested through the real pipeline, the local embedding model."""

import json
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from pytest_django.fixtures import Settings

from chat.models import RouteExample
from chat.orchestrator import routing
from chat.orchestrator.context import Turn
from chat.orchestrator.routing import RouteDecision, example_index, route_question
from registries.models import DataSource

from ..ingestion.fake_openai import FakeOpenAI
from .routing_fixtures import (  # noqa: F401 - fixtures
    RoutingCorpus,
    agent_warehouse_schema,
    agent_warehouse_url,
    no_router_llm,
    router_llm,
    routing_corpus,
    routing_warehouse,
    warehouse,
)

# The first test ingests the demo corpus (minutes on two cores) unless --reuse-db kept it.
pytestmark = [pytest.mark.django_db, pytest.mark.timeout(1800)]
LLM = Callable[[Callable[[str], str]], FakeOpenAI]


@pytest.fixture
def demo(routing_warehouse: DataSource, routing_corpus: RoutingCorpus) -> RoutingCorpus:  # noqa: F811
    """The demo documents and the demo registry, the router's caches cleared."""
    return routing_corpus


@pytest.fixture
def fake_llm(demo: RoutingCorpus, router_llm: LLM) -> LLM:  # noqa: F811
    return router_llm


def routed(
    question: str, corpus: RoutingCorpus, history: list[Turn] | None = None
) -> RouteDecision:
    return route_question(question, history or [], user=corpus.reader)


def reasons_of(decision: RouteDecision) -> str:
    return " | ".join(decision.reasons)


def test_attached_files_are_an_upload(demo: RoutingCorpus) -> None:
    decision = route_question(
        "What does this contract say about payment terms?",
        [],
        attachments=["/tmp/uploads/service_contract.pdf"],
        user=demo.reader,
    )
    assert decision.route == "upload"
    assert decision.reasons == ["1 file(s) attached: service_contract.pdf"]
    assert decision.scores["upload"] == 1.0 and decision.scores["documents"] == 0.0


def test_an_empty_question_asks_for_clarification() -> None:
    decision = route_question("   ", [])
    assert (decision.route, decision.reasons) == ("clarification", ["the question is empty"])


def test_a_database_question_names_its_warehouse_signals(demo: RoutingCorpus) -> None:
    decision = routed("How many work orders were completed in 2025?", demo)
    assert decision.route == "sql"
    assert decision.method == "deterministic"
    text = reasons_of(decision)
    assert "warehouse words cover" in text and "work order" in text
    assert "asks for a count" in text
    assert "2025-01-01 to 2025-12-31" in text
    assert decision.scores["sql"] == max(decision.scores.values())
    assert 0.5 < decision.confidence <= 1.0


def test_a_customer_named_in_the_warehouse_makes_a_database_question(demo: RoutingCorpus) -> None:
    decision = routed("Who is the account manager for Sterling Power Holdings?", demo)
    assert decision.route == "sql"
    assert "names warehouse values: Sterling Power Holdings" in reasons_of(decision)


def test_a_policy_question_rests_on_words_only_the_documents_know(demo: RoutingCorpus) -> None:
    decision = routed("What is the maximum wind speed for crane lifts?", demo)
    assert decision.route == "documents"
    text = reasons_of(decision)
    assert "words only your documents know: " in text and "wind" in text


def test_the_manual_about_work_orders_is_still_documents(demo: RoutingCorpus) -> None:
    # Every content word is also a warehouse word; the form of the question decides.
    decision = routed("Can a cancelled work order be reopened?", demo)
    assert decision.route == "documents"
    assert "a question of how or whether" in reasons_of(decision)


def test_relations_between_people_go_to_the_graph(demo: RoutingCorpus) -> None:
    decision = routed("Who were Sarah Chen's colleagues at Brightwater Health?", demo)
    assert decision.route == "graph"
    text = reasons_of(decision)
    assert "Sarah Chen" in text and "colleagues" in text


def test_entities_of_unreadable_documents_do_not_count(demo: RoutingCorpus) -> None:
    question = "Who did Maria Delgado work with on the Bayport Terminal crane rebuild?"
    reader = route_question(question, [], user=demo.reader)
    outsider = route_question(question, [], user=demo.outsider)
    assert "Maria Delgado" in reasons_of(reader)
    assert "Maria Delgado" not in reasons_of(outsider)
    assert "keywords match your documents" not in reasons_of(outsider)
    assert outsider.scores["graph"] < reader.scores["graph"]
    assert outsider.scores["documents"] < reader.scores["documents"]


@pytest.mark.parametrize(
    ("question", "route", "reason"),
    [
        ("hello", "general", "a greeting"),
        ("What can you do?", "general", "asks about the assistant itself"),
        ("thanks!", "general", "thanks or a goodbye"),
        ("more", "clarification", "nothing to act on"),
        ("and in 2024?", "clarification", "continues an earlier answer that is not there"),
        ("upload this file", "upload", "asks to upload or ingest a file"),
    ],
)
def test_the_words_themselves(
    question: str,
    route: str,
    reason: str,
    demo: RoutingCorpus,
) -> None:
    decision = routed(question, demo)
    assert decision.route == route
    assert reason in reasons_of(decision)


def test_a_greeting_before_a_question_leaves_the_question(demo: RoutingCorpus) -> None:
    decision = routed("hi, how many customers do we have?", demo)
    assert decision.route == "sql"
    assert "a greeting" not in reasons_of(decision)


def test_a_follow_up_routes_like_its_antecedent(demo: RoutingCorpus) -> None:
    question = "How many work orders were completed in 2025?"
    history = [
        Turn("user", question),
        Turn("assistant", "3,397", "sql", {"question": question, "sql": "SELECT 1"}),
    ]
    decision = routed("and in 2024?", demo, history)
    assert decision.route == "sql"
    assert decision.follow_up is not None
    assert decision.follow_up.question == "How many work orders were completed in 2024?"
    assert decision.reasons[0] == f"follows the database answer to {question!r}"
    # The same words with no answer before them are too vague to act on.
    assert routed("and in 2024?", demo).route == "clarification"


def test_a_new_question_after_an_answer_is_routed_on_its_own(demo: RoutingCorpus) -> None:
    question = "How many work orders were completed in 2025?"
    history = [Turn("user", question), Turn("assistant", "3,397", "sql", {"question": question})]
    decision = routed("What PPE is required on every job?", demo, history)
    assert decision.route == "documents" and decision.follow_up is None


def test_a_typical_question_runs_a_handful_of_queries(
    demo: RoutingCorpus,
    django_assert_max_num_queries: Any,
) -> None:
    routed("warm the caches up", demo)
    with django_assert_max_num_queries(9):
        decision = routed("Which technicians logged the most overtime last month?", demo)
    assert decision.route == "sql"
    assert set(decision.timings) >= {"sql_terms", "documents", "entities", "examples", "total"}


def test_without_the_warehouse_values_the_registry_words_still_route(
    demo: RoutingCorpus, settings: Settings
) -> None:
    settings.WAREHOUSE_URL = "mysql://root@127.0.0.1:1/nowhere"  # nothing listens on port 1
    routing.clear_caches()
    decision = routed("How many work orders were completed in 2025?", demo)
    assert decision.route == "sql"
    assert decision.reasons[-1] == "the warehouse's values are unavailable"


# --- example questions ---------------------------------------------------------------------


def test_the_shipped_examples_serve_while_the_table_is_empty(demo: RoutingCorpus) -> None:
    routing.clear_caches()
    index = example_index()
    shipped = routing.shipped_examples()
    assert len(index.questions) == len(shipped) and set(index.routes) == set(routing.ROUTES)
    assert index.vectors.shape == (len(shipped), 384)


def test_admin_examples_replace_the_shipped_ones_and_edits_show_at_once(
    demo: RoutingCorpus,
) -> None:
    question = "zebra crossing permit renewals"
    before = routed(question, demo)
    example = RouteExample.objects.create(route="upload", question="Zebra crossing permit renewal")
    index = example_index()
    assert index.questions == ("Zebra crossing permit renewal",)
    after = routed(question, demo)
    assert "near example questions" in reasons_of(after)
    assert after.scores["upload"] > before.scores["upload"] + 0.5
    example.enabled = False
    example.save()
    assert example_index().questions == ()
    assert routed(question, demo).scores["upload"] < after.scores["upload"]


def test_load_route_examples_is_idempotent_and_keeps_admin_rows(tmp_path: Path) -> None:
    RouteExample.objects.create(route="sql", question="An admin's own example")
    disabled = RouteExample.objects.create(route="general", question="Hi!", enabled=False)
    out = StringIO()
    call_command("load_route_examples", stdout=out)
    shipped = len(routing.shipped_examples())
    assert RouteExample.objects.count() == shipped + 1
    assert f"{shipped - 1} example questions added, 1 already there" in out.getvalue()
    call_command("load_route_examples", stdout=StringIO())
    assert RouteExample.objects.count() == shipped + 1
    disabled.refresh_from_db()
    assert disabled.enabled is False
    bad = tmp_path / "examples.json"
    bad.write_text(json.dumps({"examples": {"weather": ["Will it rain?"]}}))
    with pytest.raises(CommandError, match="unknown routes: weather"):
        call_command("load_route_examples", "--file", str(bad))
    assert RouteExample.objects.count() == shipped + 1


# --- with an LLM ---------------------------------------------------------------------------


def test_an_unsure_decision_goes_to_the_llm(
    demo: RoutingCorpus,
    fake_llm: LLM,
    settings: Settings,
) -> None:
    settings.ORCHESTRATOR_ROUTER_LLM_BELOW = 1.01  # every decision counts as unsure
    fake = fake_llm(lambda prompt: "graph")
    question = "How many work orders were completed in 2025?"
    decision = routed(question, demo)
    assert (decision.route, decision.method) == ("graph", "llm")
    assert decision.reasons[0].startswith("the language model chose graph")
    assert len(fake.prompts) == 1 and f"Question: {question}" in fake.prompts[0]
    assert "- sql: counts, totals" in fake.prompts[0]


def test_a_confident_decision_never_asks_the_llm(
    demo: RoutingCorpus,
    fake_llm: LLM,
) -> None:
    fake = fake_llm(lambda prompt: "graph")
    decision = routed("How many work orders were completed in 2025?", demo)
    assert (decision.route, decision.method) == ("sql", "deterministic")
    assert fake.prompts == []


def test_an_llm_that_names_no_route_or_is_down_leaves_the_signals_to_decide(
    demo: RoutingCorpus,
    fake_llm: LLM,
    settings: Settings,
) -> None:
    settings.ORCHESTRATOR_ROUTER_LLM_BELOW = 1.01
    fake_llm(lambda prompt: "I am not sure.")
    decision = routed("How many work orders were completed in 2025?", demo)
    assert (decision.route, decision.method) == ("sql", "deterministic")
    assert "the language model answered no route ('I am not sure.')" in decision.reasons
    settings.OPENAI_BASE_URL = "http://127.0.0.1:1/v1"
    routing.llm.get_client.cache_clear()
    decision = routed("How many work orders were completed in 2025?", demo)
    assert decision.route == "sql"
    assert "the language model could not be asked; the signals decided" in decision.reasons


def test_the_warm_up_builds_the_example_index_before_any_question() -> None:
    from chat.warmup import warm_up

    routing.clear_caches()
    warm_up()
    assert routing.examples._example_index is not None and routing.examples._example_index.questions


def test_the_warm_up_only_reads() -> None:
    """A server's warm-up thread runs beside everything else: creating the default data
    source there raced with whoever created it on purpose."""
    from chat.warmup import warm_up

    assert not DataSource.objects.exists()
    warm_up()
    assert not DataSource.objects.exists()
