"""document_search on demo documents ingested through the real pipeline: sources in the
shared shape, re-scoping to a person, permissions, bad input, and the degraded path when
the graph database is down."""

import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from chat.orchestrator.tools.documents import GRAPH_DOWN, document_url
from chat.orchestrator.tools.runner import call_tool
from retrieval.models import QueryTrace

from .tool_fixtures import (  # noqa: F401 - fixtures
    ToolCorpus,
    context,
    fixture_graph_breaker,
    fixture_graph_down,
    fixture_tool_breakers,
    fixture_tool_corpus,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tool_breakers")]

SOURCE_KEYS = {"n", "file_name", "file_path", "directory_name", "section_path", "score",
               "snippet", "chunk_id", "document_id", "collection", "url", "text_url",
               "page", "page_end", "heading", "anchor"}  # fmt: skip


async def search(corpus: ToolCorpus, inputs: dict[str, Any], user: Any = None) -> Any:
    ctx, events = context(user or corpus.reader, str(inputs.get("query", "")))
    result = await call_tool("document_search", inputs, ctx, node="documents")
    return result, events


async def test_finds_the_passage_and_names_its_sources(
    tool_corpus: ToolCorpus, graph_breaker: Any
) -> None:
    result, events = await search(
        tool_corpus, {"query": "How much data did Project Atlas move to AWS?", "top_k": 5}
    )
    assert result.ok, result.error
    out = result.output
    assert out["degraded"] == ""
    assert 1 <= len(out["results"]) <= 5
    assert out["results"][0]["file_name"] in ("alexis_torres.pdf", "sarah_chen.docx")
    assert any("14 TB" in r["text"] for r in out["results"][:3])
    sources = out["sources"]
    assert [s["n"] for s in sources] == list(range(1, len(out["results"]) + 1))
    for source, found in zip(sources, out["results"], strict=True):
        assert set(source) == SOURCE_KEYS
        assert source["chunk_id"] == found["metadata"]["chunk_id"]
        assert source["document_id"] == found["metadata"]["file_id"]
        assert source["collection"] == tool_corpus.team.name
        assert source["score"] == found["hybrid_score"]
        text_url = f"/documents/{source['document_id']}/#chunk-{found['metadata']['chunk_index']}"
        assert source["text_url"] == text_url
        assert (source["page"], source["page_end"]) == (
            found["metadata"]["page"],
            found["metadata"]["page_end"],
        )
        # A PDF is cited at its page in the file itself, anything else at the chunk.
        if found["metadata"]["format"] == "pdf":
            page_url = f"/documents/{source['document_id']}/file#page={source['page']}"
            assert source["url"] == page_url and source["page"] >= 1
        else:
            assert source["url"] == text_url and source["page"] is None
        assert 0 < len(source["snippet"]) <= 241
    # The search was traced for the admin, and the tool announced itself.
    assert await sync_to_async(QueryTrace.objects.filter(pk=out["trace_id"]).exists)()
    assert [e["tool"] for e in events.named("tool_start")] == ["document_search"]
    assert events.named("tool_end")[0]["ok"] is True


async def test_a_person_rescopes_the_search_to_their_documents(tool_corpus: ToolCorpus) -> None:
    question = "Where did she work before?"
    everyone, _ = await search(tool_corpus, {"query": question, "top_k": 10})
    assert len({r["file_name"] for r in everyone.output["results"]}) > 1
    sarah, _ = await search(tool_corpus, {"query": question, "top_k": 10, "person": "Sarah Chen"})
    assert sarah.ok, sarah.error
    assert {r["file_name"] for r in sarah.output["results"]} == {"sarah_chen.docx"}
    assert sarah.output["person"] == "Sarah Chen"


async def test_an_unknown_person_finds_nothing_and_says_why(tool_corpus: ToolCorpus) -> None:
    result, _ = await search(tool_corpus, {"query": "skills", "person": "Zebulon Quimby"})
    assert result.ok
    assert result.output["results"] == [] and result.output["sources"] == []
    assert result.output["notice"] == "No document you can read is about Zebulon Quimby."


async def test_documents_of_other_collections_never_show(tool_corpus: ToolCorpus) -> None:
    question = "What is the crane and rigging safety policy number SAF-110?"
    reader, _ = await search(tool_corpus, {"query": question, "top_k": 20})
    assert reader.ok
    assert "crane_and_rigging_safety.html" not in {r["file_name"] for r in reader.output["results"]}
    assert not any("SAF-110" in r["text"] for r in reader.output["results"])
    outsider, _ = await search(tool_corpus, {"query": question}, user=tool_corpus.outsider)
    assert outsider.output["results"][0]["file_name"] == "crane_and_rigging_safety.html"
    named, _ = await search(
        tool_corpus, {"query": question, "collection": tool_corpus.private.name}
    )
    assert not named.ok
    assert (
        named.error == f"collection: no collection {tool_corpus.private.name!r} that you can read"
    )


@pytest.mark.parametrize(
    ("inputs", "error"),
    [
        ({"query": "overtime", "top_k": 0}, "top_k: between 1 and 100, not 0"),
        ({"query": "overtime", "top_k": "many"}, "top_k: a whole number, not 'many'"),
        ({"query": "   "}, "There is nothing to search for: the question is empty."),
    ],
)
async def test_bad_input_is_a_clear_error(
    tool_corpus: ToolCorpus, inputs: dict[str, Any], error: str
) -> None:
    result, _ = await search(tool_corpus, inputs)
    assert not result.ok
    assert result.error == error


async def test_without_the_graph_the_search_degrades_and_says_so(
    tool_corpus: ToolCorpus, graph_down: None, graph_breaker: Any
) -> None:
    question = "How many hours a day before overtime is paid?"
    result, _ = await search(tool_corpus, {"query": question})
    assert result.ok, result.error
    assert result.output["degraded"] == GRAPH_DOWN
    assert result.output["results"][0]["file_name"] == "overtime_policy.pdf"
    assert all(r["metadata"]["hop_count"] == 0 for r in result.output["results"])
    # Each failure counts on a breaker every process shares; once open, the graph is not
    # tried again and the search degrades at once.
    for _ in range(2):
        await search(tool_corpus, {"query": question})
    assert graph_breaker.is_open()
    started = time.perf_counter()
    again, _ = await search(tool_corpus, {"query": question})
    assert again.output["degraded"] == GRAPH_DOWN
    assert time.perf_counter() - started < 5


async def test_graph_expansion_may_be_turned_off(tool_corpus: ToolCorpus) -> None:
    result, _ = await search(
        tool_corpus, {"query": "Who worked with Alexis Torres?", "use_graph": False}
    )
    assert result.ok
    assert result.output["degraded"] == ""
    assert all(r["source"] != "graph" for r in result.output["results"])


def test_document_urls_open_the_chunk() -> None:
    assert document_url("d1", 4) == "/documents/d1/#chunk-4"
    assert document_url("d1", None) == "/documents/d1/"
