"""entity_query, knowledge_graph and graph_schema on the demo documents' graph: what they
find, what a reader of other collections sees, bad input, and the graph being down."""

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from chat.orchestrator.tools.graph import (
    GRAPH_UNAVAILABLE,
    entity_relations,
    graph_question,
    schema_summary,
)
from chat.orchestrator.tools.registry import ToolError

from .tool_fixtures import (  # noqa: F401 - fixtures
    ToolCorpus,
    context,
    fixture_graph_breaker,
    fixture_graph_down,
    fixture_no_llm,
    fixture_tool_corpus,
)

pytestmark = pytest.mark.django_db


def readable_chunk_ids(corpus: ToolCorpus) -> set[str]:
    return {str(pk) for pk in corpus.team.chunks.values_list("pk", flat=True)}


def test_entity_query_follows_relations_of_a_named_person(tool_corpus: ToolCorpus) -> None:
    ctx, _ = context(tool_corpus.reader, "")
    out = entity_relations({"entity": "Alexis Torres"}, ctx)
    assert out["found"] is True
    assert out["source"]["name"] == "Alexis Torres"
    names = {e["name"] for e in out["entities"]}
    assert "Sarah Chen" in names
    assert names & {"TechCorp", "Project Atlas"}
    for entity in out["entities"]:
        assert 1 <= entity["hops"] <= 2 and entity["path"]
    # Evidence comes only from the collection the reader may read.
    assert out["chunks"]
    assert {c["chunk_id"] for c in out["chunks"]} <= readable_chunk_ids(tool_corpus)


def test_entity_query_reads_the_entity_from_the_question(tool_corpus: ToolCorpus) -> None:
    ctx, _ = context(tool_corpus.reader, "Who worked with Sarah Chen?")
    out = entity_relations({}, ctx)
    assert out["found"] is True
    assert out["source"]["name"] == "Sarah Chen"
    assert all(e["type"] == "Person" for e in out["entities"])
    assert "Alexis Torres" in {e["name"] for e in out["entities"]}


def test_entity_query_without_a_readable_entity(tool_corpus: ToolCorpus) -> None:
    ctx, _ = context(tool_corpus.reader, "Who wrote the crane and rigging policy?")
    with pytest.raises(ToolError, match="no entity called 'Dana Whitfield'"):
        # She is named only in a document of a collection the reader cannot see.
        entity_relations({"entity": "Dana Whitfield"}, ctx)
    out = entity_relations({"question": "Who is in charge of the weather?"}, ctx)
    assert out == {"found": False, "source": None, "context": [], "entities": [], "chunks": []}


@pytest.mark.parametrize(
    ("inputs", "error"),
    [
        ({"entity": "Alexis Torres", "max_hops": 9}, "max_hops: 1, 2 or 3, not 9"),
        ({"entity": "Alexis Torres", "max_hops": "two"}, "max_hops: a whole number, not 'two'"),
        ({"entity": "Alexis Torres", "relationship_types": ["x) DETACH"]}, "not a relationship"),
        ({"entity": "Alexis Torres", "context": {"a": 1}}, "context: a name or a list of names"),
    ],
)
def test_entity_query_bad_input(
    tool_corpus: ToolCorpus, inputs: dict[str, Any], error: str
) -> None:
    ctx, _ = context(tool_corpus.reader, "")
    with pytest.raises(ToolError, match=error.replace("(", r"\(").replace(")", r"\)")):
        entity_relations(inputs, ctx)


def test_knowledge_graph_answers_from_facts_and_chunks(
    tool_corpus: ToolCorpus, no_llm: None
) -> None:
    ctx, _ = context(tool_corpus.reader, "How are Alexis Torres and Sarah Chen connected?")
    out = graph_question({}, ctx)
    assert out["method"] == "fallback"
    assert {"Alexis Torres", "Sarah Chen"} <= {e["name"] for e in out["entities"]}
    assert out["facts"] or out["paths"]
    assert out["chunks"]
    assert {c["chunk_id"] for c in out["chunks"]} <= readable_chunk_ids(tool_corpus)


def test_graph_schema_counts_only_what_the_reader_may_see(tool_corpus: ToolCorpus) -> None:
    ctx, _ = context(tool_corpus.reader, "")
    out = schema_summary({}, ctx)
    chunks = tool_corpus.team.chunks.count()
    assert out["nodes"]["Document"] == tool_corpus.team.documents.count() == 6
    assert out["nodes"]["Chunk"] == chunks
    assert out["nodes"]["Section"] > 0
    assert out["entity_types"]["Person"] >= 4
    assert out["nodes"]["Entity"] == sum(out["entity_types"].values())
    assert out["relationships"]["NEXT_CHUNK"] == chunks - 6  # one chain per document
    assert out["relationships"]["MENTIONS"] > 0
    assert "WORKED_WITH" in out["relationships"] or "WORKS_FOR" in out["relationships"]
    # The outsider's one document counts on its own, and someone with no collection sees
    # an empty graph.
    outsider, _ = context(tool_corpus.outsider, "")
    assert schema_summary({}, outsider)["nodes"]["Document"] == 1
    assert (
        schema_summary({"collection": tool_corpus.private.name}, outsider)["nodes"]["Chunk"]
        == tool_corpus.private.chunks.count()
    )
    nobody, _ = context(AnonymousUser(), "")
    empty = schema_summary({}, nobody)
    assert empty == {
        "nodes": {"Document": 0, "Chunk": 0, "Section": 0, "Entity": 0},
        "entity_types": {},
        "relationships": {},
    }


def test_a_graph_that_is_down_is_a_clear_error(tool_corpus: ToolCorpus, graph_down: None) -> None:
    ctx, _ = context(tool_corpus.reader, "Who worked with Alexis Torres?")
    for run, inputs in (
        (entity_relations, {"entity": "Alexis Torres"}),
        (graph_question, {}),
        (schema_summary, {}),
    ):
        with pytest.raises(ToolError) as error:
            run(inputs, ctx)
        assert str(error.value) == GRAPH_UNAVAILABLE


def test_the_route_reuses_the_routers_reading_of_the_question(
    tool_corpus: ToolCorpus, no_llm: None
) -> None:
    from chat.orchestrator.tools.chat_steps import run_route

    question = "Who did Alexis work with at TechCorp?"
    ctx, _ = context(tool_corpus.reader, question)
    decision = run_route({}, ctx)
    assert decision["route"] == "graph"
    assert ctx.analysis.reads == 1  # "Alexis" asked query understanding who is meant
    relations = entity_relations({}, ctx)
    facts = graph_question({}, ctx)
    assert relations["found"] and relations["source"]["name"] == "Alexis Torres"
    assert "Alexis Torres" in {e["name"] for e in facts["entities"]}
    assert ctx.analysis.reads == 1  # both graph tools read it through the router's reading
