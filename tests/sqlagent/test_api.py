"""POST /api/sql/ask: authentication, bad input, unknown sources, an unreachable warehouse."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from registries.models import DataSource
from sqlagent.models import DataScope

from .agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, no_llm, warehouse

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "no_llm", "warehouse"]

URL = "/api/sql/ask"


@pytest.fixture
def user(db: None) -> User:
    return User.objects.create_user("bob", password="pw-bob-12345")


@pytest.fixture
def client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _ask(client: APIClient, **body: Any) -> Any:
    return client.post(URL, body, format="json")


@pytest.mark.django_db
def test_an_anonymous_request_is_refused() -> None:
    response = APIClient().post(URL, {"question": "How many work orders are there?"}, format="json")
    assert response.status_code == 401


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_token_gets_the_answer_with_sql_rows_and_trace(user: User) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    response = _ask(client, question="How many work orders were completed in 2025?")
    assert response.status_code == 200
    body = response.json()
    expected = gold(
        "SELECT COUNT(*) FROM `workOrder` WHERE `status` = 'completed' "
        "AND `completedAt` >= '2025-01-01' AND `completedAt` < '2026-01-01'"
    )[0][0]
    assert body["status"] == "answered"
    assert body["rows"] == [[expected]]
    assert "secure_workorder" in body["sql"]
    assert body["tables"][0]["table"] == "workOrder" and body["tables"][0]["reason"]
    assert {"terms", "execution", "total"} <= set(body["timings"])
    assert body["trace"][0]["step"] == "source" and "plan" not in body


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_session_login_works_and_the_users_scope_applies(user: User) -> None:
    customer = gold("SELECT MIN(`customerId`) FROM `workOrder`")[0][0]
    DataScope.objects.create(name="one", customer_ids=[customer]).users.add(user)
    client = APIClient(enforce_csrf_checks=False)
    assert client.login(username="bob", password="pw-bob-12345")
    body = _ask(client, question="How many work orders are there?").json()
    expected = gold("SELECT COUNT(*) FROM `workOrder` WHERE `customerId` = %s", customer)[0][0]
    assert body["rows"] == [[expected]]


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_history_is_accepted(client: APIClient) -> None:
    response = _ask(
        client,
        question="How many of them were completed?",
        history=[{"question": "How many work orders are there?", "sql": "SELECT 1"}],
    )
    assert response.status_code == 200
    assert response.json()["status"] in ("answered", "declined")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "question"),
        ({"question": ""}, "question"),
        ({"question": "   "}, "question"),
        ({"question": "a" * 61}, "question"),
        ({"question": "ok?", "history": [{"sql": "SELECT 1"}]}, "history"),
        ({"question": "ok?", "history": [{"question": "q"}] * 21}, "history"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(
    client: APIClient, settings: Settings, body: dict[str, Any], field: str
) -> None:
    settings.SQL_MAX_QUESTION_CHARS = 60
    response = _ask(client, **body)
    assert response.status_code == 400
    assert field in {e["field"].split(".")[0] for e in response.json()["errors"]}


def test_an_unknown_data_source_is_a_404(client: APIClient) -> None:
    response = _ask(client, question="How many albums are there?", data_source="nowhere")
    assert response.status_code == 404
    assert "nowhere" in response.json()["detail"]


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_an_unreachable_warehouse_is_a_503_that_leaks_nothing(
    client: APIClient, settings: Settings
) -> None:
    # Port 9 (discard) has no database server: the connection is refused.
    settings.WAREHOUSE_URL = "mysql://root:secret-pw@127.0.0.1:9/nowhere_warehouse"
    response = _ask(client, question="How many work orders are there?")
    assert response.status_code == 503
    text = response.content.decode()
    assert "not reachable" in response.json()["detail"]
    for leak in ("127.0.0.1", "secret-pw", "nowhere_warehouse", "Errno", "2003"):
        assert leak not in text


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_second_data_source_is_asked_by_name_by_staff_only(
    client: APIClient, user: User, agent_warehouse_url: str
) -> None:
    # The same database, but a data source nobody has introspected: it knows no tables.
    DataSource.objects.create(name="bare", url=agent_warehouse_url, dialect="mysql")
    refused = _ask(client, question="How many work orders are there?", data_source="bare")
    assert refused.status_code == 403  # not scoped per person: not for everyone
    user.is_staff = True
    user.save()
    body = _ask(client, question="How many work orders are there?", data_source="bare").json()
    assert body["status"] == "declined"
    assert body["sql"] is None


def test_the_schema_documents_the_endpoint(client: APIClient) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/sql/ask"]["post"]
    assert set(operation["responses"]) >= {"200", "400", "404", "503"}
    answer = schema["components"]["schemas"]["SqlAnswer"]["properties"]
    assert {"sql", "rows", "tables", "join_path", "timings", "trace"} <= set(answer)
