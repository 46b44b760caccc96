"""The answer writers on real search, graph and SQL results: extractive answers with their
citations, streamed as tokens; grounded model answers (the fake OpenAI server, streaming);
SQL tables and charts; graph statements; and the honest general, clarification and upload
answers."""

import re
from typing import Any

import pytest

from chat.models import DisplayFormat, RouteExample
from chat.orchestrator.answers import (
    write_clarification,
    write_document_answer,
    write_general_answer,
    write_graph_answer,
    write_sql_answer,
    write_upload_answer,
)
from chat.orchestrator.answers.answer_kinds import answer_type
from chat.orchestrator.answers.extractive import (
    cite,
    coverage,
    document_label,
    grouped,
    render,
    score_sentences,
    split_sentences,
)
from chat.orchestrator.answers.sql import detect_chart
from chat.orchestrator.answers.tools import run_sql_answer
from chat.orchestrator.tools.documents import GRAPH_DOWN, search_documents
from chat.orchestrator.tools.graph import entity_relations, graph_question
from chat.orchestrator.tools.runner import call_tool
from chat.orchestrator.tools.sql import run as ask_sql
from retrieval.models import QueryTrace

from ..sqlagent.agent_fixtures import agent_warehouse_schema, agent_warehouse_url, warehouse
from .tool_fixtures import (  # noqa: F401 - fixtures
    LLM,
    ToolCorpus,
    context,
    fixture_graph_breaker,
    fixture_graph_down,
    fixture_llm_down,
    fixture_no_llm,
    fixture_streaming_llm,
    fixture_tool_corpus,
)

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "warehouse"]

pytestmark = pytest.mark.django_db
CITATION = re.compile(r"\[(\d+)\]")


def searched(corpus: ToolCorpus, question: str, **inputs: Any) -> tuple[Any, Any, dict[str, Any]]:
    ctx, events = context(corpus.reader, question)
    return ctx, events, search_documents({"query": question, **inputs}, ctx)


# --- documents, without an LLM -------------------------------------------------------------


def test_an_extractive_answer_quotes_what_answers_with_citations(
    tool_corpus: ToolCorpus, no_llm: None
) -> None:
    question = "How much data did Project Atlas move to AWS?"
    ctx, events, search = searched(tool_corpus, question)
    answer = write_document_answer(question, search, ctx)

    assert answer["route"] == "documents" and answer["display_format"] == DisplayFormat.TEXT
    assert "14 TB" in answer["content"]
    assert answer["data"]["method"] == "extractive"
    # Streamed a sentence at a time, and nothing but what the answer says.
    tokens = events.named("token")
    assert len(tokens) >= 2 and all(t["channel"] == "final" for t in tokens)
    assert events.text() == answer["content"]
    # Every sentence carries a citation, and each cited number is a source shown.
    cited = {int(n) for n in CITATION.findall(answer["content"])}
    assert cited and cited == {s["n"] for s in answer["sources"]}
    assert events.named("sources") == [{"sources": answer["sources"]}]
    by_n = {s["n"]: s for s in search["sources"]}
    for source in answer["sources"]:
        assert source == by_n[source["n"]]
    for sentence in re.split(r"(?<=\]\.)\s+|\n+", answer["content"]):
        if sentence.strip() and not sentence.startswith("**"):
            assert CITATION.search(sentence), sentence
    assert all(s["score"] >= 0.38 for s in answer["data"]["sentences"])  # above the floor
    trace = QueryTrace.objects.get(pk=search["trace_id"])
    assert trace.answer == answer["content"]


def test_documents_that_do_not_answer_are_said_not_to(
    tool_corpus: ToolCorpus, no_llm: None
) -> None:
    question = "What is the recipe for banana bread?"
    ctx, _, search = searched(tool_corpus, question)
    answer = write_document_answer(question, search, ctx)
    assert answer["content"].startswith(
        f"The documents you can read ({tool_corpus.team.name}) do not answer this."
    )
    assert answer["outcome"] == "not_found"
    # The nearest topics are offered as suggestions, not cited as if they answered.
    assert answer["sources"] == [] and not CITATION.search(answer["content"])
    topics = answer["data"]["suggested_topics"]
    assert topics and all(f"\n- {topic}" in answer["content"] for topic in topics)
    assert answer["data"]["answerability"]["answerable"] is False
    assert "sentences" not in answer["data"]


def test_a_section_question_is_answered_with_the_section(
    tool_corpus: ToolCorpus, no_llm: None
) -> None:
    question = "Alexis skills section only"
    ctx, _, search = searched(tool_corpus, question)
    assert search["results"][0]["source"] == "section_routing"
    answer = write_document_answer(question, search, ctx)
    assert "Skills" in answer["data"]["section"]
    assert "Kubernetes" in answer["content"] and "Terraform" in answer["content"]
    assert {s["file_name"] for s in answer["sources"]} == {"alexis_torres.pdf"}


def test_nothing_found_and_a_notice_are_said_plainly(tool_corpus: ToolCorpus, no_llm: None) -> None:
    ctx, events, search = searched(tool_corpus, "What are his skills?", person="Zebulon")
    answer = write_document_answer("What are his skills?", search, ctx)
    assert answer["content"] == "No document you can read is about Zebulon."
    assert answer["sources"] == [] and events.named("sources") == []
    empty = write_document_answer("x", {"results": [], "sources": []}, ctx)
    assert empty["content"] == (
        f"Nothing in the documents you can read ({tool_corpus.team.name}) matches this question."
    )
    assert empty["outcome"] == "not_found"


def test_a_degraded_search_says_so_in_the_answer(
    tool_corpus: ToolCorpus, no_llm: None, graph_down: None
) -> None:
    question = "How many hours a day before overtime is paid?"
    ctx, events, search = searched(tool_corpus, question)
    answer = write_document_answer(question, search, ctx)
    assert answer["content"].endswith(f"\n\n_{GRAPH_DOWN}_")
    assert answer["data"]["degraded"] == GRAPH_DOWN
    assert events.text() == answer["content"]


# --- documents, with an LLM ------------------------------------------------------------------


def test_with_an_llm_the_answer_is_grounded_and_streamed(
    tool_corpus: ToolCorpus, streaming_llm: LLM
) -> None:
    question = "How much data did Project Atlas move to AWS?"
    streaming_llm.replies["Question: How much data"] = (
        "Project Atlas moved 14 TB of data to AWS [1]. It also moved 61 services [2]."
    )
    ctx, events, search = searched(tool_corpus, question)
    answer = write_document_answer(question, search, ctx)

    assert answer["content"] == streaming_llm.replies["Question: How much data"]
    assert answer["data"]["method"] == "llm"
    assert len(events.named("token")) > 5  # word by word, as the model streamed it
    assert [s["n"] for s in answer["sources"]] == [1, 2]
    prompt = streaming_llm.fake.prompts[-1]
    assert prompt.startswith(f"Question: {question}")
    first = search["sources"][0]
    assert f"[1] {first['file_name']}" in prompt
    assert search["results"][0]["text"][:200] in prompt
    request = streaming_llm.fake.requests[-1]
    assert request["stream"] is True
    assert "only from them" in request["messages"][0]["content"]


def test_a_model_that_is_down_leaves_the_extractive_answer(
    tool_corpus: ToolCorpus, llm_down: None
) -> None:
    question = "How much data did Project Atlas move to AWS?"
    ctx, _, search = searched(tool_corpus, question)
    answer = write_document_answer(question, search, ctx)
    assert answer["data"]["method"] == "extractive"
    assert answer["data"]["llm_error"]
    assert "14 TB" in answer["content"]


# --- extractive pieces -----------------------------------------------------------------------


def test_sentences_are_split_without_breaking_abbreviations_and_lists_are_kept() -> None:
    text = (
        "## Education\n"
        "B.S. Statistics, University of Washington, 2014\n"
        "Worked with J. Smith on e.g. Python services. It rained.\n"
        "Every person on a job site wears at all times:\n"
        "- Hard hat\n- Safety glasses\n- Gloves\n"
        "Alexis Torres - Resume Page 1 of 2\n"
        "Crews arrive at the yard by seven and check the crane log before leaving."
    )
    assert split_sentences(text) == [
        "B.S. Statistics, University of Washington, 2014",
        "Worked with J. Smith on e.g. Python services.",
        "Every person on a job site wears at all times: Hard hat; Safety glasses; Gloves.",
        "Crews arrive at the yard by seven and check the crane log before leaving.",
    ]


def test_scoring_parts() -> None:
    terms = ["alexis", "torres", "python"]
    assert coverage(terms, "Alexis Torres writes Python", "") == 1.0
    assert coverage(terms, "Writes Python daily", "alexis_torres.pdf") == pytest.approx(2 / 3)
    assert coverage(terms, "Writes Go daily", "") == 0.0
    assert answer_type("When did she join?", "She joined in August 2019.") == 1.0
    assert answer_type("When did she join?", "She joined happily.") == 0.0
    assert answer_type("How many days of vacation?", "Fifteen days, or 120 hours.") == 1.0
    assert answer_type("Who leads the team?", "Sarah leads it.") == 0.0
    # the wh-phrase where a clause starts; a count of a unit is answered in that unit
    locked = "I'm locked out. How long before I can try again?"
    assert answer_type(locked, "The account is locked for 15 minutes.") == 1.0
    assert answer_type("What do I do when it rains?", "Stop in 2024.") == 0.0
    hours = "How many hours of training does it take?"
    assert answer_type(hours, "It is repeated every three years.") == 0.0
    assert answer_type(hours, "Supervisors complete two hours of training.") == 1.0
    assert answer_type("At what temperature do crews stop?", "Stop at 10 minutes.") == 0.0
    assert answer_type("I worked 7 hours, what number goes in?", "Enter 7 hours.") == 0.0
    assert cite("It moved 14 TB.", 2) == "It moved 14 TB [2]."
    assert cite("Python, Go, Rust", 1) == "Python, Go, Rust [1]"


def _result(file_name: str, index: int, text: str, section: str, score: float) -> dict[str, Any]:
    return {"text": text, "file_name": file_name, "file_path": file_name, "hybrid_score": score,
            "source": "hybrid",
            "metadata": {"file_id": file_name, "chunk_index": index, "section_path": section,
                         "section_name": section.rsplit(": ", 1)[-1]}}  # fmt: skip


def test_several_documents_are_labelled_and_kept_in_document_order(no_llm: None) -> None:
    results = [
        _result(
            "b.md", 3, "Bob holds the CKA certification since 2021.", "Level 1: Bob Stone", 0.9
        ),
        _result("a.md", 0, "Ann holds the CKA certification since 2019.", "Level 1: Ann Lee", 0.8),
        _result(
            "b.md", 1, "Bob also holds the AWS SysOps certification.", "Level 1: Bob Stone", 0.7
        ),
    ]
    question = "Who holds the CKA certification?"
    scored = score_sentences(question, results)
    assert scored[0].text.startswith(("Bob holds", "Ann holds"))
    groups = grouped([s for s in scored if "holds" in s.text], results)
    text = "".join(render(groups, results))
    assert "**Bob Stone**: " in text and "**Ann Lee**: " in text
    # Within Bob's résumé, chunk 1 comes before chunk 3 whatever their scores.
    bob = text[text.index("**Bob Stone**") :].split("\n\n")[0]
    assert bob.index("AWS SysOps") < bob.index("since 2021")
    assert document_label(results[0]) == "Bob Stone"


# --- SQL -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("columns", "rows", "chart"),
    [
        (["month", "workOrders"], [[1, 30], [2, 41], [3, 38]],
         {"type": "line", "x": "month", "y": ["workOrders"]}),
        (["scheduledDate", "total", "tax"], [["2025-01-01", "10.50", "1.00"],
                                             ["2025-02-01", "12.00", "1.20"]],
         {"type": "line", "x": "scheduledDate", "y": ["total", "tax"]}),
        (["name", "sum_hours"], [["Atlanta", "888.25"], ["Dallas", "1209.75"]],
         {"type": "bar", "x": "name", "x_columns": ["name"], "y": ["sum_hours"]}),
        (["firstName", "lastName", "count"], [["Ann", "Lee", 3], ["Bob", "Stone", 5]],
         {"type": "bar", "x": "firstName", "x_columns": ["firstName", "lastName"],
          "y": ["count"]}),
        (["count"], [[812]], None),
        (["name", "hours"], [["Atlanta", 1]], None),
        (["name", "hours"], [[f"b{i}", i] for i in range(31)], None),
        (["name", "a", "b"], [["x", 1, 2], ["y", 3, 4]], None),
        (["number", "completedAt", "total"], [["WO-1", "2025-01-02", 5], ["WO-2", "2025-01-02", 7]],
         None),
    ],
)  # fmt: skip
def test_charts_are_detected_from_the_rows(
    columns: list[str], rows: list[list[Any]], chart: dict[str, Any] | None
) -> None:
    assert detect_chart(columns, rows) == chart


@pytest.mark.usefixtures("warehouse")
def test_a_sql_answer_streams_its_words_and_a_table(no_llm: None, django_user_model: Any) -> None:
    person = django_user_model.objects.create_user("sql-answer", password="pw")
    question = "What were the total overtime hours per branch in 2025?"
    ctx, events = context(person, question)
    result = ask_sql({}, ctx)
    assert result["answer"]["status"] == "answered", result["reason"]
    answer = write_sql_answer(question, result, ctx)

    sql = result["answer"]
    assert answer["content"] == sql["answer"] == events.text()
    [table] = events.named("table")
    assert table["columns"] == sql["columns"] and table["rows"] == sql["rows"]
    assert table["sql"] == sql["sql"] and table["join_path"] == sql["join_path"]
    assert table["row_count"] == len(sql["rows"]) >= 5 and table["truncated"] is False
    assert table["chart"]["type"] == "bar"
    assert answer["display_format"] == DisplayFormat.CHART
    assert answer["data"]["chart"] == table["chart"]
    assert answer["data"]["sql"] == sql["sql"] and "trace" not in answer["data"]
    assert answer["follow_ups"] == sql["follow_ups"]


@pytest.mark.usefixtures("warehouse")
def test_a_declined_sql_answer_says_why_and_offers_questions(
    no_llm: None, django_user_model: Any
) -> None:
    RouteExample.objects.create(route="sql", question="How many work orders were completed?")
    RouteExample.objects.create(route="sql", question="Which customers have unpaid invoices?")
    RouteExample.objects.create(route="documents", question="What does the overtime policy say?")
    person = django_user_model.objects.create_user("sql-declined", password="pw")
    question = "How many unicorns were completed?"
    ctx, events = context(person, question)
    result = ask_sql({}, ctx)
    answer = write_sql_answer(question, result, ctx)

    assert answer["content"].startswith(
        f"I cannot answer this from the business database: {result['reason'].rstrip('.')}."
    )
    assert answer["follow_ups"][0] == "How many work orders were completed?"
    assert "What does the overtime policy say?" not in answer["follow_ups"]
    assert all(f"\n- {q}" in answer["content"] for q in answer["follow_ups"])
    assert events.named("table") == []
    assert answer["display_format"] == DisplayFormat.TEXT


def test_a_failed_sql_step_is_answered_in_its_own_words() -> None:
    ctx, events = context(None, "How many work orders?")
    error = "The business database cannot be reached right now; try again in a moment."
    answer = run_sql_answer({"result": {"ok": False, "error": error}}, ctx)
    assert answer["content"] == f"I could not answer this: {error[:-1]}."
    assert answer["route"] == "sql" and events.text() == answer["content"]


# --- graph -----------------------------------------------------------------------------------


def test_a_graph_answer_lists_what_the_graph_states_with_citations(
    tool_corpus: ToolCorpus, no_llm: None
) -> None:
    question = "Who worked with Alexis Torres?"
    ctx, events = context(tool_corpus.reader, question)
    relations = entity_relations({"entity": "Alexis Torres", "question": question}, ctx)
    assert {e["type"] for e in relations["entities"]} == {"Person"}
    facts = graph_question({}, ctx)
    answer = write_graph_answer(question, ctx, relations=relations, facts=facts)

    assert answer["route"] == "graph"
    assert answer["content"].startswith("**Alexis Torres** (Person) is connected to:")
    assert "**Sarah Chen** (Person)" in answer["content"]
    assert events.text() == answer["content"]
    cited = {int(n) for n in CITATION.findall(answer["content"])}
    assert cited and cited == {s["n"] for s in answer["sources"]}
    for source in answer["sources"]:
        assert source["collection"] == tool_corpus.team.name
        assert source["text_url"].startswith(f"/documents/{source['document_id']}/#chunk-")
        assert source["url"].startswith(f"/documents/{source['document_id']}/")
    assert answer["data"]["relations"] == relations["entities"]


def test_a_graph_that_knows_nothing_says_so(tool_corpus: ToolCorpus, no_llm: None) -> None:
    ctx, _ = context(tool_corpus.reader, "Who is the mayor?")
    answer = write_graph_answer("Who is the mayor?", ctx, relations={"found": False}, facts={})
    # It asks for a role, and no one in the readable graph is recorded in it.
    assert answer["content"] == "The knowledge graph you can read records no one as mayor."
    assert answer["sources"] == [] and answer["outcome"] == "not_found"
    nothing = write_graph_answer("How is Bob related to Acme?", ctx, relations={}, facts={})
    assert nothing["content"] == (
        "The knowledge graph you can read names nothing this question asks about."
    )


# --- general, clarification, upload --------------------------------------------------------


def test_the_general_answer_says_truthfully_what_this_person_can_ask(
    tool_corpus: ToolCorpus, no_llm: None
) -> None:
    RouteExample.objects.create(route="sql", question="How many work orders were completed?")
    RouteExample.objects.create(route="documents", question="What does the overtime policy say?")
    RouteExample.objects.create(route="graph", question="Who worked with Sarah Chen?")
    ctx, events = context(tool_corpus.reader, "hi, what can you do?")
    answer = write_general_answer("hi, what can you do?", ctx)

    text = answer["content"]
    assert text.startswith("Hello. I answer questions from these sources")
    assert f"{tool_corpus.team.name} (6)" in text and "6 documents" in text
    assert tool_corpus.private.name not in text
    assert "business database" not in text  # none is set up in this test
    assert answer["follow_ups"] == [
        "How many work orders were completed?",
        "What does the overtime policy say?",
        "Who worked with Sarah Chen?",
    ]
    assert events.text() == text and answer["data"]["writer"] == "fixed"


@pytest.mark.usefixtures("warehouse")
def test_the_general_answer_names_the_database_records(
    no_llm: None, django_user_model: Any
) -> None:
    person = django_user_model.objects.create_user("general-db", password="pw")
    ctx, _ = context(person, "What can you do?")
    text = write_general_answer("What can you do?", ctx)["content"]
    assert "- **The business database**: " in text and "work orders" in text
    assert "- **Documents**: you cannot read any collection yet." in text


def test_with_an_llm_the_general_answer_is_the_models(
    tool_corpus: ToolCorpus, streaming_llm: LLM
) -> None:
    streaming_llm.replies["what can you do"] = "I can search your documents and database."
    ctx, events = context(tool_corpus.reader, "what can you do")
    answer = write_general_answer("what can you do", ctx)
    assert answer["content"] == "I can search your documents and database."
    assert answer["data"]["writer"] == "llm" and len(events.named("token")) > 3
    system = streaming_llm.fake.requests[-1]["messages"][0]["content"]
    assert tool_corpus.team.name in system and tool_corpus.private.name not in system


def test_a_clarification_offers_the_plausible_readings(no_llm: None) -> None:
    ctx, events = context(None, "overtime in Dallas")
    scores = {"sql": 0.41, "documents": 0.39, "graph": 0.05, "general": 0.3, "upload": 0.0}
    answer = write_clarification("overtime in Dallas", ctx, scores=scores)
    assert answer["route"] == "clarification"
    assert answer["data"]["readings"] == ["sql", "documents", "graph"]
    assert answer["follow_ups"] == [
        "From the business database: overtime in Dallas",
        "Search the documents: overtime in Dallas",
        "In the knowledge graph: overtime in Dallas",
    ]
    assert "1. the business database" in answer["content"]
    assert "2. your documents" in answer["content"]
    assert events.text() == answer["content"]

    given = write_clarification("that one", ctx, options=["The 2024 invoice", "The 2025 one"])
    assert given["follow_ups"] == ["The 2024 invoice", "The 2025 one"]
    assert "1. The 2024 invoice\n2. The 2025 one" in given["content"]


def test_a_vague_question_is_asked_for_more(no_llm: None) -> None:
    RouteExample.objects.create(route="sql", question="How many work orders were completed?")
    ctx, _ = context(None, "help")
    answer = write_clarification("help", ctx, scores={"general": 0.2})
    assert answer["content"].startswith("Could you say a little more about what you need?")
    assert answer["follow_ups"] == ["How many work orders were completed?"]


def test_the_upload_answer_says_what_happened_to_each_file() -> None:
    ctx, events = context(None, "")
    upload = {
        "collection": "uploads-ann",
        "jobs": ["j1"],
        "files": [
            {"file_name": "a.pdf", "status": "queued", "error": ""},
            {"file_name": "b.md", "status": "queued", "error": ""},
            {"file_name": "c.md", "status": "skipped", "error": ""},
            {"file_name": "d.exe", "status": "failed", "error": "unsupported file type .exe"},
        ],
    }
    answer = write_upload_answer(upload, ctx)
    assert answer["content"] == (
        "Adding 2 files to **uploads-ann**: a.pdf, b.md. Progress shows as each one is read; "
        "the documents can be searched once they are done.\n\n"
        "Already in **uploads-ann** unchanged: c.md.\n\n"
        "Could not add d.exe: unsupported file type .exe."
    )
    assert answer["data"]["jobs"] == ["j1"] and events.text() == answer["content"]


def test_with_an_llm_a_graph_answer_is_grounded_in_the_facts(
    tool_corpus: ToolCorpus, streaming_llm: LLM
) -> None:
    question = "Who worked with Alexis Torres?"
    streaming_llm.replies["Facts from the knowledge graph"] = "Sarah Chen worked with her [1]."
    ctx, _ = context(tool_corpus.reader, question)
    relations = entity_relations({"entity": "Alexis Torres", "question": question}, ctx)
    answer = write_graph_answer(question, ctx, relations=relations)
    assert answer["content"] == "Sarah Chen worked with her [1]."
    assert answer["data"]["writer"] == "llm"
    assert [s["n"] for s in answer["sources"]] == [1]
    prompt = streaming_llm.fake.prompts[-1]
    assert "- **Sarah Chen** (Person): Alexis Torres — " in prompt
    assert f"Question: {question}" in prompt


async def test_writers_run_as_tools_and_answer_a_failed_step() -> None:
    ctx, events = context(None, "What does the overtime policy say?")
    error = "document_search took longer than 30 s"
    result = await call_tool(
        "write_document_answer", {"search": {"ok": False, "error": error}}, ctx, node="respond"
    )
    assert result.ok
    assert result.output["content"] == f"I could not answer this: {error}."
    assert [e.name for e in events.events] == ["tool_start", "token", "tool_end"]
    bad = await call_tool("write_sql_answer", {"result": "rows"}, ctx)
    assert not bad.ok and bad.error == "result: the output of the step before, not str"
