"""The chat's pages: who sees which conversation and document, and how a stored answer
renders (safe HTML, its outcome, table, sources, follow-ups and trace)."""

import json
import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from chat import views
from chat.models import ChatSession, Feedback, Message
from ingestion.models import Chunk, Collection, Document

from .chat_fixtures import add_message, alice, bob, make_session

__all__ = ["alice", "bob"]

pytestmark = pytest.mark.django_db


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sql_answer(session: ChatSession) -> Message:
    return add_message(
        session,
        "There were **3** completed work orders.\n\n<script>alert('x')</script>",
        role="assistant",
        route="sql",
        display_format="table",
        latency_ms=412,
        sources=[],
        data={
            "sql": "SELECT branch, COUNT(*) FROM work_order GROUP BY branch",
            "columns": ["Branch name", "Completed"],
            "rows": [["Houston", 2], ["Dallas <b>", 1], [None, 0]],
            "row_count": 3,
            "join_path": ["workOrder.branchId = branch.id"],
            "chart": {"type": "bar", "x": "Branch name", "y": ["Completed"]},
            "follow_ups": ["And last month?"],
            "trace": [
                {"node": "route", "type": "agent", "tool": "", "ms": 3.2, "ok": True,
                 "detail": {"reasons": ["the table work_order is named"], "confidence": 0.9}},
                {"node": "sql", "type": "agent", "tool": "sql_agent", "ms": 118.4, "ok": True},
                {"node": "check", "type": "agent", "tool": "validator", "ms": 1.0, "ok": False},
            ],
            "stats": {"latency_ms": 412.0, "first_token_ms": 90.5, "steps": 3},
        },
    )  # fmt: skip


def document_answer(session: ChatSession, document: Document) -> Message:
    return add_message(
        session,
        "Wind above 20 mph stops mobile crane lifts [1].",
        role="assistant",
        route="documents",
        sources=[
            {"n": 1, "file_name": "crane.html", "section_path": "Lifts > Wind", "score": 0.75,
             "snippet": "Stop lifting when <wind> exceeds 20 mph.",
             "url": f"/documents/{document.pk}/#chunk-1", "document_id": str(document.pk)},
            {"n": 2, "file_name": "evil.md", "section_path": "", "score": 0.25,
             "snippet": "", "url": "javascript:alert(1)"},
        ],
    )  # fmt: skip


@pytest.fixture
def crane_document(alice: User) -> Document:
    collection = Collection.objects.create(name="policies")
    collection.readers.add(alice)
    document = Document.objects.create(
        collection=collection,
        file="ingestion/crane.html",
        file_name="crane.html",
        file_path="policies/crane.html",
        content_hash="x",
        format="html",
        title="Crane and Rigging Safety",
    )
    for index, text in [
        (1, "Stop lifting when <wind> exceeds 20 mph."),
        (0, "Scope of the policy."),
    ]:
        Chunk.objects.create(
            collection=collection,
            document=document,
            index=index,
            text=text,
            token_count=8,
            header_path="Lifts > Wind" if index else "Scope",
            embedding=[0.0] * settings.EMBEDDING_DIM,
        )
    return document


def test_pages_need_a_login(alice: User) -> None:
    session = make_session(alice, "Mine")
    for url in [
        reverse("chat:index"),
        reverse("chat:conversation", args=[session.pk]),
        reverse("chat:document", args=["5d9a4a4e-2a51-4f7e-9d35-0c1f1f0b9a11"]),
    ]:
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_the_list_shows_only_the_persons_own_sessions(alice: User, bob: User) -> None:
    make_session(alice, "Overtime in March")
    make_session(bob, "Bob's secret plans")

    page = logged_in(alice).get(reverse("chat:index")).content.decode()

    assert "Overtime in March" in page
    assert "Bob&#x27;s secret plans" not in page and "secret plans" not in page
    assert 'id="question"' in page and 'aria-label="Your conversations"' in page


def test_search_matches_titles_and_message_text(alice: User) -> None:
    titled = make_session(alice, "Crane inspections")
    worded = make_session(alice, "Questions")
    add_message(worded, "Which cranes failed inspection in May?")
    make_session(alice, "Overtime")
    client = logged_in(alice)

    page = client.get(reverse("chat:index"), {"q": "crane"}).content.decode()
    listed = re.findall(r'data-session-id="([0-9a-f-]+)"', page)

    assert sorted(listed) == sorted([str(titled.pk), str(worded.pk)])
    empty = client.get(reverse("chat:index"), {"q": "forklift"}).content.decode()
    assert "No conversation matches." in empty


def test_another_persons_session_is_not_found(alice: User, bob: User) -> None:
    session = make_session(alice, "Alice's")
    add_message(session, "Alice's private question")

    response = logged_in(bob).get(reverse("chat:conversation", args=[session.pk]))

    assert response.status_code == 404
    assert b"private question" not in response.content
    unknown = logged_in(bob).get(
        reverse("chat:conversation", args=["5d9a4a4e-2a51-4f7e-9d35-0c1f1f0b9a11"])
    )
    assert unknown.status_code == 404


def test_a_stored_sql_answer_renders_safely_with_its_table_and_trace(alice: User) -> None:
    session = make_session(alice, "Work orders")
    add_message(session, "How many <work orders>\nwere completed?")
    answer = sql_answer(session)
    Feedback.objects.create(message=answer, owner=alice, rating=Feedback.Rating.DOWN)

    page = logged_in(alice).get(reverse("chat:conversation", args=[session.pk])).content.decode()

    # The question exactly as typed, escaped; the answer's Markdown as safe HTML.
    assert "How many &lt;work orders&gt;<br>were completed?" in page
    assert "There were <strong>3</strong> completed work orders." in page
    assert "<script>alert" not in page and "&lt;script&gt;alert('x')&lt;/script&gt;" in page
    assert 'class="route-badge route-sql"' in page and "Business database" in page
    # The rows under the labels the server gave, numbers aligned, NULL empty, text escaped.
    assert '<th scope="col">Branch name</th><th scope="col" class="num">Completed</th>' in page
    assert '<td>Houston</td><td class="num">2</td>' in page
    assert "<td>Dallas &lt;b&gt;</td>" in page and '<td></td><td class="num">0</td>' in page
    assert "SELECT branch, COUNT(*) FROM work_order GROUP BY branch" in page
    assert "3 rows" in page
    assert '<button type="button" data-action="follow-up">And last month?</button>' in page
    # The trace: the route's reasons, each step with its time, the join path.
    trace = page[page.index('<details class="trace">') :]
    assert "the table work_order is named" in trace and "confidence 90%" in trace
    assert '<td>sql</td><td>sql_agent</td><td class="num">118</td><td>ok</td>' in trace
    assert '<td class="failed">failed</td>' in trace
    assert "<code>workOrder.branchId = branch.id</code>" in trace
    # The person's own rating is shown pressed.
    assert re.search(r'data-rating="down" aria-pressed="true"', page)
    assert re.search(r'data-rating="up" aria-pressed="false"', page)
    # Rows and chart for the script, as JSON (escaped for a script element).
    data = re.search(
        rf'<script id="answer-data-{answer.pk}" type="application/json">(.*?)</script>', page
    )
    assert data and "\\u003Cb\\u003E" in data.group(1)
    assert json.loads(data.group(1)) == {
        "columns": ["Branch name", "Completed"],
        "rows": [["Houston", 2], ["Dallas <b>", 1], [None, 0]],
        "chart": {"type": "bar", "x": "Branch name", "y": ["Completed"]},
    }


def test_sources_link_to_the_document_viewer_only(alice: User, crane_document: Document) -> None:
    session = make_session(alice, "Wind")
    document_answer(session, crane_document)

    page = logged_in(alice).get(reverse("chat:conversation", args=[session.pk])).content.decode()

    link = f'<a href="/documents/{crane_document.pk}/#chunk-1">crane.html</a>'
    assert link in page
    assert "Stop lifting when &lt;wind&gt; exceeds 20 mph." in page
    assert "javascript:" not in page and "<span>evil.md</span>" in page
    # Shares of the summed scores in the trace: 0.75 and 0.25 of 1.0.
    assert "75.0%" in page and "25.0%" in page


def test_a_stopped_and_a_failed_answer_say_so(alice: User) -> None:
    session = make_session(alice, "Halted")
    add_message(
        session, "Partial text", role="assistant", status="cancelled",
        data={"note": "Stopped before the answer was complete."},
    )  # fmt: skip
    add_message(session, "A service the answer needs is down.", role="assistant", status="error")

    page = logged_in(alice).get(reverse("chat:conversation", args=[session.pk])).content.decode()

    assert '<span class="message-state">Stopped</span>' in page
    assert "Stopped before the answer was complete." in page
    assert '<span class="message-state error">Failed</span>' in page
    assert '<p class="notice error">A service the answer needs is down.</p>' in page


def test_each_answer_shows_what_became_of_its_question(alice: User) -> None:
    session = make_session(alice, "Outcomes")
    add_message(session, "Nothing holds this.", role="assistant", route="documents",
                outcome="not_found")  # fmt: skip
    add_message(session, "The database declined.", role="assistant", route="sql",
                outcome="declined")  # fmt: skip
    add_message(session, "Which branch?", role="assistant", route="clarification",
                outcome="clarify")  # fmt: skip
    add_message(session, "Some of it.", role="assistant", route="sql", outcome="partial")
    add_message(session, "3 work orders.", role="assistant", route="sql", outcome="answered")
    add_message(session, "Stored before outcomes.", role="assistant", route="sql")

    page = logged_in(alice).get(reverse("chat:conversation", args=[session.pk])).content.decode()

    # Beside the route, the outcome's label with what it means for the mouse and the reader.
    meaning = "The documents and database do not answer this"
    badge = (
        f'<span class="outcome-badge outcome-not_found" role="note" title="{meaning}" '
        f'aria-label="Not found: {meaning}">Not found</span>'
    )
    assert re.search(r"route-documents[^>]*>Documents</span>\s*" + re.escape(badge), page)
    badges = re.findall(r'<span class="outcome-badge outcome-(\w+)"[^>]*>([^<]+)</span>', page)
    assert badges == [
        ("not_found", "Not found"),
        ("declined", "Declined"),
        ("clarify", "Needs clarification"),
        ("partial", "Partly answered"),
    ]
    # The body of an answer that is none is set apart; an ordinary one is marked only there.
    assert '<div class="answer-body outcome-not_found"><p>Nothing holds this.</p>' in page
    assert '<div class="answer-body outcome-declined"><p>The database declined.</p>' in page
    assert '<div class="answer-body outcome-answered"><p>3 work orders.</p>' in page
    assert '<div class="answer-body"><p>Stored before outcomes.</p>' in page


def test_a_long_conversation_shows_its_latest_messages(alice: User) -> None:
    session = make_session(alice, "Long")
    Message.objects.bulk_create(
        Message(session=session, owner=alice, role="user", content=f"question {i}")
        for i in range(views.MESSAGES_SHOWN + 3)
    )
    url = reverse("chat:conversation", args=[session.pk])
    client = logged_in(alice)

    page = client.get(url).content.decode()

    assert "3 earlier messages not shown" in page
    assert "<p>question 2</p>" not in page and "<p>question 3</p>" in page
    assert f"<p>question {views.MESSAGES_SHOWN + 2}</p>" in page
    assert "<p>question 0</p>" in client.get(url, {"all": "1"}).content.decode()


def test_the_conversation_page_reads_a_fixed_number_of_queries(
    alice: User,
    django_assert_num_queries,
) -> None:
    session = make_session(alice, "Many answers")
    for i in range(20):
        add_message(session, f"question {i}")
        Feedback.objects.create(message=sql_answer(session), owner=alice, rating=Feedback.Rating.UP)
    client = logged_in(alice)
    url = reverse("chat:conversation", args=[session.pk])

    # The login's session and user, the conversation, its messages with the person's
    # ratings, the conversation list, the collections to upload into, the person's
    # permissions (own and by group, read once for "This is right"): however many answers.
    with django_assert_num_queries(8):
        response = client.get(url)

    assert response.content.decode().count('aria-pressed="true"') == 20


def test_the_document_viewer_shows_chunks_in_order_to_readers(
    alice: User,
    bob: User,
    crane_document: Document,
) -> None:
    url = reverse("chat:document", args=[crane_document.pk])

    page = logged_in(alice).get(url).content.decode()

    assert page.index('id="chunk-0"') < page.index('id="chunk-1"')
    assert "Stop lifting when &lt;wind&gt; exceeds 20 mph." in page
    assert "Crane and Rigging Safety" in page and "Lifts &gt; Wind" in page
    assert logged_in(bob).get(url).status_code == 404
    crane_document.collection.writers.add(bob)
    assert logged_in(bob).get(url).status_code == 200


def test_an_unknown_document_is_not_found(alice: User) -> None:
    url = reverse("chat:document", args=["5d9a4a4e-2a51-4f7e-9d35-0c1f1f0b9a11"])
    assert logged_in(alice).get(url).status_code == 404
