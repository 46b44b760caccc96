"""Honest answers through the whole chat workflow, on the real services: a question the
documents do not answer says so and cites nothing, a database decline is stated in words,
and every answer says what became of the question (its outcome)."""

from typing import Any

import pytest

from chat.orchestrator.answer_evaluation import split_of
from chat.orchestrator.answers.answerability_training import best_threshold, rates

from .test_chat_workflow import (
    agent_warehouse_schema,
    agent_warehouse_url,
    corpus,
    named,
    no_llm,
    run,
    warehouse,
)
from .tool_fixtures import ToolCorpus, tool_corpus

__all__ = [
    "agent_warehouse_schema", "agent_warehouse_url", "corpus", "no_llm", "tool_corpus",
    "warehouse",
]  # fmt: skip

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_llm")]


def complete(events: list[dict[str, Any]]) -> dict[str, Any]:
    assert events[-1]["event"] == "complete", events[-1]
    return events[-1]


def test_an_answerable_document_question_is_answered_with_its_source(corpus: ToolCorpus) -> None:
    done = complete(run("How is overtime paid for hours over 40 in a week?", corpus.reader))
    assert done["outcome"] == "answered"
    assert "overtime_policy.pdf" in {s["file_name"] for s in done["answer"]["sources"]}
    assert named(run("How is overtime paid?", corpus.reader), "sources")


@pytest.mark.parametrize(
    "question",
    [
        "How many weeks of paid parental leave do new parents get?",
        "Who won the 2022 World Cup final?",
        "What is the wifi password in the office?",
    ],
)
def test_a_question_the_documents_do_not_answer_says_so_and_cites_nothing(
    corpus: ToolCorpus, question: str
) -> None:
    events = run(question, corpus.reader)
    done = complete(events)
    assert done["outcome"] in ("not_found", "declined", "clarify")
    assert done["answer"]["sources"] == [] and named(events, "sources") == []
    if done["answer"]["route"] == "documents":
        assert (
            "do not answer this" in done["answer"]["content"]
            or "Nothing" in (done["answer"]["content"])
        )
        assert corpus.team.name in done["answer"]["content"]  # the collections are named


@pytest.mark.usefixtures("warehouse")
def test_a_database_decline_is_stated_and_no_passage_stands_in(corpus: ToolCorpus) -> None:
    events = run("How many unicorns did the Dallas branch adopt in 2025?", corpus.reader)
    done = complete(events)
    assert done["outcome"] == "declined"
    assert "business database" in done["answer"]["content"]
    assert done["answer"]["sources"] == []


def test_the_threshold_keeps_the_worse_rate_highest() -> None:
    scored = [(0.9, True), (0.8, True), (0.6, True), (0.55, False), (0.3, False), (0.1, False)]
    cut = best_threshold(scored)
    assert cut == 0.6 and rates(scored, cut) == (1.0, 1.0)
    # A set that cannot be separated: neither kind is given up entirely.
    mixed = [(0.9, False), (0.8, True), (0.4, True), (0.2, False)]
    assert min(rates(mixed, best_threshold(mixed))) == 0.5


def test_the_split_depends_on_the_question_alone() -> None:
    assert split_of("How is overtime paid?") == split_of("  How is overtime paid?  ")
    halves = {split_of(f"question {n}") for n in range(20)}
    assert halves == {"dev", "held-out"}


def test_a_role_question_keeps_only_the_people_named_in_the_role() -> None:
    from chat.orchestrator.answers.roles import only_holders, role_asked

    assert role_asked("Who is the branch manager in Houston?") == "branch manager"
    assert role_asked("Who are the colleagues of Alexis?") == ""  # a relation, not a role
    assert role_asked("Who is Alexis Torres?") == ""
    relations = {
        "found": True,
        "entities": [
            {"name": "Ana Ruiz", "type": "Person"},
            {"name": "Ben Cole", "type": "Person"},
            {"name": "Houston", "type": "Location"},
        ],
        "chunks": [
            {"text": "Ana Ruiz, Branch Manager, Houston.", "entities": ["Ana Ruiz", "Houston"]},
            {"text": "Ben Cole drives a crane in Houston.", "entities": ["Ben Cole"]},
        ],
    }
    kept, facts = only_holders("branch manager", relations, {"related": [{"name": "Ben Cole"}]})
    assert [e["name"] for e in kept["entities"]] == ["Ana Ruiz"] and facts["related"] == []
    nobody, _ = only_holders("mayor", relations, {})
    assert nobody["entities"] == [] and nobody["found"] is False


def test_two_things_no_statement_links_are_not_answered_by_either_ones_neighbours(
    corpus: ToolCorpus,
) -> None:
    done = complete(run("What did Sarah Okafor work on in Project Lumen?", corpus.reader))
    assert done["answer"]["route"] == "graph" and done["outcome"] == "not_found"
    assert "nothing that links Sarah Okafor to Project Lumen" in done["answer"]["content"]
    assert done["answer"]["sources"] == []
    linked = complete(run("What did Will Patterson work on in Project Lumen?", corpus.reader))
    assert linked["outcome"] == "answered" and "Project Lumen" in linked["answer"]["content"]
