"""Bad input to the API gets a clear 4xx in the one error body, never a 500 or a debug page:
an unknown path, NUL in an address, a token of the wrong form, wrong credentials, malformed
or oversized bodies, unknown or mistyped fields, pages that do not exist."""

from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(django_user_model: Any) -> APIClient:
    user = django_user_model.objects.create_user("erin", password="erin-pass-123")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["detail"]
    return body


def test_an_unknown_api_path_is_json_and_a_page_path_is_html(client: APIClient) -> None:
    _error(client.get("/api/no-such-thing/"), 404, "not_found")
    page = Client().get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_nul_in_the_address_is_a_400(client: APIClient) -> None:
    _error(client.get("/api/chat/sessions", {"search": "a\x00b"}), 400, "bad_request")


@pytest.mark.parametrize("header", ["Token abc", "Token " + "g" * 40, "Token a\x00b", "Token"])
def test_a_token_that_cannot_be_one_is_a_401(header: str) -> None:
    response = APIClient().get("/api/auth/me/", HTTP_AUTHORIZATION=header)
    _error(response, 401, "unauthorized")


def test_wrong_credentials_are_a_401_and_right_ones_give_the_token(
    django_user_model: Any,
) -> None:
    django_user_model.objects.create_user("fay", password="fay-pass-123")
    wrong = APIClient().post("/api/auth/token/", {"username": "fay", "password": "nope"})
    right = APIClient().post("/api/auth/token/", {"username": "fay", "password": "fay-pass-123"})

    _error(wrong, 401, "unauthorized")
    assert wrong["WWW-Authenticate"].startswith("Token")
    assert right.status_code == 200 and len(right.json()["token"]) == 40


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"query": "x", "colour": "red"}, "colour", "Unknown field."),
        ({"query": "x", "top_k": "7"}, "top_k", "Must be a whole number."),
        ({"query": "x", "top_k": True}, "top_k", "Must be a whole number."),
        ({"query": "x", "use_keyword_search": 1}, "use_keyword_search", "Must be true or false."),
        ({"query": "   "}, "query", "This field may not be blank."),
        ({"query": 7}, "query", "Must be text."),
    ],
)
def test_a_body_is_read_as_the_schema_states_it(
    client: APIClient, body: dict[str, Any], field: str, words: str
) -> None:
    response = client.post("/api/graphrag/query", body, format="json")
    assert _error(response, 400, "bad_request")["errors"] == [{"field": field, "message": words}]


def test_malformed_json_and_a_wrong_content_type_are_refused(client: APIClient) -> None:
    malformed = client.post("/api/sql/ask", "{not json", content_type="application/json")
    plain = client.post("/api/sql/ask", "a question", content_type="text/plain")
    _error(malformed, 400, "bad_request")
    _error(plain, 415, "unsupported_media_type")


def test_an_oversized_body_is_a_413(client: APIClient, settings: Settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post("/api/sql/ask", {"question": "x" * 2000}, format="json")
    _error(response, 413, "too_large")


@pytest.mark.parametrize(
    ("query", "status"),
    [("page=abc", 400), ("page=0", 400), ("page_size=500", 400), ("page=9", 404)],
)
def test_pages_are_checked(client: APIClient, query: str, status: int) -> None:
    response = client.get(f"/api/chat/sessions?{query}")
    _error(response, status, "bad_request" if status == 400 else "not_found")


def test_an_undeclared_method_is_a_405(client: APIClient) -> None:
    _error(client.delete("/api/ingestion/jobs/"), 405, "method_not_allowed")


def test_an_oversized_stream_request_is_a_413(settings: Settings) -> None:
    settings.CHAT_SERVICE_TOKEN = "service-token-0123456789"
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = Client().post(
        "/internal/chat/stream",
        '{"input": {"message": "' + "x" * 2000 + '"}}',
        content_type="application/json",
        headers={"Authorization": "Bearer service-token-0123456789"},
    )
    _error(response, 413, "too_large")
