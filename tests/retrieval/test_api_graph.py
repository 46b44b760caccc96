"""The graph endpoints: authenticated, validated, and scoped to readable collections."""

import pytest
from rest_framework.test import APIClient

from .graph_fixtures import GraphCorpus, graph_corpus_fixture  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db
RELATIONSHIP = "/api/graph/retrieve-by-relationship"
QUERY = "/api/graph/query"


def _client(user: object | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)  # type: ignore[arg-type]
    return client


def test_the_endpoints_need_a_login() -> None:
    assert _client(None).post(RELATIONSHIP, {}, format="json").status_code == 401
    assert _client(None).post(QUERY, {"question": "x"}, format="json").status_code == 401


def test_retrieve_by_relationship(graph_corpus: GraphCorpus) -> None:
    response = _client(graph_corpus.reader).post(
        RELATIONSHIP,
        {
            "source_entity_id": "Alexis Torres",
            "relationship_types": ["WORKED_WITH"],
            "max_chunks": 4,
            "max_hops": 1,
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["source"]["name"] == "Alexis Torres"
    names = {e["name"] for e in body["entities"]}
    assert {"Sarah Chen", "James Smith"} <= names and "Zed Quimby" not in names
    assert all(e["path"][0]["type"] == "WORKED_WITH" for e in body["entities"])
    assert 0 < len(body["chunks"]) <= 4
    assert all("quasarlattice" not in c["text"] for c in body["chunks"])


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"source_entity_id": "Alexis Torres", "max_hops": 9}, "max_hops"),
        (
            {"source_entity_id": "Alexis Torres", "relationship_types": ["a b"]},
            "relationship_types",
        ),
        ({}, "source_entity_id"),
    ],
)
def test_bad_requests_name_the_field(
    graph_corpus: GraphCorpus, payload: dict[str, object], field: str
) -> None:
    response = _client(graph_corpus.reader).post(RELATIONSHIP, payload, format="json")
    assert response.status_code == 400
    assert field in {e["field"].split(".")[0] for e in response.json()["errors"]}


@pytest.mark.parametrize(
    "payload",
    [
        {"source_entity_id": "Alexis Torres", "collection": "nope"},
        {"source_entity_id": "Zed Quimby"},
    ],
)
def test_an_unknown_entity_or_collection_is_a_404(
    graph_corpus: GraphCorpus, payload: dict[str, object]
) -> None:
    response = _client(graph_corpus.reader).post(RELATIONSHIP, payload, format="json")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_someone_who_reads_nothing_finds_nothing(graph_corpus: GraphCorpus) -> None:
    response = _client(graph_corpus.outsider).post(
        RELATIONSHIP, {"source_entity_id": "Alexis Torres"}, format="json"
    )
    assert response.status_code == 404
    answer = _client(graph_corpus.outsider).post(
        QUERY, {"question": "How is Sarah Okafor connected to Alexis Torres?"}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json()["entities"] == [] and answer.json()["chunks"] == []


def test_graph_query(graph_corpus: GraphCorpus, settings: object) -> None:
    settings.OPENAI_MODEL = ""  # type: ignore[attr-defined]
    response = _client(graph_corpus.reader).post(
        QUERY,
        {"question": "How is Sarah Okafor connected to Alexis Torres?"},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["method"] == "fallback" and body["paths"]
    assert {"chunk_id", "file_name", "text"} <= set(body["chunks"][0])
    assert (
        _client(graph_corpus.reader).post(QUERY, {"question": ""}, format="json").status_code == 400
    )
