"""Operators read conversations in the admin: searchable, read-only, and a page costs the
same few queries however many rows it lists."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from chat.models import ChatSession, Feedback, Message

from .chat_fixtures import add_message, alice, make_session

__all__ = ["alice"]

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversations(alice: User) -> list[ChatSession]:
    sessions = []
    for i in range(30):
        session = make_session(alice, f"Question {i}")
        add_message(session, f"how many crane lifts in week {i}?")
        answer = add_message(
            session,
            f"{i} lifts",
            role="assistant",
            route="sql",
            data={"sql": "SELECT 1", "trace": [{"node": "route", "ms": 3.5}]},
        )
        Feedback.objects.create(message=answer, owner=alice, rating=1, comment=f"good {i}")
        sessions.append(session)
    return sessions


@pytest.mark.parametrize("model", ["chatsession", "message", "feedback"])
def test_a_list_page_costs_a_fixed_number_of_queries(
    admin_client: Client,
    conversations: list[ChatSession],
    model: str,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    url = reverse(f"admin:chat_{model}_changelist")

    with django_assert_max_num_queries(8):  # session, user, date bounds, page, filters
        response = admin_client.get(url)

    assert response.status_code == 200


def test_search_finds_messages_by_text_and_sessions_by_title(
    admin_client: Client, conversations: list[ChatSession]
) -> None:
    messages = admin_client.get(reverse("admin:chat_message_changelist"), {"q": "week 17?"})
    sessions = admin_client.get(reverse("admin:chat_chatsession_changelist"), {"q": '"Question 2"'})

    assert list(messages.context["cl"].result_list) == [
        Message.objects.get(content="how many crane lifts in week 17?")
    ]
    titles = {s.title for s in sessions.context["cl"].result_list}
    assert titles == {"Question 2", *(f"Question {i}" for i in range(20, 30))}


def test_everything_is_read_only(admin_client: Client, conversations: list[ChatSession]) -> None:
    answer = Message.objects.filter(role="assistant").first()
    assert answer is not None

    page = admin_client.get(reverse("admin:chat_message_change", args=[answer.pk]))
    add = admin_client.get(reverse("admin:chat_chatsession_add"))
    post = admin_client.post(
        reverse("admin:chat_message_change", args=[answer.pk]), {"content": "edited"}
    )
    delete = admin_client.post(
        reverse("admin:chat_chatsession_delete", args=[answer.session_id]), {"post": "yes"}
    )

    assert page.status_code == 200
    html = page.content.decode()
    assert (
        "&quot;sql&quot;: &quot;SELECT 1&quot;" in html
        and "&quot;node&quot;: &quot;route&quot;" in html
    )
    assert 'name="_save"' not in html
    assert add.status_code == 403 and post.status_code == 403 and delete.status_code == 403
    answer.refresh_from_db()
    assert answer.content != "edited" and ChatSession.objects.filter(pk=answer.session_id).exists()
