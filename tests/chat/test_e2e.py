"""The chat in a real browser. Debian's chromium drives the app as `manage.py serve` runs it (pages,
API and the websocket, in a process of its own) on the demo warehouse and demo documents,
with a real Celery worker for uploads and no LLM (deterministic routing and answers).

With SCREENSHOTS=1 the main screens (light and dark, desktop and phone) are also saved to
docs/screenshots/ for the README.
"""

import contextlib
import csv
import http.client
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from chat.models import ChatSession, Feedback, Message, Outcome
from ingestion.documents import delete_document
from ingestion.jobs import create_job, run_in_process, sources_from_paths
from ingestion.models import Collection, Document
from registries.models import DataSource

from ..conftest import ROOT, TEST_QUEUE, delete_namespaced_graph_nodes
from ..sqlagent.agent_fixtures import (
    agent_warehouse_schema,
    agent_warehouse_url,
    server_environment,
    warehouse,
)
from .chat_fixtures import add_message, alice, bob, make_session

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "alice", "bob", "warehouse"]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
PASSWORDS = {"alice": "pw-alice-12345", "bob": "pw-bob-12345"}  # as chat_fixtures makes them
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
ANSWER_SECONDS = 120
SHOTS = ROOT / "var" / "e2e"
DOC_SHOTS = ROOT / "docs" / "screenshots"
DEMO_DOCUMENTS = [
    ROOT / "demo" / "corpus" / "policies" / "crane_and_rigging_safety.html",
    ROOT / "demo" / "corpus" / "policies" / "overtime_policy.pdf",
]
SQL_QUESTION = "How many work orders were completed in 2025 by branch?"
FOLLOW_UP = "And in 2024?"
DOCUMENT_QUESTION = "What is the wind speed limit for mobile crane lifts?"
# No document, table or fact holds this; the handbook makes it a question to look up (asked
# bare, it is too vague to route and the answer asks which source is meant).
UNANSWERABLE_QUESTION = "Who won the 1966 World Cup final according to the handbook?"
OUTCOME_BADGE = ".message-meta .route-badge + .outcome-badge"
# The overtime policy PDF answers it on its third page.
PDF_QUESTION = "How much unplanned overtime can the crew lead authorize?"
UPLOADED_MD = b"""# Tower Crane Checklist

## Before the shift

The operator reads the anemometer on the jib and writes the wind speed in the tower log.

## After the shift

The slewing brake is released so that the jib weathervanes freely overnight.
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _request(port: int, method: str, path: str, timeout: float, **kwargs: Any) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, **kwargs)
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError:
        return 0
    finally:
        connection.close()


def _warm_up(port: int, django_db_blocker: Any) -> None:
    """One question through the API before the browser asks: the first answer of a fresh
    process loads the embedding model and the retrieval stack, which takes longer than a
    person should wait for a page."""
    with django_db_blocker.unblock():
        user = User.objects.create_user(f"warm-up-{uuid.uuid4().hex[:8]}")
        token = Token.objects.create(user=user).key
        session = ChatSession.objects.create(owner=user)
    try:
        status = _request(
            port,
            "POST",
            f"/api/chat/sessions/{session.pk}/messages",
            timeout=300,
            body=json.dumps({"content": "What can you do for me?"}),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        assert status == 201, f"the warm-up question was answered {status}"
    finally:
        with django_db_blocker.unblock():
            user.delete()
            # Routing reads the semantic layer, whose first read creates the default data
            # source; each test stores its own.
            DataSource.objects.filter(name=settings.REGISTRIES_DEFAULT_DATA_SOURCE).delete()


@pytest.fixture(scope="module")
def chat_server(
    django_db_setup: None, django_db_blocker: Any, agent_warehouse_url: str
) -> Iterator[str]:
    """The app as `scripts/run` serves it (`manage.py serve`), on the test database."""
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    port = _free_port()
    env = server_environment(agent_warehouse_url, CELERY_QUEUE=TEST_QUEUE)
    SHOTS.mkdir(parents=True, exist_ok=True)
    log = open(SHOTS / f"server-{TEST_QUEUE}.log", "w")  # noqa: SIM115 - lives as long as the server
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", "1"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while _request(port, "GET", "/accounts/login/", timeout=5) != 200:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start; see {log.name}")
            time.sleep(0.3)
        _warm_up(port, django_db_blocker)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a worker thread still busy: no need to wait
            process.kill()
            process.wait()
        log.close()


@pytest.fixture
def server(chat_server: str, warehouse: DataSource) -> str:
    """The server, with the demo warehouse as its business database (the data source row is
    committed: the server's process reads it)."""
    return chat_server


@pytest.fixture(scope="module", autouse=True)
def _namespaced_graph_nodes() -> Iterator[None]:
    """Entities and section types this run's ingestion wrote (under its namespace) go when
    the module is done; documents are deleted by each test."""
    yield
    delete_namespaced_graph_nodes(settings.INGESTION_GRAPH_NAMESPACE)


@pytest.fixture
def demo_documents(transactional_db: None, alice: User) -> Iterator[list[Document]]:
    """Two demo policies ingested through the real pipeline into a collection Alice reads;
    deleted through ingestion afterwards (the graph is shared by every run)."""
    collection = Collection.objects.create(name=f"demo-policies-{uuid.uuid4().hex[:6]}")
    collection.readers.add(alice)
    job = create_job(collection=collection, sources=sources_from_paths(DEMO_DOCUMENTS))
    run_in_process(job)
    documents = list(Document.objects.filter(collection=collection))
    assert len(documents) == len(DEMO_DOCUMENTS)
    yield documents
    for document in Document.objects.all():
        delete_document(document)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread, which Django takes for an
    # async context; the tests still use the ORM synchronously between browser steps.
    allowed = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=CHROMIUM, args=ARGS, headless=True
            )
            yield chromium
            chromium.close()
    finally:
        if allowed is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = allowed


class Screen:
    """A signed-in browser page that records what the chat socket received."""

    def __init__(self, browser: Any, base: str, user: User, **context: Any) -> None:
        self.base = base
        self.context = browser.new_context(
            viewport=context.pop("viewport", DESKTOP), accept_downloads=True, **context
        )
        self.page = self.context.new_page()
        self.received: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", self._record)
        self.page.goto(f"{base}/accounts/login/")
        self.page.fill("#id_username", user.get_username())
        self.page.fill("#id_password", PASSWORDS[user.get_username()])
        self.page.click("button[type=submit]")
        self.wait_connected()

    def _record(self, ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            with contextlib.suppress(TypeError, ValueError):
                self.received.append(json.loads(payload))

        ws.on("framereceived", frame)

    def wait_connected(self) -> None:
        from playwright.sync_api import expect

        expect(self.page.locator("#connection")).to_have_text("Connected", timeout=15_000)

    def ask(self, question: str) -> Any:
        """Types and sends a question; the answer's article once it has settled."""
        from playwright.sync_api import expect

        answers = self.page.locator("#message-list > article.assistant")
        before = answers.count()
        self.page.fill("#question", question)
        self.page.press("#question", "Enter")
        answer = answers.nth(before)
        expect(answer).to_have_attribute("aria-busy", "false", timeout=ANSWER_SECONDS * 1000)
        return answer

    def events(self, name: str) -> list[dict[str, Any]]:
        return [event for event in self.received if event.get("event") == name]

    def shot(self, name: str, top: Any = None) -> None:
        """A screenshot of the page, scrolled so that `top` starts the view."""
        if top is not None:
            top.evaluate("el => el.scrollIntoView({block: 'start', behavior: 'instant'})")
        self.page.screenshot(path=str(SHOTS / f"{name}.png"))
        if os.environ.get("SCREENSHOTS") == "1":
            DOC_SHOTS.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(DOC_SHOTS / f"{name}.png"))

    def close(self) -> None:
        assert not self.errors, f"script errors in the page: {self.errors}"
        self.context.close()


def _session_of(url: str) -> ChatSession:
    match = re.search(r"/c/([0-9a-f-]{36})/", url)
    assert match, f"not a conversation URL: {url}"
    return ChatSession.objects.get(pk=match.group(1))


def _texts(locator: Any) -> list[str]:
    return [text.strip() for text in locator.all_inner_texts()]


@pytest.mark.timeout(900)
def test_a_person_asks_the_database_and_the_documents(
    browser: Any, server: str, demo_documents: list[Document], alice: User
) -> None:
    from playwright.sync_api import expect

    screen = Screen(browser, server, alice)
    page = screen.page
    expect(page.locator("#empty-state")).to_be_visible()

    # A SQL question: the table streams in (a `table` event before `complete`), under the
    # labels the server gave, with its SQL, chart and CSV.
    answer = screen.ask(SQL_QUESTION)
    session = _session_of(page.url)
    assert session.owner == alice and session.title == SQL_QUESTION
    stored = Message.objects.filter(session=session, role="assistant").get()
    assert stored.route == "sql" and stored.status == "complete"
    names = [e["event"] for e in screen.received if e.get("session_id") == str(session.pk)]
    assert names[0] == "accepted" and names[-1] == "complete"
    assert names.index("route_decision") < names.index("table") < names.index("complete")
    columns, rows = stored.data["columns"], stored.data["rows"]
    assert rows, "the demo warehouse has work orders completed in 2025"
    expect(answer.locator(".message-meta .route-badge")).to_have_text("Business database")
    assert _texts(answer.locator("table.rows thead th")) == columns
    assert [_texts(row.locator("td")) for row in answer.locator("table.rows tbody tr").all()] == [
        [str(value) for value in row] for row in rows
    ]
    expect(answer.locator("details.sql code")).to_have_text(stored.data["sql"])
    if stored.data.get("chart"):
        expect(answer.locator("figure.chart svg")).to_be_visible()
        marks = answer.locator("figure.chart svg rect.bar, figure.chart svg circle")
        assert marks.count() == len(rows) * len(stored.data["chart"]["y"])
    with page.expect_download() as download_info:
        answer.get_by_role("button", name="Download CSV").click()
    raw = Path(download_info.value.path()).read_bytes().decode("utf-8")
    assert raw.startswith("\ufeff") and raw.endswith("\r\n")
    assert list(csv.reader(io.StringIO(raw.lstrip("\ufeff")))) == [columns] + [
        [str(value) for value in row] for row in rows
    ]
    # The trace: the route's reasons as streamed, each step with its timing, the join path.
    answer.locator("details.trace summary").click()
    decision = screen.events("route_decision")[0]
    trace = answer.locator("details.trace")
    for reason in decision["reasons"]:
        expect(trace.locator("ul.reasons")).to_contain_text(reason)
    assert trace.locator("table.steps tbody tr").count() == len(stored.data["trace"])
    assert _texts(trace.locator("ol.join-path li")) == stored.data["join_path"]
    helpful = answer.get_by_role("button", name="Helpful", exact=True)
    helpful.click()
    expect(helpful).to_have_attribute("aria-pressed", "true")
    feedback = Feedback.objects.get(message=stored, owner=alice)
    assert feedback.rating == Feedback.Rating.UP
    screen.shot("chat-sql-light", top=page.locator("#message-list > article.user").first)

    # A follow-up reuses the question's plan with the new year.
    follow_up = screen.ask(FOLLOW_UP)
    latest = Message.objects.filter(session=session, role="assistant").order_by("-id").first()
    assert latest and latest.route == "sql" and "2024-01-01" in latest.data["sql"]
    expect(follow_up.locator("table.rows")).to_be_visible()

    # A document question: sources that open the document at their chunk.
    page.goto(server)  # a new conversation
    expect(page.locator("#empty-state")).to_be_visible()
    answer = screen.ask(DOCUMENT_QUESTION)
    documents_session = _session_of(page.url)
    stored = Message.objects.get(session=documents_session, role="assistant")
    assert stored.route == "documents" and stored.sources
    expect(answer.locator(".message-meta .route-badge")).to_have_text("Documents")
    first = stored.sources[0]
    link = answer.locator(".sources li.source").first.get_by_role("link")
    expect(link).to_have_text(first["file_name"])
    assert link.get_attribute("href") == first["url"]
    with screen.context.expect_page() as opened:
        link.click()
    viewer = opened.value
    viewer.wait_for_load_state()
    chunk = viewer.locator(f"#{first['url'].split('#')[1]}")
    expect(chunk).to_be_visible()
    assert " ".join(first["snippet"].rstrip("…").split()[:6]) in " ".join(
        chunk.inner_text().split()
    )
    viewer.close()
    answer.locator("details.trace summary").click()
    expect(answer.locator("details.trace table.chunks tbody tr")).to_have_count(len(stored.sources))

    # Dark theme, remembered over a reload; the history is rendered by the server.
    page.click("#theme-toggle")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.reload()
    screen.wait_connected()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    answer = page.locator("#message-list > article.assistant").first
    expect(answer.locator(".sources li.source")).to_have_count(len(stored.sources))
    answer.locator("details.trace summary").click()
    screen.shot("chat-documents-dark", top=page.locator("#message-list > article.user").first)

    # Shift+Enter adds a line; the draft survives a reload.
    page.fill("#question", "")
    page.type("#question", "first line")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("second line")
    assert page.input_value("#question") == "first line\nsecond line"
    assert Message.objects.filter(session=documents_session).count() == 2
    page.reload()
    screen.wait_connected()
    assert page.input_value("#question") == "first line\nsecond line"

    # A question that is too long is refused in place and stays in the box.
    too_long = "x" * (settings.CHAT_MAX_MESSAGE_CHARS + 1)
    page.fill("#question", too_long)
    page.press("#question", "Enter")
    expect(page.locator("#composer-error")).to_contain_text("the limit is")
    assert page.input_value("#question") == too_long
    assert Message.objects.filter(session=documents_session).count() == 2

    # Regenerate asks the last question again as a new answer.
    page.fill("#question", "")
    answers = page.locator("#message-list > article.assistant")
    answers.last.get_by_role("button", name="Regenerate").click()
    expect(answers).to_have_count(2)
    expect(answers.last).to_have_attribute("aria-busy", "false", timeout=ANSWER_SECONDS * 1000)
    assert list(
        Message.objects.filter(session=documents_session).values_list("role", flat=True)
    ) == ["user", "assistant", "assistant"]

    # The list: the first conversation is still there; rename it.
    item = page.locator(f'.session-item[data-session-id="{session.pk}"]')
    item.get_by_role("button", name=re.compile("^Rename")).click()
    page.keyboard.press("Control+a")
    page.keyboard.type("Completed work orders by branch")
    page.keyboard.press("Enter")
    expect(item.locator("a")).to_have_text("Completed work orders by branch")
    session.refresh_from_db()
    assert session.title == "Completed work orders by branch"

    # Delete the open conversation: after a confirmation it is gone and a new one starts.
    page.once("dialog", lambda dialog: dialog.accept())
    current = page.locator(f'.session-item[data-session-id="{documents_session.pk}"]')
    current.get_by_role("button", name=re.compile("^Delete")).click()
    expect(page.locator("#empty-state")).to_be_visible()
    assert not ChatSession.objects.filter(pk=documents_session.pk).exists()
    assert not Message.objects.filter(session_id=documents_session.pk).exists()

    # A phone: the list collapses behind a button.
    phone = Screen(browser, server, alice, viewport=PHONE, color_scheme="light")
    phone.page.goto(f"{server}/c/{session.pk}/")
    phone.wait_connected()
    expect(phone.page.locator("#sessions")).to_be_hidden()
    phone.shot("chat-phone-light", top=phone.page.locator("#message-list > article.user").first)
    phone.page.click("#sessions-toggle")
    expect(phone.page.locator("#sessions")).to_be_visible()
    expect(phone.page.locator("#sessions-toggle")).to_have_attribute("aria-expanded", "true")
    phone.page.evaluate("localStorage.setItem('switchboard-theme', 'dark')")
    phone.page.reload()
    phone.wait_connected()
    phone.page.click("#sessions-toggle")
    phone.shot("chat-phone-dark")
    phone.close()
    screen.close()


@pytest.mark.timeout(600)
def test_an_upload_shows_its_progress_and_can_be_asked_about(
    browser: Any, server: str, celery_worker: str, alice: User, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    screen = Screen(browser, server, alice)
    page = screen.page
    upload = tmp_path / "tower_crane_checklist.md"
    upload.write_bytes(UPLOADED_MD)

    try:
        expect(page.locator("#upload-collection")).to_have_value(f"uploads-{alice.username}")
        page.set_input_files("#upload-input", str(upload))
        card = page.locator("#uploads .upload").first
        expect(card.locator(".upload-name")).to_have_text(upload.name)
        expect(card.locator(".upload-state")).to_have_text("Ready", timeout=180_000)
        assert card.locator("progress").get_attribute("value") == "100"
        # The bar moved on the worker's events, relayed by the chat socket.
        progress = screen.events("ingestion_progress")
        assert progress and progress[-1]["status"] == "done"
        collection = Collection.objects.get(name=f"uploads-{alice.username}")
        assert collection.owner == alice
        document = Document.objects.get(collection=collection)
        assert document.file_name == upload.name and document.chunk_count > 0

        answer = screen.ask("What does the tower crane checklist say about the anemometer?")
        stored = Message.objects.filter(owner=alice, role="assistant").latest("id")
        assert stored.route == "documents"
        assert any(s["document_id"] == str(document.pk) for s in stored.sources)
        expect(answer.locator(".sources")).to_contain_text(upload.name)
        screen.shot("chat-upload", top=page.locator("#message-list > article.user").first)
        screen.close()
    finally:
        for document in Document.objects.all():
            delete_document(document)


@pytest.mark.timeout(600)
def test_a_second_person_can_neither_see_nor_join_the_first_ones_chat(
    browser: Any, server: str, alice: User, bob: User
) -> None:
    from playwright.sync_api import expect

    private = make_session(alice, "Alice's merger notes")
    add_message(private, "Which branch will we close?")
    intruder = Screen(browser, server, bob)
    page = intruder.page

    expect(page.locator("#session-list")).not_to_contain_text("merger")
    assert page.goto(f"{server}/c/{private.pk}/").status == 404
    page.goto(server)
    intruder.wait_connected()
    # Straight through the socket: Bob's ask and cancel in Alice's session are "not found".
    replies = page.evaluate(
        """async (sessionId) => {
            const ws = new WebSocket(`ws://${location.host}/ws/chat/`);
            const replies = [];
            await new Promise((resolve) => ws.addEventListener("open", resolve));
            ws.addEventListener("message", (m) => replies.push(JSON.parse(m.data)));
            ws.send(JSON.stringify({type: "ask", request_id: "r1", session_id: sessionId,
                                    content: "Which branch will we close?"}));
            ws.send(JSON.stringify({type: "cancel", request_id: "alice-request"}));
            await new Promise((resolve) => setTimeout(resolve, 1500));
            ws.close();
            return replies;
        }""",
        str(private.pk),
    )
    assert {(r["event"], r.get("code")) for r in replies} == {("error", "not_found")}
    assert Message.objects.filter(session=private).count() == 1

    # Alice asks while Bob's page listens: nothing of hers reaches his socket.
    owner = Screen(browser, server, alice)
    owner.page.goto(f"{server}/c/{private.pk}/")
    owner.wait_connected()
    owner.ask("What can you do for me?")
    assert owner.events("complete")
    assert not [e for e in intruder.received if e.get("session_id") == str(private.pk)]
    owner.close()

    # Without a login the socket is refused.
    anonymous = browser.new_context()
    anonymous_page = anonymous.new_page()
    anonymous_page.goto(f"{server}/accounts/login/")
    opened = anonymous_page.evaluate(
        """() => new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/ws/chat/`);
            ws.addEventListener("open", () => resolve(true));
            ws.addEventListener("close", () => resolve(false));
        })"""
    )
    assert opened is False
    anonymous.close()
    intruder.close()


@pytest.mark.timeout(600)
def test_an_answer_nothing_holds_is_marked_as_such_live_and_after_a_reload(
    browser: Any, server: str, alice: User
) -> None:
    from playwright.sync_api import expect

    screen = Screen(browser, server, alice)
    page = screen.page

    # Nothing the test's documents, graph or warehouse hold answers this: the streamed answer
    # says so beside its route, and its body is set apart from an answer.
    answer = screen.ask(UNANSWERABLE_QUESTION)
    stored = Message.objects.filter(session=_session_of(page.url), role="assistant").get()
    assert stored.outcome in (Outcome.NOT_FOUND, Outcome.DECLINED), stored.outcome
    assert screen.events("complete")[-1]["outcome"] == stored.outcome
    label = Outcome(stored.outcome).label
    badge = answer.locator(OUTCOME_BADGE)
    expect(badge).to_have_text(label)
    expect(badge).to_have_class(f"outcome-badge outcome-{stored.outcome}")
    expect(badge).to_have_attribute("title", re.compile(r"\w"))
    expect(badge).to_have_attribute("aria-label", re.compile(f"^{label}: "))
    expect(answer.locator(".answer-body")).to_have_class(f"answer-body outcome-{stored.outcome}")
    expect(answer).to_have_attribute("data-outcome", stored.outcome)
    streamed = badge.evaluate("el => el.outerHTML")

    # After a reload the server renders the same badge.
    page.reload()
    screen.wait_connected()
    answer = page.locator("#message-list > article.assistant").first
    assert answer.locator(OUTCOME_BADGE).evaluate("el => el.outerHTML") == streamed
    expect(answer.locator(".answer-body")).to_have_class(f"answer-body outcome-{stored.outcome}")

    # Every outcome as stored and as streamed: the same badge, and none for an ordinary answer.
    session = make_session(alice, "Outcomes")
    for outcome in Outcome.values:
        add_message(session, f"An answer {outcome}.", role="assistant", outcome=outcome)
    page.goto(f"{server}/c/{session.pk}/")
    screen.wait_connected()
    rendered = page.locator("#message-list > article.assistant").evaluate_all(
        "answers => answers.map((a) => a.querySelector('.outcome-badge')?.outerHTML ?? null)"
    )
    built = page.evaluate(
        """async (outcomes) => {
            const { outcomeBadge } = await import("/static/js/answer.js");
            return outcomes.map((o) => outcomeBadge(o)?.outerHTML ?? null);
        }""",
        Outcome.values,
    )
    assert rendered == built
    assert [bool(html) for html in rendered] == [o != Outcome.ANSWERED for o in Outcome.values]
    expect(page.locator(".outcome-badge.outcome-not_found")).to_have_text("Not found")
    expect(page.locator(".outcome-badge.outcome-declined")).to_have_text("Declined")
    screen.close()


@pytest.mark.timeout(600)
def test_a_pdf_source_names_its_pages_and_opens_the_file_there(
    browser: Any, server: str, alice: User, bob: User, demo_documents: list[Document]
) -> None:
    from playwright.sync_api import expect

    screen = Screen(browser, server, alice)
    page = screen.page
    answer = screen.ask(PDF_QUESTION)
    stored = Message.objects.get(session=_session_of(page.url), role="assistant")
    cited = [s for s in stored.sources if s["file_name"] == "overtime_policy.pdf"]
    assert cited, [s["file_name"] for s in stored.sources]
    source = cited[0]
    pages = (
        f"pages {source['page']}\u2013{source['page_end']}"
        if source["page_end"] != source["page"]
        else f"page {source['page']}"
    )
    assert source["url"] == f"/documents/{source['document_id']}/file#page={source['page']}"

    def check(item: Any) -> None:
        expect(item.locator(".pages")).to_have_text(pages)
        assert item.get_by_role("link").get_attribute("href") == source["url"]

    position = stored.sources.index(source)
    check(answer.locator(".sources li.source").nth(position))  # as streamed
    page.reload()
    screen.wait_connected()
    answer = page.locator("#message-list > article.assistant").first
    check(answer.locator(".sources li.source").nth(position))  # as the server renders it

    # The link's target is the PDF itself, for a reader of its collection only.
    original = f"{server}{source['url'].split('#')[0]}"
    response = screen.context.request.get(original)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert response.body()[:5] == b"%PDF-"
    screen.close()
    stranger = Screen(browser, server, bob)
    assert stranger.context.request.get(original).status == 404
    stranger.close()


def test_csv_and_chart_helpers_handle_awkward_values(browser: Any, chat_server: str) -> None:
    page = browser.new_page()
    page.goto(f"{chat_server}/accounts/login/")

    result = page.evaluate(
        """async () => {
            const { toCsv } = await import("/static/js/csv.js");
            const { chartData, niceTicks } = await import("/static/js/chart.js");
            return {
                csv: toCsv(["name, first", "note"], [
                    ['O"Brien', "=HYPERLINK(1)"], [null, "two\\nlines"], [-5, "-5"],
                    ["+1 555", " padded"], [true, {"a": 1}],
                ]),
                chart: chartData(["month", "total"], [["Jan", "1,200"], ["Feb", null]],
                                 {type: "bar", x: "month", y: ["total", "missing"]}),
                none: chartData(["month", "total"], [["Jan", "n/a"]],
                                {type: "line", x: "month", y: ["total"]}),
                ticks: niceTicks(-3, 12),
            };
        }"""
    )

    assert result["csv"].endswith("\r\n")
    # Quoted where needed, formulas kept as text, plain numbers left alone.
    assert list(csv.reader(io.StringIO(result["csv"]))) == [
        ["name, first", "note"],
        ['O"Brien', "'=HYPERLINK(1)"],
        ["", "two\nlines"],
        ["-5", "-5"],
        ["'+1 555", " padded"],
        ["true", '{"a":1}'],
    ]
    assert result["chart"] == {
        "type": "bar",
        "x": "month",
        "labels": ["Jan", "Feb"],
        "series": [{"name": "total", "values": [1200, None]}],
    }
    assert result["none"] is None
    assert result["ticks"] == [-5, 0, 5, 10, 15]
    page.close()
