"""Knowledge-graph questions: the query check, the generated-query path against a fake
OpenAI-compatible server over HTTP, and the deterministic fallbacks."""

from collections.abc import Iterator

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from core.providers import llm
from retrieval.cypher_guard import GraphSchema, UnsafeCypher, check_read_only, with_limit
from retrieval.entity_grounding import ground_entities
from retrieval.knowledge_graph import answer_graph_question, live_schema

from ..ingestion.fake_openai import FakeOpenAI
from .graph_fixtures import GraphCorpus, graph_corpus_fixture  # noqa: F401 - the fixture

SCHEMA = GraphSchema(
    labels=frozenset({"Entity", "Person", "Organization"}),
    relationship_types=frozenset({"WORKED_WITH", "WORKS_FOR"}),
    properties=frozenset({"id", "name"}),
)


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (p:Person {name: 'Ann'})-[:WORKED_WITH|WORKS_FOR]-(o) RETURN o.name, 'CREATE x'",
        "MATCH (p:Person)-[r:WORKED_WITH|:WORKS_FOR]->(q:`Entity`)\n"
        "WHERE p:Person // then DELETE everything\nRETURN q.id;",
        "MATCH (p:Person) RETURN [x IN collect(p.name) | toLower(x)] AS names",
    ],
)
def test_read_only_queries_pass(query: str) -> None:
    check_read_only(query, SCHEMA)


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("MATCH (p) DETACH DELETE p RETURN 1", "not read-only"),
        ("MATCH (p:Person) SET p.name = 'x' RETURN p", "not read-only"),
        ("MATCH (p:Person) /* hidden */ MERGE (q:Person {id: 'x'}) RETURN q", "not read-only"),
        ("MATCH (p:Person) RETURN p ; MATCH (n) DELETE n", "one statement"),
        ("MATCH (p:Person) CALL db.labels() YIELD label RETURN label", "not read-only"),
        ("LOAD CSV FROM 'file:///x' AS l MATCH (p) RETURN p", "not read-only"),
        ("MATCH (p:Person) FOREACH (x IN [1] | SET p.a = x) RETURN p", "not read-only"),
        ("MATCH (c:Chunk) RETURN c.text", "unknown label: Chunk"),
        ("MATCH (p:Person)-[:HAS_CHUNK]->(c) RETURN c", "unknown relationship type"),
        ("MATCH (p:Person) RETURN p.salary", "unknown property"),
        ("MATCH (p:Person) RETURN apoc.text.join([p.name], ',')", "namespaced"),
        ("MATCH (p:Person) RETURN p.name AS `x` + 'unterminated", "cannot read"),
        ("RETURN 1", "MATCH and RETURN"),
    ],
)
def test_unsafe_or_unknown_queries_are_refused(query: str, reason: str) -> None:
    with pytest.raises(UnsafeCypher, match=reason):
        check_read_only(query, SCHEMA)


def test_a_limit_is_added_only_when_missing() -> None:
    assert with_limit("MATCH (n) RETURN n;", 5).endswith("LIMIT 5")
    assert with_limit("MATCH (n) RETURN n LIMIT 3", 5).endswith("LIMIT 3")


@pytest.mark.django_db
def test_grounding_finds_readable_entities_by_name(graph_corpus: GraphCorpus) -> None:
    found = ground_entities(
        "Did Sarah Chen and Sarah Okafor overlap at Brightwater Health?",
        collection_ids=graph_corpus.readable,
    )
    names = {e.name for e in found}
    assert {"Sarah Chen", "Sarah Okafor", "Brightwater Health"} <= names
    # Case and punctuation aside, a whole name only: "techcorp's" is TechCorp, and a
    # name inside a longer word ("TechCorporation") is none.
    found = ground_entities("what did techcorp's team build?", collection_ids=graph_corpus.readable)
    assert "TechCorp" in {e.name for e in found}
    assert "TechCorp" not in {
        e.name
        for e in ground_entities("TechCorporation staff", collection_ids=graph_corpus.readable)
    }
    assert (
        ground_entities("Zed Quimby and quasarlattice", collection_ids=graph_corpus.readable) == []
    )


@pytest.mark.django_db
def test_without_an_llm_the_fallbacks_find_a_path_and_its_chunks(
    graph_corpus: GraphCorpus, settings: SettingsWrapper
) -> None:
    settings.OPENAI_MODEL = ""
    answer = answer_graph_question(
        "How is Sarah Okafor connected to Alexis Torres?", collection_ids=graph_corpus.readable
    )
    assert answer.method == "fallback" and answer.cypher is None
    assert {e.name for e in answer.entities} == {"Sarah Okafor", "Alexis Torres"}
    (path,) = answer.paths
    assert 2 <= len(path) <= 4
    ends = {path[0]["source_name"], path[0]["target_name"], path[-1]["source_name"]}
    ends |= {path[-1]["target_name"]}
    assert {"Sarah Okafor", "Alexis Torres"} <= ends
    files = {c["file_name"] for c in answer.chunks}
    assert "alexis_torres.pdf" in files and "zed_quimby.md" not in files
    assert all(c["text"] and c["chunk_id"] for c in answer.chunks)


@pytest.fixture
def cypher_llm(settings: SettingsWrapper) -> Iterator[FakeOpenAI]:
    replies: list[str] = []

    def answer(prompt: str) -> str:
        return replies.pop(0) if replies else "MATCH (n:Person) RETURN n.id"

    fake = FakeOpenAI(answer)
    fake.replies = replies  # type: ignore[attr-defined]
    with fake.running():
        settings.OPENAI_BASE_URL = fake.url
        settings.OPENAI_MODEL = "fake-model"
        settings.OPENAI_API_KEY = "test-key"
        llm.get_client.cache_clear()
        yield fake
    llm.get_client.cache_clear()


@pytest.mark.django_db
def test_a_generated_query_runs_and_its_results_are_checked_against_permissions(
    graph_corpus: GraphCorpus, cypher_llm: FakeOpenAI
) -> None:
    cypher_llm.replies.append(  # type: ignore[attr-defined]
        "```cypher\nMATCH (a:Person)-[:WORKED_WITH]-(b:Person)\n"
        "WHERE a.name = 'Alexis Torres' RETURN b.id AS id, b.name AS name\n```"
    )
    answer = answer_graph_question(
        "Who worked with Alexis Torres?", collection_ids=graph_corpus.readable
    )
    prompt = cypher_llm.prompts[-1]
    assert "WORKED_WITH" in prompt and "Alexis Torres" in prompt
    assert "Chunk" not in prompt.split("node labels:")[1].split(";")[0]
    assert answer.method == "cypher" and answer.cypher_error is None
    assert answer.cypher is not None and answer.cypher.startswith("MATCH (a:Person)")
    related = {r["name"] for r in answer.related}
    assert {"Sarah Chen", "James Smith"} <= related
    # The graph query sees Zed Quimby, whom only the secret collection names: dropped.
    assert "Zed Quimby" not in related
    assert all(f["properties"]["document_id"] for f in answer.facts)
    assert "zed_quimby.md" not in {c["file_name"] for c in answer.chunks}
    assert answer.token_usage.get("completion_tokens") == 20


@pytest.mark.django_db
def test_an_unsafe_generated_query_is_refused_and_the_fallbacks_answer(
    graph_corpus: GraphCorpus, cypher_llm: FakeOpenAI
) -> None:
    cypher_llm.replies.append(  # type: ignore[attr-defined]
        "MATCH (a:Person {name: 'Alexis Torres'}) DETACH DELETE a RETURN 1"
    )
    answer = answer_graph_question(
        "How is Sarah Okafor connected to Alexis Torres?", collection_ids=graph_corpus.readable
    )
    assert answer.cypher_error is not None and answer.cypher_error.startswith("refused")
    assert answer.method == "fallback" and answer.paths
    # Nothing was deleted.
    schema = live_schema()
    assert "Person" in schema.labels
    assert ground_entities("Alexis Torres", collection_ids=graph_corpus.readable)
