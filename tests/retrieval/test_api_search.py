"""POST /api/graphrag/query through DRF with token and session auth."""

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from .conftest import SECRET_WORD, SearchCorpus

pytestmark = pytest.mark.django_db
URL = "/api/graphrag/query"


@pytest.fixture
def client(search_corpus: SearchCorpus) -> APIClient:
    api = APIClient()
    token, _ = Token.objects.get_or_create(user=search_corpus.reader)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api


def test_login_is_required() -> None:
    assert APIClient().post(URL, {"query": "Python"}, format="json").status_code == 401


def test_query_returns_results_with_the_documented_fields(client: APIClient) -> None:
    response = client.post(
        URL,
        {
            "query": "Who worked with Alexis Torres on the AWS migration?",
            "top_k": 5,
            "max_hops": 2,
            "keyword_match_type": "any",
            "fusion": "weighted",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["trace_id"] and body["keywords"] and body["route"] == "off"
    assert 0 < len(body["results"]) <= 5
    first = body["results"][0]
    assert first["file_name"] in {"alexis_torres.md", "sarah_chen.txt"}
    assert set(first) >= {"text", "file_path", "directory_name", "similarity", "hybrid_score"}
    assert set(first["metadata"]["score_shares"]) >= {"vector", "keyword", "path", "proximity"}
    assert set(body["timings_ms"]) >= {"keyword", "vector", "graph", "rerank", "total"}
    assert SECRET_WORD not in response.content.decode().lower()


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "Python", "top_k": 0}, "top_k"),
        ({"query": "Python", "max_hops": 3}, "max_hops"),
        ({"query": "Python", "similarity_threshold": 2}, "similarity_threshold"),
        ({"query": "Python", "keyword_match_type": "most"}, "keyword_match_type"),
    ],
)
def test_bad_requests_name_the_field(
    client: APIClient, payload: dict[str, Any], field: str
) -> None:
    response = client.post(URL, payload, format="json")
    assert response.status_code == 400
    assert field in {e["field"] for e in response.json()["errors"]}


def test_a_file_scope_you_cannot_read_is_a_404(client: APIClient) -> None:
    response = client.post(URL, {"query": "Python", "file_scope": ["nope.pdf"]}, format="json")
    assert response.status_code == 404
    assert "nope.pdf" in response.json()["detail"]


def test_another_users_collection_is_not_searchable(
    client: APIClient, search_corpus: SearchCorpus
) -> None:
    response = client.post(
        URL, {"query": "acquisition", "collection": search_corpus.vault.name}, format="json"
    )
    assert response.status_code == 404
    assert search_corpus.vault.name in response.json()["detail"]


def test_schema_describes_the_endpoint(client: APIClient) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/graphrag/query"]["post"]
    assert "requestBody" in operation and "200" in operation["responses"]
