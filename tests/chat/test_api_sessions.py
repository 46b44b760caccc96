"""The chat REST API without asking anything: authentication, sessions (list, search,
create, rename, delete), message history pages, feedback, and refusals that store nothing."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from chat.models import ChatSession, Feedback, Message

from .chat_fixtures import add_message, alice, api_client, bob, make_session

__all__ = ["alice", "bob"]

pytestmark = pytest.mark.django_db


def test_every_endpoint_refuses_an_anonymous_request(alice: User) -> None:
    session = make_session(alice)
    answer = add_message(session, "42", role="assistant")
    anonymous = APIClient()
    calls = [
        anonymous.get("/api/chat/sessions"),
        anonymous.post("/api/chat/sessions", {}, format="json"),
        anonymous.get(f"/api/chat/sessions/{session.pk}"),
        anonymous.patch(f"/api/chat/sessions/{session.pk}", {"title": "x"}, format="json"),
        anonymous.delete(f"/api/chat/sessions/{session.pk}"),
        anonymous.get(f"/api/chat/sessions/{session.pk}/messages"),
        anonymous.post(f"/api/chat/sessions/{session.pk}/messages", {"content": "hi"}),
        anonymous.post(f"/api/chat/messages/{answer.pk}/feedback", {"rating": "up"}),
    ]

    assert [response.status_code for response in calls] == [401] * len(calls)
    assert ChatSession.objects.filter(pk=session.pk).exists()
    assert Message.objects.count() == 1 and not Feedback.objects.exists()


def test_a_token_authenticates(alice: User) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")

    response = client.post("/api/chat/sessions", {"title": "  Work   orders "}, format="json")

    assert response.status_code == 201
    assert response.json()["title"] == "Work orders"
    assert ChatSession.objects.get(pk=response.json()["id"]).owner == alice


def test_a_session_may_start_without_a_title(alice: User) -> None:
    response = api_client(alice).post("/api/chat/sessions", {}, format="json")

    assert response.status_code == 201
    assert response.json()["title"] == ""
    assert set(response.json()) == {"id", "title", "created_at", "updated_at"}


def test_the_list_shows_only_my_sessions_most_recent_first(alice: User, bob: User) -> None:
    old, new = make_session(alice, "old"), make_session(alice, "new")
    make_session(bob, "bob's")
    ChatSession.objects.filter(pk=old.pk).update(updated_at=timezone.now() - timedelta(days=1))

    body = api_client(alice).get("/api/chat/sessions").json()

    assert body["count"] == 2
    assert [s["id"] for s in body["results"]] == [str(new.pk), str(old.pk)]


def test_search_finds_titles_and_message_text_once_each(alice: User, bob: User) -> None:
    by_title = make_session(alice, "Overtime policy")
    by_text = make_session(alice, "Untitled")
    add_message(by_text, "what does the OVERTIME rule say?")
    add_message(by_text, "overtime is paid at 1.5x", role="assistant")
    make_session(alice, "Crane log")
    add_message(make_session(bob, "Overtime too"), "overtime")

    body = api_client(alice).get("/api/chat/sessions", {"search": "overtime"}).json()

    assert body["count"] == 2
    assert {s["id"] for s in body["results"]} == {str(by_title.pk), str(by_text.pk)}


def test_the_session_list_is_paginated(alice: User) -> None:
    ChatSession.objects.bulk_create([ChatSession(owner=alice, title=f"s{i}") for i in range(55)])
    client = api_client(alice)

    first = client.get("/api/chat/sessions").json()
    second = client.get("/api/chat/sessions", {"page": 2}).json()

    assert first["count"] == 55 and len(first["results"]) == 50 and first["next"]
    assert len(second["results"]) == 5 and second["next"] is None
    assert not {s["id"] for s in first["results"]} & {s["id"] for s in second["results"]}


def test_rename(alice: User) -> None:
    session = make_session(alice, "before")

    response = api_client(alice).patch(
        f"/api/chat/sessions/{session.pk}", {"title": "after"}, format="json"
    )

    assert response.status_code == 200 and response.json()["title"] == "after"
    session.refresh_from_db()
    assert session.title == "after"


def test_a_title_too_long_is_refused_and_nothing_changes(alice: User) -> None:
    session = make_session(alice, "before")

    response = api_client(alice).patch(
        f"/api/chat/sessions/{session.pk}", {"title": "x" * 201}, format="json"
    )

    assert response.status_code == 400 and "title" in {
        e["field"] for e in response.json()["errors"]
    }
    session.refresh_from_db()
    assert session.title == "before"


def test_delete_takes_the_messages_and_feedback_with_it(alice: User) -> None:
    session = make_session(alice)
    answer = add_message(session, "42", role="assistant")
    Feedback.objects.create(message=answer, owner=alice, rating=1)

    response = api_client(alice).delete(f"/api/chat/sessions/{session.pk}")

    assert response.status_code == 204
    assert not ChatSession.objects.exists()
    assert not Message.objects.exists() and not Feedback.objects.exists()


def test_another_persons_session_does_not_exist_for_me(alice: User, bob: User) -> None:
    session = make_session(bob, "bob's")
    add_message(session, "bob's question")
    client = api_client(alice)
    base = f"/api/chat/sessions/{session.pk}"

    calls = [
        client.get(base),
        client.patch(base, {"title": "mine now"}, format="json"),
        client.delete(base),
        client.get(f"{base}/messages"),
        client.post(f"{base}/messages", {"content": "what did bob ask?"}, format="json"),
        client.get("/api/chat/sessions/00000000-0000-4000-8000-000000000000"),
    ]

    assert [response.status_code for response in calls] == [404] * len(calls)
    # Exactly what an unknown id gets: nothing tells that the session exists.
    assert calls[0].json() == calls[-1].json()
    session.refresh_from_db()
    assert session.title == "bob's"
    assert list(session.messages.values_list("content", flat=True)) == ["bob's question"]


def test_messages_come_oldest_first_in_pages(alice: User) -> None:
    session = make_session(alice)
    for i in range(7):
        add_message(session, f"message {i}", role="user" if i % 2 == 0 else "assistant")
    client = api_client(alice)
    url = f"/api/chat/sessions/{session.pk}/messages"

    first = client.get(url, {"page_size": "3"}).json()
    last = client.get(url, {"page_size": "3", "page": "last"}).json()

    assert first["count"] == 7
    assert [m["content"] for m in first["results"]] == ["message 0", "message 1", "message 2"]
    assert [m["content"] for m in last["results"]] == ["message 6"]
    assert client.get(url, {"page": 9}).status_code == 404


def test_a_message_carries_safe_html_and_my_own_rating(
    alice: User, bob: User, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    session = make_session(alice)
    add_message(session, "<b>bold?</b>")
    answer = add_message(
        session,
        "**42** work orders <script>alert(1)</script>",
        role="assistant",
        route="sql",
        display_format="table",
        data={"sql": "SELECT 42"},
        sources=[{"n": 1, "file_name": "a.md"}],
    )
    Feedback.objects.create(message=answer, owner=alice, rating=-1)
    Feedback.objects.create(message=answer, owner=bob, rating=1)  # bob's: not alice's view

    with django_assert_max_num_queries(4):  # session, count, page (ratings in the same query)
        body = api_client(alice).get(f"/api/chat/sessions/{session.pk}/messages").json()

    question, reply = body["results"]
    assert question["html"] == "<p>&lt;b&gt;bold?&lt;/b&gt;</p>" and question["feedback"] is None
    assert reply["html"].startswith("<p><strong>42</strong> work orders &lt;script&gt;")
    assert reply["feedback"] == "down"
    assert (reply["route"], reply["display_format"], reply["status"]) == (
        "sql",
        "table",
        "complete",
    )
    assert reply["data"] == {"sql": "SELECT 42"} and reply["sources"][0]["file_name"] == "a.md"


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("", "The question is empty."),
        ("   \n\t ", "The question is empty."),
        ("x" * 4001, "The question is longer than 4000 characters."),
    ],
)
def test_an_empty_or_too_long_question_is_refused_and_nothing_is_stored(
    alice: User, content: str, error: str
) -> None:
    session = make_session(alice)

    response = api_client(alice).post(
        f"/api/chat/sessions/{session.pk}/messages", {"content": content}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "content", "message": error}]
    assert not Message.objects.exists()
    session.refresh_from_db()
    assert session.title == ""


def test_content_is_required(alice: User) -> None:
    session = make_session(alice)

    response = api_client(alice).post(
        f"/api/chat/sessions/{session.pk}/messages", {}, format="json"
    )

    assert response.status_code == 400 and "content" in {
        e["field"] for e in response.json()["errors"]
    }
    assert not Message.objects.exists()


def test_feedback_once_per_person_and_answer(alice: User, bob: User) -> None:
    session = make_session(alice)
    answer = add_message(session, "42", role="assistant")
    client = api_client(alice)
    url = f"/api/chat/messages/{answer.pk}/feedback"

    first = client.post(url, {"rating": "up"}, format="json")
    again = client.post(url, {"rating": "down", "comment": "wrong year"}, format="json")

    assert first.status_code == 201
    assert first.json() == {"message_id": answer.pk, "rating": "up"}
    assert again.status_code == 200
    feedback = Feedback.objects.get()
    assert (feedback.owner, feedback.rating, feedback.comment) == (alice, -1, "wrong year")


def test_feedback_refusals(alice: User, bob: User) -> None:
    session = make_session(alice)
    question = add_message(session, "how many?")
    answer = add_message(session, "42", role="assistant")

    bad_rating = api_client(alice).post(
        f"/api/chat/messages/{answer.pk}/feedback", {"rating": "meh"}, format="json"
    )
    on_a_question = api_client(alice).post(
        f"/api/chat/messages/{question.pk}/feedback", {"rating": "up"}, format="json"
    )
    not_mine = api_client(bob).post(
        f"/api/chat/messages/{answer.pk}/feedback", {"rating": "up"}, format="json"
    )
    unknown = api_client(alice).post(
        "/api/chat/messages/999999/feedback", {"rating": "up"}, format="json"
    )

    assert bad_rating.status_code == 400 and "rating" in {
        e["field"] for e in bad_rating.json()["errors"]
    }
    assert on_a_question.status_code == 409
    assert on_a_question.json()["detail"].startswith("Only answers take feedback")
    assert not_mine.status_code == 404 and unknown.status_code == 404
    assert not Feedback.objects.exists()


def test_the_openapi_schema_describes_the_chat_api(alice: User) -> None:
    response = api_client(alice).get("/api/schema/", {"format": "json"})

    paths = response.json()["paths"]
    assert {
        "/api/chat/sessions",
        "/api/chat/sessions/{id}",
        "/api/chat/sessions/{session_id}/messages",
        "/api/chat/messages/{message_id}/feedback",
    } <= set(paths)
    post = paths["/api/chat/sessions/{session_id}/messages"]["post"]
    assert {"201", "400", "404", "500", "503"} <= set(post["responses"])
