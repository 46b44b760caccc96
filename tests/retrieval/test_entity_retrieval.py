"""Relation traversal over the graph the real ingestion wrote, under collection permissions."""

import pytest

from retrieval.entity_retrieval import (
    EntityQueryError,
    answer_relationship_question,
    find_entity,
    relationship_types_in,
    retrieve_by_relationship,
)

from .graph_fixtures import GraphCorpus, graph_corpus_fixture  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db
QUESTION = "Who worked with Alexis Torres at TechCorp?"


def _short(entity_id: str) -> str:
    return entity_id.rsplit(":", 1)[1]


def test_who_worked_with_a_person_at_a_company(graph_corpus: GraphCorpus) -> None:
    result = answer_relationship_question(QUESTION, collection_ids=graph_corpus.readable)
    assert result is not None
    assert _short(result.source["id"]) == "alexis_torres"
    assert [c["name"] for c in result.context] == ["TechCorp"]
    people = {_short(e.id): e for e in result.entities}
    assert {"sarah_chen", "james_smith"} <= set(people)
    assert all(e.type == "Person" for e in result.entities)
    # A colleague's colleague is no colleague at TechCorp ...
    assert "alex_romero" not in people and "priya_raman" not in people
    # ... but someone who also worked for TechCorp is, through the company.
    will = people["will_patterson"]
    assert any(s.type == "WORKS_FOR" and _short(s.target_id) == "techcorp" for s in will.statements)
    path = people["sarah_chen"].path
    assert [s.type for s in path] == ["WORKED_WITH"]
    assert {_short(s.source_id) for s in path} | {_short(s.target_id) for s in path} == {
        "alexis_torres",
        "sarah_chen",
    }
    # The chunks the relations were read from come first, and name the people.
    assert result.chunks and result.chunks[0].states_relation
    files = {c.file_name for c in result.chunks}
    assert {"alexis_torres.pdf", "sarah_chen.docx", "james_smith.md"} & files
    assert all(c.entities for c in result.chunks)


def test_a_relation_only_a_forbidden_document_states_is_never_shown(
    graph_corpus: GraphCorpus,
) -> None:
    readable = answer_relationship_question(QUESTION, collection_ids=graph_corpus.readable)
    assert readable is not None
    assert "zed_quimby" not in {_short(e.id) for e in readable.entities}
    assert "zed_quimby.md" not in {c.file_name for c in readable.chunks}
    assert all("quasarlattice" not in c.text for c in readable.chunks)
    everything = answer_relationship_question(
        QUESTION, collection_ids=[graph_corpus.people.pk, graph_corpus.secret.pk]
    )
    assert everything is not None
    assert "zed_quimby" in {_short(e.id) for e in everything.entities}


def test_relation_types_and_hops_bound_the_traversal(graph_corpus: GraphCorpus) -> None:
    one = retrieve_by_relationship(
        "Alexis Torres",
        collection_ids=graph_corpus.readable,
        relationship_types=["WORKED_WITH"],
        max_hops=1,
        max_chunks=5,
    )
    assert one.entities and all(e.hops == 1 for e in one.entities)
    assert all(s.type == "WORKED_WITH" for e in one.entities for s in e.path)
    assert len(one.chunks) <= 5
    two = retrieve_by_relationship(
        "entity:Person:alexis_torres".replace("entity:", graph_corpus_namespace() + "entity:"),
        collection_ids=graph_corpus.readable,
        relationship_types=["WORKED_WITH"],
        max_hops=2,
    )
    assert {e.id for e in one.entities} < {e.id for e in two.entities}
    assert any(e.hops == 2 and len(e.path) == 2 for e in two.entities)
    studied = retrieve_by_relationship(
        "Alexis Torres",
        collection_ids=graph_corpus.readable,
        relationship_types=["STUDIED_AT"],
        max_hops=1,
    )
    assert [e.name for e in studied.entities] == ["University of Washington"]


def graph_corpus_namespace() -> str:
    from django.conf import settings

    return str(settings.INGESTION_GRAPH_NAMESPACE)


def test_bad_requests_get_clear_errors(graph_corpus: GraphCorpus) -> None:
    with pytest.raises(EntityQueryError, match="no entity called"):
        retrieve_by_relationship("Zed Quimby", collection_ids=graph_corpus.readable)
    with pytest.raises(EntityQueryError, match="max_hops"):
        retrieve_by_relationship("Alexis Torres", collection_ids=[1], max_hops=7)
    with pytest.raises(EntityQueryError, match="relationship type"):
        retrieve_by_relationship(
            "Alexis Torres", collection_ids=[1], relationship_types=["X]->() DETACH DELETE"]
        )
    assert (
        answer_relationship_question("Who wrote the forklift policy?", collection_ids=[1]) is None
    )


def test_relation_words() -> None:
    assert relationship_types_in("Who did Sarah work with?") == ["WORKED_WITH", "WORKS_FOR"]
    assert relationship_types_in("Where did she go to school?") == ["STUDIED_AT"]
    assert relationship_types_in("Tell me about cranes") == []


def test_a_question_about_a_project_starts_from_the_project(graph_corpus: GraphCorpus) -> None:
    result = answer_relationship_question(
        "Who worked on Project Atlas?", collection_ids=graph_corpus.readable
    )
    assert result is not None and result.source["name"] == "Project Atlas"
    names = {e.name for e in result.entities}
    assert names and all(e.type == "Person" for e in result.entities)
    assert "Zed Quimby" not in names
    assert {"alexis_torres.pdf", "sarah_chen.docx", "james_smith.md"} & {
        c.file_name for c in result.chunks
    }


def test_an_entity_is_found_by_its_name_in_any_case_where_it_is_readable(
    graph_corpus: GraphCorpus,
) -> None:
    found = find_entity("alexis TORRES", collection_ids=graph_corpus.readable)
    assert found is not None and _short(found.graph_id) == "alexis_torres"
    # Only the secret collection mentions him: unreadable, he is not there at all.
    assert find_entity("Zed Quimby", collection_ids=graph_corpus.readable) is None
    both = [graph_corpus.people.pk, graph_corpus.secret.pk]
    hidden = find_entity("zed quimby", collection_ids=both)
    assert hidden is not None and _short(hidden.graph_id) == "zed_quimby"
