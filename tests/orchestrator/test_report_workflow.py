"""The shipped report workflow end to end on demo documents ingested through the real
pipeline: triage, document search, a reporter per angle, the review loop and the stitch."""

import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from chat.orchestrator.context import RunContext
from chat.orchestrator.executor import run_workflow
from chat.orchestrator.nodes import STITCH_SEPARATOR
from chat.orchestrator.service import answer_question
from chat.orchestrator.tools.report import angle_of, check_draft
from core.providers import graph, llm
from ingestion.models import Collection
from registries.demo_registry import DEMO_DIR as REGISTRY_DIR
from registries.demo_registry import DEMO_FILES as REGISTRY_FILES
from registries.files import import_files
from registries.models import DataSource, Provenance
from registries.sync import store

from ..ingestion.fake_openai import FakeOpenAI
from ..ingestion.helpers import ingest
from ..sqlagent.agent_fixtures import (  # noqa: F401 - fixtures
    AES_KEY,
    AGENT_PASSWORD,
    AGENT_USER,
    agent_warehouse_schema,
    agent_warehouse_url,
    gold,
)
from .conftest import ROOT_DIR, EventLog

pytestmark = pytest.mark.django_db
DEMO = ROOT_DIR / "demo" / "corpus"
DEMO_FILES = ("resumes/alexis_torres.pdf", "resumes/sarah_chen.docx",
              "resumes/james_smith.md", "policies/time_off_policy.md")  # fmt: skip
QUESTION = "What experience does Alexis Torres have with Kubernetes and AWS?"
CITATION = re.compile(r"\[(\d+)\]")

if not settings.INGESTION_GRAPH_NAMESPACE:
    settings.INGESTION_GRAPH_NAMESPACE = f"test-report-{uuid.uuid4().hex[:8]}:"


@dataclass
class ReportCorpus:
    reader: Any
    collection: Collection


@pytest.fixture(scope="session")
def report_corpus(django_db_setup: None, django_db_blocker: Any) -> Iterator[ReportCorpus]:
    """Four demo documents in a collection that one reader may read."""
    namespace = settings.INGESTION_GRAPH_NAMESPACE
    suffix = uuid.uuid4().hex[:6]
    with django_db_blocker.unblock():
        reader = get_user_model().objects.create_user(f"report-reader-{suffix}", password="pw")
        collection = Collection.objects.create(name=f"report-demo-{suffix}")
        collection.readers.add(reader)
        try:
            job = ingest(collection, {name: (DEMO / name).read_bytes() for name in DEMO_FILES})
            assert job.status == "done", job.status
            assert collection.documents.count() == len(DEMO_FILES)
            yield ReportCorpus(reader, collection)
        finally:
            from ingestion.documents import delete_document

            for document in collection.documents.all():
                delete_document(document)
            collection.delete()
            reader.delete()
            for label in ("Entity", "SectionType"):
                graph.run_write(
                    f"MATCH (n:{label}) WHERE n.id STARTS WITH $prefix DETACH DELETE n",
                    prefix=namespace,
                )


@pytest.fixture
def report_without_llm(settings: Settings) -> Iterator[None]:
    settings.OPENAI_API_KEY = settings.OPENAI_BASE_URL = settings.OPENAI_MODEL = ""
    llm.get_client.cache_clear()
    yield
    llm.get_client.cache_clear()


def ctx_for(corpus: ReportCorpus, events: EventLog, question: str = QUESTION) -> RunContext:
    return RunContext(user=corpus.reader, question=question, emit=events)


async def test_the_report_answers_with_reviewed_sections_and_their_sources(
    report_corpus: ReportCorpus, report_without_llm: None
) -> None:
    events = [e.to_dict() async for e in answer_question(
        QUESTION, user=report_corpus.reader, workflow="report")]  # fmt: skip
    names = [e["event"] for e in events]
    assert names[-1] == "complete", events[-1]
    complete = events[-1]
    result = complete["answer"]
    content = result["content"]
    assert result["route"] == "documents"

    # Two sections, stitched in the order of the reporters, each under its heading.
    summary, details = content.split(STITCH_SEPARATOR)[:2]
    assert summary.startswith("## Summary\n\n")
    assert details.startswith("## Details\n\n")
    assert "**alexis_torres.pdf**" in details  # details are grouped by source document
    # Extractive: every sentence is the documents' own, cited with a source it came from.
    cited = {int(n) for n in CITATION.findall(content)}
    assert cited and cited == {source["n"] for source in result["sources"]}
    assert any(s["file_name"] == "alexis_torres.pdf" for s in result["sources"])
    assert "kubernetes" in summary.lower() and "aws" in summary.lower()
    sources_event = next(e for e in events if e["event"] == "sources")
    assert sources_event["sources"] == result["sources"]
    streamed = "".join(e["content"] for e in events if e["event"] == "token")
    assert streamed.strip() == content

    reviews = result["data"]["reviews"]
    assert set(reviews) == {"summary", "details"}
    for review in reviews.values():
        assert 1 <= review["passes"] <= 3 and review["method"] == "extractive"
        accepted = review["decision"] == "accept"
        assert accepted or "not accepted after" in content

    trace = complete["trace"]
    main = [t["node"] for t in trace if not t["branch"]]
    assert main[:4] == ["triage", "select_search", "search_documents", "report_fanout"]
    assert main[-2:] == ["stitch", "answer"]
    for angle in ("summary", "details"):
        branch = [t for t in trace if t["branch"] == f"report_fanout[{angle}]"]
        assert [t["node"] for t in branch[:3]] == ["report_branch", "review_loop", "review"]
        assert all(t["ok"] for t in branch)
    tools = [e["tool"] for e in events if e["event"] == "tool_start"]
    assert tools.count("document_search") == 1 and tools.count("report_reviewer") >= 2
    assert complete["stats"]["steps"] == len(trace)


async def test_a_section_that_is_never_accepted_stops_after_three_passes_and_says_so(
    report_corpus: ReportCorpus, report_without_llm: None
) -> None:
    events = EventLog()
    impossible = {"id": "summary", "min_chars": 100_000}  # no draft is ever long enough
    state = {"question": QUESTION, "reporters": [impossible]}
    outcome = await run_workflow("report", state, ctx_for(report_corpus, events))

    assert outcome.stopped_reason == ""
    branch = [t.node for t in outcome.trace if t.branch == "report_fanout[summary]"]
    assert branch.count("review") == 3  # seed 000: at most three review passes
    assert branch.count("report_branch") + branch.count("reporter_improve") == 4
    assert branch[-1] == "review_loop"
    loop = [t for t in outcome.trace if t.node == "review_loop"]
    assert loop[-1].detail == "done after 3 passes: max_iters reached"
    draft = outcome.state["sections"]["summary"]
    assert draft["revision"] == 3 and "review" not in draft
    # Each revision asked for more: the extractive budget grew by two sentences a pass.
    assert draft["budget"] == angle_of("summary").sentences + 6
    assert (
        "The Summary section was not accepted after 3 review pass(es)"
        in (outcome.state["answer"]["content"])
    )
    assert outcome.state["answer"]["data"]["reviews"]["summary"]["decision"] == "not reviewed"


async def test_a_revision_adds_what_the_reviewer_found_missing(
    report_corpus: ReportCorpus, report_without_llm: None
) -> None:
    from chat.orchestrator.tools.runner import call_tool

    events = EventLog()
    ctx = ctx_for(report_corpus, events)
    question = QUESTION
    search = (await call_tool("document_search", {"query": question, "top_k": 8}, ctx)).output
    terse = {"id": "summary", "sentences": 1}
    inputs = {"question": question, "reporter": terse, "route": "documents", "search": search}
    first = (await call_tool("report_reporter", inputs, ctx)).output
    # The review reads stored sentence vectors: database work, off the event loop.
    review = sync_to_async(check_draft)
    verdict = await review(question, angle_of(terse), "documents", search, first)
    assert verdict["decision"] == "revise" and verdict["missing_terms"], verdict
    inputs |= {"draft": first, "review": verdict}
    revised = (await call_tool("report_reporter", inputs, ctx)).output
    after = await review(question, angle_of(terse), "documents", search, revised)
    assert revised["revision"] == 1 and revised["applied"] == verdict
    assert set(after["missing_terms"]) < set(verdict["missing_terms"])
    assert len(revised["markdown"]) > len(first["markdown"])


@pytest.fixture
def report_llm(settings: Settings) -> Iterator[FakeOpenAI]:
    """A model that writes sections citing [1] and rejects each section's first draft."""
    reviewed: dict[str, int] = {}

    def reply(prompt: str) -> str:
        if "Reply with JSON only" in prompt or "Checks:" in prompt:
            section = re.search(r"Section: (\w+)", prompt).group(1)  # type: ignore[union-attr]
            reviewed[section] = reviewed.get(section, 0) + 1
            if reviewed[section] == 1:
                return json.dumps({"decision": "revise", "reason": "too vague",
                                   "suggested_changes": "Name the migration project."})  # fmt: skip
            return "```json\n" + json.dumps({"decision": "accept", "reason": "good"}) + "\n```"
        if "Material:" in prompt:
            section = re.search(r"Section: (\w+)", prompt).group(1)  # type: ignore[union-attr]
            applied = "migration project" if "Name the migration project" in prompt else "work"
            return f"## {section}\n\nAlexis Torres led the AWS {applied} with Kubernetes [1]."
        return "documents"  # the router's question, should it ask

    fake = FakeOpenAI(reply)
    with fake.running():
        settings.OPENAI_BASE_URL = fake.url
        settings.OPENAI_API_KEY = "test-key"
        settings.OPENAI_MODEL = "fake-model"
        llm.get_client.cache_clear()
        yield fake
    llm.get_client.cache_clear()


async def test_with_an_llm_the_model_writes_and_reviews_each_section(
    report_corpus: ReportCorpus, report_llm: FakeOpenAI
) -> None:
    events = EventLog()
    outcome = await run_workflow("report", {"question": QUESTION}, ctx_for(report_corpus, events))
    result = outcome.state["answer"]
    assert result["content"].split(STITCH_SEPARATOR)[:2] == [
        "## Summary\n\nAlexis Torres led the AWS migration project with Kubernetes [1].",
        "## Details\n\nAlexis Torres led the AWS migration project with Kubernetes [1].",
    ]
    assert [s["n"] for s in result["sources"]] == [1]
    for review in result["data"]["reviews"].values():
        assert review == {"decision": "accept", "passes": 2, "method": "llm"}
    writes = [p for p in report_llm.prompts if "Material:" in p]
    assert len(writes) == 4  # a first draft and one revision per section
    assert all("[1] " in p and "alexis_torres.pdf" in p for p in writes)
    revisions = [p for p in writes if "A reviewer asked for changes" in p]
    assert len(revisions) == 2 and all("Name the migration project." in p for p in revisions)


async def test_with_an_llm_a_draft_citing_no_real_source_is_never_accepted(
    report_corpus: ReportCorpus, report_llm: FakeOpenAI
) -> None:
    from chat.orchestrator.tools.runner import call_tool

    ctx = ctx_for(report_corpus, EventLog())
    search = (await call_tool("document_search", {"query": QUESTION}, ctx)).output
    draft = {"markdown": "## Summary\n\nAlexis Torres led everything [99].", "revision": 1}
    inputs = {"question": QUESTION, "reporter": "summary", "route": "documents",
              "search": search, "draft": draft}  # fmt: skip
    verdict = (await call_tool("report_reviewer", inputs, ctx)).output
    # The model accepts this second pass, but [99] is not a source.
    assert verdict["method"] == "llm"
    assert verdict["decision"] == "revise"
    assert verdict["checks"]["cites_sources"] is False


def test_reporters_are_configurable() -> None:
    assert angle_of("summary").sentences == 3
    custom = angle_of({"id": "risks", "title": "Risks", "sentences": 2, "layout": "by_source"})
    assert (custom.id, custom.title, custom.sentences, custom.layout) == (
        "risks", "Risks", 2, "by_source"
    )  # fmt: skip
    assert angle_of("next_steps").title == "Next steps"
    from chat.orchestrator.tools.registry import ToolError

    for bad in (
        None,
        {"title": "no id"},
        {"id": "x", "sentences": "3"},
        {"id": "x", "layout": "grid"},
    ):
        with pytest.raises(ToolError):
            angle_of(bad)


@pytest.fixture(scope="module")
def report_warehouse(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[DataSource]:
    """The demo warehouse and its registry as the default data source, committed (the SQL
    agent reads them from a worker thread)."""
    url = request.getfixturevalue("agent_warehouse_url")
    schema = request.getfixturevalue("agent_warehouse_schema")
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
        # Routing creates the default data source when it first looks for it.
        source, _ = DataSource.objects.update_or_create(
            name=settings.REGISTRIES_DEFAULT_DATA_SOURCE,
            defaults={"url_env": "WAREHOUSE_URL", "dialect": "mysql"},
        )
        store(source, schema)
        files = [(name, (REGISTRY_DIR / name).read_text()) for name in REGISTRY_FILES]
        import_files(source, files, provenance=Provenance.DEMO)
        try:
            yield source
        finally:
            source.delete()
            for name, value in saved.items():
                setattr(settings, name, value)


@pytest.mark.usefixtures("report_warehouse", "report_without_llm")
async def test_a_database_question_reports_the_answer_then_its_rows_and_sql(
    report_corpus: ReportCorpus,
) -> None:
    question = "How many technicians are currently active?"
    events = [e.to_dict() async for e in answer_question(
        question, user=report_corpus.reader, workflow="report")]  # fmt: skip
    assert events[-1]["event"] == "complete", events[-1]
    result = events[-1]["answer"]
    assert result["route"] == "sql"
    [(count,)] = gold("SELECT COUNT(*) FROM employee WHERE isTechnician = TRUE AND isActive = TRUE")
    summary, details = result["content"].split(STITCH_SEPARATOR)[:2]
    assert summary.startswith("## Summary\n\n") and str(count) in summary
    assert "_From the business database: 1 row(s)._" in summary
    assert details.startswith("## Details\n\n")
    assert f"| {count} |" in details  # the row, as a table
    assert f"```sql\n{result['data']['sql']}\n```" in details
    assert result["data"]["row_count"] == 1
    assert all(r["decision"] == "accept" for r in result["data"]["reviews"].values()), result
    tools = [e["tool"] for e in events if e["event"] == "tool_start"]
    assert "sql_agent" in tools and "document_search" not in tools
    assert result["sources"] == []
