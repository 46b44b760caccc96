"""graphrag_search against the real PostgreSQL, graph and embedding model."""

import json
from typing import Any

import pytest

from core.providers import graph
from ingestion.models import Chunk
from retrieval import cypher
from retrieval.models import QueryTrace
from retrieval.search import SearchError, graphrag_search
from retrieval.search.keyword_search import keyword_search
from retrieval.search.query_terms import query_keywords
from retrieval.search.scope import resolve_scope

from .conftest import SECRET_WORD, SearchCorpus

pytestmark = pytest.mark.django_db

RESULT_KEYS = {
    "text",
    "file_name",
    "file_path",
    "directory_name",
    "similarity",
    "hybrid_score",
    "keywords_matched",
    "source",
    "metadata",
}
METADATA_KEYS = {
    "chunk_index",
    "file_id",
    "page",
    "section_name",
    "section_path",
    "hop_count",
    "relationship",
    "score_shares",
}


def _search(corpus: SearchCorpus, query: str, **options: Any) -> Any:
    return graphrag_search(query, user=corpus.reader, **options)


def test_results_have_the_documented_shape_and_order(search_corpus: SearchCorpus) -> None:
    outcome = _search(search_corpus, "Who led the AWS migration project at TechCorp?")
    results = outcome.results
    assert 0 < len(results) <= 10
    assert results[0]["file_name"] in {"alexis_torres.md", "sarah_chen.txt"}
    scores = [r["hybrid_score"] for r in results]
    assert scores == sorted(scores, reverse=True)
    for r in results:
        assert set(r) >= RESULT_KEYS and set(r["metadata"]) >= METADATA_KEYS
        assert r["source"] in {"keyword", "vector", "hybrid", "graph"}
        shares = r["metadata"]["score_shares"]
        assert set(shares) == {"vector", "keyword", "path", "proximity", "section"}
        assert sum(shares.values()) == pytest.approx(1.0, abs=1e-3)
        assert 0.0 <= r["hybrid_score"] <= 1.0
    for stage in ("keyword", "embedding", "vector", "graph", "rerank", "total"):
        assert outcome.timings[stage] >= 0


def test_keywords_come_from_the_question_without_question_words() -> None:
    assert query_keywords("What is Alexis Torres' Python experience?") == [
        "alexis",
        "torres",
        "python",
        "experience",
    ]
    assert query_keywords("Who was the first president of Node.js?") == [
        "first",
        "president",
        "node.js",
    ]


def test_match_type_all_demands_every_keyword(search_corpus: SearchCorpus) -> None:
    scope = resolve_scope(search_corpus.reader)
    any_hits = keyword_search(["kubernetes", "terraform", "python"], scope, limit=50)
    all_hits = keyword_search(
        ["kubernetes", "terraform", "python"], scope, match_type="all", limit=50
    )
    assert all_hits and len(all_hits) < len(any_hits)
    for hit in all_hits:
        assert set(hit.matched) == {"kubernetes", "terraform", "python"}
        text = Chunk.objects.get(pk=hit.chunk_id).text.lower()
        assert all(word in text for word in ("kubernetes", "terraform", "python"))
    # A rare term weighs more than a common one.
    by_id = {h.chunk_id: h for h in any_hits}
    only_python = [h for h in any_hits if h.matched == ("python",)]
    assert only_python and all(h.score < 1.0 for h in only_python)
    assert max(h.score for h in by_id.values()) == pytest.approx(1.0, abs=0.31)


def test_expansion_follows_the_chunk_sequence_with_path_scores(
    search_corpus: SearchCorpus,
) -> None:
    # Keyword seeds only ("sling" is in the Rigging section alone), so that neighbours are
    # not seeds already.
    options: dict[str, Any] = {
        "keywords": ["sling"],
        "use_vector_search": False,
        "top_k": 30,
        "entity_expansion_limit": 0,
    }
    query = "Every sling is inspected before a lift"
    one = _search(search_corpus, query, max_hops=1, **options)
    two = _search(search_corpus, query, max_hops=2, **options)
    seeds = [c for c in one.candidates if c.is_seed]
    assert [c.row["section_name"] for c in seeds] == ["Rigging"]
    expanded_one = [c for c in one.candidates if c.hop]
    assert {c.row["section_name"] for c in expanded_one} >= {"Arrival", "Lifting"}
    assert all(c.path_score == 0.8 for c in expanded_one)
    assert {c.relationship for c in expanded_one} <= {
        "NEXT_CHUNK",
        "PREV_CHUNK",
        "SEMANTICALLY_SIMILAR",
    }
    for c in expanded_one:
        assert c.reached_from in {s.chunk_id for s in one.candidates if s.is_seed}
    second = [c for c in two.candidates if c.hop == 2]
    assert second and all(c.path_score == 0.6 for c in second)
    assert "Closing" in {c.row["section_name"] for c in second}
    off = _search(search_corpus, query, max_hops=0, **options)
    assert not any(c.hop for c in off.candidates)


def test_expansion_limits_cap_each_kind(search_corpus: SearchCorpus) -> None:
    outcome = _search(
        search_corpus,
        "crane log at the yard",
        keywords=["sling"],
        use_vector_search=False,
        max_hops=2,
        hierarchical_expansion_limit=1,
        semantic_expansion_limit=0,
        entity_expansion_limit=0,
        title_expansion_limit=0,
    )
    assert outcome.expansion.counts == {"hierarchical": 1, "semantic": 0, "entity": 0, "title": 0}
    assert sum(1 for c in outcome.candidates if c.hop) <= 1


def test_a_forbidden_collection_never_reaches_results_or_traces(
    search_corpus: SearchCorpus,
) -> None:
    vault_chunks = list(Chunk.objects.filter(collection=search_corpus.vault))
    assert any(SECRET_WORD in c.text.lower() for c in vault_chunks)
    question = "Which confidential acquisition did Alexis Torres negotiate at TechCorp?"
    # The graph does lead there: Alexis Torres' chunks share entities with the vault's.
    team = search_corpus.team.pk
    vault = search_corpus.vault.pk
    alexis = [
        str(c.pk)
        for c in Chunk.objects.filter(document=search_corpus.documents["alexis_torres.md"])
    ]
    rows = graph.run_read(
        cypher.EXPAND_ENTITIES, ids=alexis, collections=[team, vault], max_degree=50
    )
    assert {str(c.pk) for c in vault_chunks} & {i for r in rows for i in r["ids"]}

    for options in (
        {},
        {"max_hops": 2, "top_k": 100},
        {"fusion": "rrf", "keywords": ["confidential", "acquisition", "robotics"]},
    ):
        outcome = _search(search_corpus, question, **options)
        assert outcome.results
        dumped = json.dumps(outcome.results) + json.dumps(
            [c.row for c in outcome.candidates], default=str
        )
        assert SECRET_WORD not in dumped.lower() and "halcyon" not in dumped.lower()
        assert {c.row["collection_id"] for c in outcome.candidates} == {team}
        trace = QueryTrace.objects.get(pk=outcome.trace_id)
        assert SECRET_WORD not in trace.export_line().lower()
        vault_ids = {str(c.pk) for c in vault_chunks}
        assert not vault_ids & {n["id"] for n in trace.subgraph["nodes"]}

    # The vault's own reader finds it with the same question.
    outcome = graphrag_search(question, user=search_corpus.vault_reader)
    assert SECRET_WORD in outcome.results[0]["text"].lower()


def test_someone_with_no_collection_gets_nothing(
    search_corpus: SearchCorpus, django_user_model: Any
) -> None:
    stranger = django_user_model.objects.create_user("stranger", password="stranger-pw")
    outcome = graphrag_search("Alexis Torres AWS migration", user=stranger)
    assert outcome.results == [] and outcome.candidates == []


def test_collection_and_file_scope(search_corpus: SearchCorpus) -> None:
    outcome = _search(search_corpus, "Python", file_scope=["sarah_chen.txt"], max_hops=2)
    assert outcome.results
    assert {r["file_name"] for r in outcome.results} == {"sarah_chen.txt"}
    by_name = _search(search_corpus, "Python", collection=search_corpus.team.name)
    by_id = _search(search_corpus, "Python", collection=str(search_corpus.team.pk))
    assert [r["text"] for r in by_name.results] == [r["text"] for r in by_id.results]
    with pytest.raises(SearchError, match="no readable file"):
        _search(search_corpus, "Python", file_scope=["board_memo.md"])
    # Forbidden and missing collections answer alike.
    with pytest.raises(SearchError) as forbidden:
        _search(search_corpus, "Python", collection=search_corpus.vault.name)
    with pytest.raises(SearchError) as missing:
        _search(search_corpus, "Python", collection="no-such-collection")
    assert str(forbidden.value).replace(search_corpus.vault.name, "X") == str(
        missing.value
    ).replace("no-such-collection", "X")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"top_k": 0}, "top_k"),
        ({"max_hops": 3}, "max_hops"),
        ({"keyword_boost": 1.5}, "keyword_boost"),
        ({"keyword_match_type": "some"}, "keyword_match_type"),
        ({"fusion": "max"}, "fusion"),
    ],
)
def test_bad_parameters_are_refused_with_the_field_named(
    search_corpus: SearchCorpus, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(SearchError, match=message):
        _search(search_corpus, "Python", **options)


def test_rrf_scores_lie_in_zero_one(search_corpus: SearchCorpus) -> None:
    outcome = _search(search_corpus, "overtime approval during crane recovery", fusion="rrf")
    assert outcome.results[0]["file_name"] == "overtime.md"
    for r in outcome.results:
        assert 0 < r["hybrid_score"] <= 1.0
        assert sum(r["metadata"]["score_shares"].values()) == pytest.approx(1.0, abs=1e-3)


def test_first_name_only_keeps_the_right_document(search_corpus: SearchCorpus) -> None:
    outcome = _search(search_corpus, "What does Alexis enjoy?", use_section_routing=True)
    assert outcome.results[0]["file_name"] == "alexis_torres.md"


def test_hard_section_routing_returns_the_named_persons_section(
    search_corpus: SearchCorpus,
) -> None:
    outcome = _search(search_corpus, "Alexis Torres skills section only", use_section_routing=True)
    assert outcome.routing.route == "section_based_scoped"
    assert outcome.results
    first = outcome.results[0]
    assert first["source"] == "section_routing"
    assert first["file_name"] == "alexis_torres.md"
    assert first["metadata"]["section_name"] == "Technical Expertise"
    assert {r["file_name"] for r in outcome.results} == {"alexis_torres.md"}


def test_soft_routing_leaves_semantic_questions_to_the_hybrid_score(
    search_corpus: SearchCorpus,
) -> None:
    outcome = _search(search_corpus, "How is overtime paid?", use_section_routing=True)
    # It names no part of a document: routing is not even tried.
    assert outcome.routing.route == "skipped"
    assert outcome.results[0]["file_name"] == "overtime.md"
    assert outcome.results[0]["source"] != "section_routing"


def test_section_routing_runs_only_where_it_can_help(search_corpus: SearchCorpus) -> None:
    from django.contrib.auth import get_user_model

    from ingestion.documents import delete_document
    from ingestion.models import Collection, Document

    from ..ingestion.helpers import ingest

    reader = search_corpus.reader
    plain = graphrag_search("Who leads the crane lifts?", user=reader, use_section_routing=True)
    assert plain.routing.route == "skipped"
    assert plain.routing.skipped == "the question names no part of a document"
    assert "routing" not in plain.timings and "routing_check" in plain.timings
    assert plain.trace_id is not None
    trace = QueryTrace.objects.get(pk=plain.trace_id)
    assert trace.parameters["route_skipped"] == plain.routing.skipped

    asked = graphrag_search("Alexis Torres skills section", user=reader, use_section_routing=True)
    assert asked.routing.route == "section_based_scoped" and not asked.routing.skipped
    assert "routing" in asked.timings

    # Documents of one section each leave nothing to route between.
    notes = Collection.objects.create(name="one-section-notes")
    note_reader = get_user_model().objects.create_user("one-section-reader")
    notes.readers.add(note_reader)
    ingest(notes, {"note.txt": b"Skills\n\nThe skills of the yard crew are listed on the board."})
    try:
        routed = graphrag_search("the skills section", user=note_reader, use_section_routing=True)
        assert routed.routing.skipped == "no readable document has more than one section"
        assert routed.results  # the search itself still runs
    finally:
        for document in Document.objects.filter(collection=notes):
            delete_document(document)
