"""validate_result: deterministic verdicts on real tool results and on failures, feedback a
re-plan can act on, and the model's JSON verdict when an LLM is configured (the fake OpenAI
server), which never costs the answer when it goes wrong."""

from typing import Any

import pytest

from chat.orchestrator.tools.documents import search_documents
from chat.orchestrator.tools.graph import entity_relations
from chat.orchestrator.tools.runner import call_tool
from chat.orchestrator.validation import check_deterministic, parse_verdict, validate

from .tool_fixtures import (  # noqa: F401 - fixtures
    LLM,
    ToolCorpus,
    context,
    fixture_no_llm,
    fixture_streaming_llm,
    fixture_tool_corpus,
)

pytestmark = pytest.mark.django_db


def sql_result(
    status: str, rows: list[list[Any]] | None = None, reason: str = ""
) -> dict[str, Any]:
    """The sql_agent tool's output shape around a SqlAnswer with this status."""
    answer = {"status": status, "rows": rows or [], "reason": reason, "answer": "", "sql": None}
    return {"answer": answer, "declined": status in ("declined", "error"), "reason": reason}


@pytest.mark.parametrize(
    ("result", "ok", "feedback"),
    [
        (sql_result("answered", [[812]]), True, ""),
        (sql_result("empty"), False,
         "no rows: retry with looser filters or a wider date range, or try the documents"),
        (sql_result("declined", reason="no table for 'unicorns'"), False,
         "the database declined: no table for 'unicorns'; try the documents or rephrase"),
        (sql_result("error", reason="the SQL still failed"), False,
         "the database declined: the SQL still failed; try the documents or rephrase"),
        ({"ok": False, "error": "sql_agent took longer than 30 s"}, False,
         "the tool failed (sql_agent took longer than 30 s): try the documents"),
        ({}, False, "the step gave no result: try another route"),
        (None, False, "the step gave no result: try another route"),
    ],
)  # fmt: skip
def test_sql_results(result: Any, ok: bool, feedback: str) -> None:
    verdict = check_deterministic("sql", result)
    assert (verdict.ok, verdict.feedback) == (ok, feedback)
    assert verdict.method == "deterministic" and verdict.reasons


def test_document_results_on_real_searches(tool_corpus: ToolCorpus, no_llm: None) -> None:
    ctx, _ = context(tool_corpus.reader, "")
    good = search_documents({"query": "How many hours a day before overtime is paid?"}, ctx)
    verdict = validate("documents", good, question="overtime")
    assert verdict.ok and verdict.reasons[0].startswith("best similarity 0.")

    weak = search_documents({"query": "What is the recipe for banana bread?"}, ctx)
    verdict = validate("documents", weak, question="banana bread")
    assert not verdict.ok
    assert verdict.feedback.startswith("only weak matches (best similarity 0.")
    assert verdict.feedback.endswith("try other keywords or the business database")

    nobody = search_documents({"query": "skills", "person": "Zebulon"}, ctx)
    verdict = validate("documents", nobody, question="skills")
    assert (verdict.ok, verdict.feedback) == (
        False,
        "no documents matched: try the business database or fewer, broader keywords",
    )
    failed = {"ok": False, "error": "document_search is unavailable for a while after failures"}
    assert validate("documents", failed, question="x").feedback == (
        "the tool failed (document_search is unavailable for a while after failures): "
        "try the business database"
    )


def test_graph_results(tool_corpus: ToolCorpus, no_llm: None) -> None:
    ctx, _ = context(tool_corpus.reader, "")
    found = entity_relations({"entity": "Alexis Torres"}, ctx)
    assert validate("graph", found, question="Who worked with Alexis Torres?").ok
    nothing = entity_relations({"question": "Who is in charge of the weather?"}, ctx)
    verdict = validate("graph", nothing, question="Who is in charge of the weather?")
    assert (verdict.ok, verdict.feedback) == (
        False,
        "nothing in the knowledge graph: try the documents",
    )
    facts: dict[str, list[Any]] = {"entities": [], "facts": [], "paths": [], "related": []}
    assert not check_deterministic("graph", facts).ok


def test_routes_that_need_no_check_pass() -> None:
    for route in ("general", "clarification", "upload"):
        assert check_deterministic(route, {"content": "hello"}).ok


def test_with_an_llm_its_verdict_decides(tool_corpus: ToolCorpus, streaming_llm: LLM) -> None:
    ctx, _ = context(tool_corpus.reader, "")
    good = search_documents({"query": "How many hours a day before overtime is paid?"}, ctx)
    streaming_llm.replies["Does the result below answer"] = (
        'Here is my verdict: {"ok": false, "feedback": "the passages are about weekends"}'
    )
    verdict = validate("documents", good, question="How many hours before overtime?")
    assert verdict.as_dict() == {
        "ok": False,
        "feedback": "the passages are about weekends",
        "reasons": ["the model's verdict"],
        "method": "llm",
    }
    prompt = streaming_llm.fake.prompts[-1]
    assert "Question: How many hours before overtime?" in prompt
    assert good["results"][0]["text"][:100] in prompt
    # A deterministic failure is final: the model is not asked.
    asked = len(streaming_llm.fake.prompts)
    assert not validate("sql", sql_result("empty"), question="x").ok
    assert len(streaming_llm.fake.prompts) == asked


def test_a_model_reply_that_is_no_verdict_keeps_the_deterministic_one(
    tool_corpus: ToolCorpus, streaming_llm: LLM
) -> None:
    streaming_llm.replies["Does the result below answer"] = "Looks fine to me!"
    verdict = validate("sql", sql_result("answered", [[1]]), question="How many?")
    assert verdict.ok and verdict.method == "deterministic"
    assert verdict.reasons[-1] == "the model gave no usable verdict"


@pytest.mark.parametrize(
    "reply",
    ["no json here", '{"ok": "yes"}', "[true]", '{"feedback": "x"}', '{"ok": tru'],
)
def test_replies_that_are_not_verdicts_are_refused(reply: str) -> None:
    with pytest.raises(ValueError):
        parse_verdict(reply)


async def test_the_tool_checks_its_inputs(no_llm: None) -> None:
    ctx, _ = context(None, "How many work orders?")
    result = await call_tool(
        "validate_result", {"route": "sql", "result": sql_result("empty")}, ctx
    )
    assert result.ok and result.output["ok"] is False
    assert result.output["feedback"].startswith("no rows")
    bad = await call_tool("validate_result", {"route": "weather", "result": {}}, ctx)
    assert not bad.ok
    assert bad.error.startswith("route: one of sql, documents, graph")
