import pytest
from django.test import Client
from rest_framework.test import APIClient


@pytest.mark.django_db
def test_chat_page_needs_login(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_login_then_chat_page_then_logout(client: Client, django_user_model) -> None:
    django_user_model.objects.create_user("alice", password="correct-horse-9")

    bad = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert bad.status_code == 200 and "match. Please try again" in bad.content.decode()

    good = client.post("/accounts/login/", {"username": "alice", "password": "correct-horse-9"})
    assert good.status_code == 302 and good["Location"] == "/"

    page = client.get("/")
    assert page.status_code == 200
    assert "What would you like to know?" in page.content.decode()

    client.post("/accounts/logout/")
    assert client.get("/").status_code == 302


@pytest.mark.django_db
def test_api_is_401_without_auth_and_accepts_a_token(django_user_model) -> None:
    django_user_model.objects.create_user("bob", password="correct-horse-9")
    api = APIClient()

    anonymous = api.get("/api/auth/me/")
    assert anonymous.status_code == 401
    assert anonymous["WWW-Authenticate"] == "Token"

    token = api.post("/api/auth/token/", {"username": "bob", "password": "correct-horse-9"})
    assert token.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    me = api.get("/api/auth/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "bob"


@pytest.mark.django_db
def test_openapi_schema_is_served(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/auth/me/" in schema.json()["paths"]


@pytest.mark.django_db
def test_admin_login_page_is_served(client: Client) -> None:
    assert client.get("/admin/login/").status_code == 200
