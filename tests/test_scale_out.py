"""Two web processes and two Celery workers on the same services, as two machines behind a
load balancer would run them: chat turns on both (a conversation moves from one to the
other), an ingestion job shared by the workers and searches, all at once.

Nothing is lost or done twice, each websocket streams its answers to `complete`, and no
process holds more PostgreSQL connections than its pool allows (each process names itself
to the server through PGAPPNAME, so the count is per process).
"""

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token
from websockets.sync.client import connect

from chat.models import ChatSession, Message
from core.providers import graph
from ingestion.documents import delete_document
from ingestion.jobs import create_job, run_in_process, sources_from_paths
from ingestion.models import Chunk, Collection, Document
from registries.models import DataSource

from .chat.test_e2e import _free_port, _request
from .conftest import ROOT, delete_namespaced_graph_nodes
from .sqlagent.agent_fixtures import (
    agent_warehouse_schema,
    agent_warehouse_url,
    server_environment,
    warehouse,
)

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "warehouse"]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

# Entities and section types this run writes carry a namespace of its own (the graph server
# is shared by every run on the machine); they are deleted at the end.
if not settings.INGESTION_GRAPH_NAMESPACE:
    settings.INGESTION_GRAPH_NAMESPACE = f"test-scale-{uuid.uuid4().hex[:8]}:"

POOL = 4  # DB_POOL_MAX_SIZE of every process here: small, so that a leak would show
QUEUE = f"switchboard-scale-{os.getpid()}"
CONVERSATIONS = 12  # at once, half on each web process
UPLOADS = 6
SEARCHES = 10
ANSWER_SECONDS = 240
QUESTIONS = [
    "How many work orders were completed in 2025 by branch?",
    "What is the wind speed limit for mobile crane lifts?",
    "How many technicians are there?",
    "How many hours of overtime need approval in advance?",
]
FOLLOW_UP = "And in 2024?"
DEMO_DOCUMENTS = [
    ROOT / "demo" / "corpus" / "policies" / "crane_and_rigging_safety.html",
    ROOT / "demo" / "corpus" / "policies" / "overtime_policy.pdf",
]


@dataclass
class Processes:
    web: list[int]  # ports
    handles: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)

    def log_tail(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text()[-1500:]}" for log in self.logs)


def _environment(name: str, warehouse_url: str) -> dict[str, str]:
    return server_environment(
        warehouse_url,
        DB_POOL_MAX_SIZE=str(POOL),
        # A small pool under this load lends its connections late on slow cores; what is
        # checked is how many are held, not how soon one is lent (the default waits 10 s).
        DB_POOL_TIMEOUT=str(ANSWER_SECONDS),
        PGAPPNAME=name,  # libpq's application_name: pg_stat_activity tells processes apart
        CELERY_QUEUE=QUEUE,
    )


def _start(command: list[str], name: str, warehouse_url: str, found: Processes) -> None:
    log = ROOT / "var" / f"scale-out-{name}.log"
    log.parent.mkdir(exist_ok=True)
    handle = subprocess.Popen(
        command, cwd=ROOT, env=_environment(name, warehouse_url),
        stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    found.handles.append(handle)
    found.logs.append(log)


@pytest.fixture(scope="module")
def processes(django_db_setup: None, agent_warehouse_url: str) -> Iterator[Processes]:
    from config.celery import app

    found = Processes(web=[_free_port(), _free_port()])
    for i, port in enumerate(found.web):
        serve = [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", "1"]
        _start(serve, f"scale-web-{i}", agent_warehouse_url, found)
    for i in range(2):
        worker = [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=1",
                  "--loglevel=info", "-Q", QUEUE, "-n", f"scale-{i}-{os.getpid()}@%h"]  # fmt: skip
        _start(worker, f"scale-worker-{i}", agent_warehouse_url, found)
    try:
        deadline = time.monotonic() + 120
        while not all(_request(p, "GET", "/accounts/login/", timeout=5) == 200 for p in found.web):
            assert time.monotonic() < deadline, found.log_tail()
            assert all(h.poll() is None for h in found.handles), found.log_tail()
            time.sleep(0.5)
        while len(app.control.ping(timeout=1.0, destination=_worker_names()) or []) < 2:
            assert time.monotonic() < deadline, found.log_tail()
        yield found
    finally:
        for handle in found.handles:
            handle.terminate()
        for handle in found.handles:
            try:
                handle.wait(timeout=30)
            except subprocess.TimeoutExpired:
                handle.kill()
                handle.wait()


def _worker_names() -> list[str]:
    import socket

    return [f"scale-{i}-{os.getpid()}@{socket.gethostname()}" for i in range(2)]


class ConnectionWatch:
    """Samples pg_stat_activity: the most connections each of our processes held at once."""

    def __init__(self) -> None:
        self.peak: dict[str, int] = {}
        self.stop = threading.Event()
        db = settings.DATABASES["default"]
        self.conn = psycopg.connect(
            host=db["HOST"], port=db["PORT"], user=db["USER"], password=db["PASSWORD"] or None,
            dbname=db["NAME"], autocommit=True,
        )  # fmt: skip
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            rows = self.conn.execute(
                "SELECT application_name, count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND application_name LIKE 'scale-%%' "
                "GROUP BY application_name"
            ).fetchall()
            for name, count in rows:
                self.peak[name] = max(self.peak.get(name, 0), count)
            time.sleep(0.1)

    def __enter__(self) -> "ConnectionWatch":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.conn.close()


def _ask(port: int, cookie: str, session_id: str, question: str) -> list[dict[str, Any]]:
    """One turn over the chat websocket; every event until `complete` or `error`."""
    events: list[dict[str, Any]] = []
    headers = {"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"}
    with connect(f"ws://127.0.0.1:{port}/ws/chat/", additional_headers=headers) as socket:
        request_id = uuid.uuid4().hex
        socket.send(json.dumps({"type": "ask", "request_id": request_id,
                                "session_id": session_id, "content": question}))  # fmt: skip
        deadline = time.monotonic() + ANSWER_SECONDS
        while time.monotonic() < deadline:
            event = json.loads(socket.recv(timeout=deadline - time.monotonic()))
            if event.get("request_id") == request_id:
                events.append(event)
                if event["event"] in ("complete", "error"):
                    break
    return events


def _conversation(ports: list[int], cookie: str, session_id: str, n: int) -> list[list[dict]]:
    """A question on one web process, its follow-up on the other (a load balancer may send
    the next turn anywhere)."""
    first = _ask(ports[n % 2], cookie, session_id, QUESTIONS[n % len(QUESTIONS)])
    second = _ask(ports[(n + 1) % 2], cookie, session_id, FOLLOW_UP)
    return [first, second]


def _upload(port: int, token: str, collection: str) -> dict[str, Any]:
    import http.client

    boundary = uuid.uuid4().hex
    parts = []
    for i in range(UPLOADS):
        body = (f"# Depot {i} procedures\n\n## Opening\n\nDepot {i} opens at {6 + i} o'clock "
                f"and the shift lead checks forklift {i * 7} before loading.\n\n## Closing\n\n"
                f"Depot {i} closes after the yard sweep and the gate log.\n")  # fmt: skip
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="files"; '
            f'filename="depot-{i}.md"\r\nContent-Type: text/markdown\r\n\r\n{body}\r\n'.encode()
        )
    parts.append(f"--{boundary}--\r\n".encode())
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(
        "POST", f"/api/ingestion/uploads/?collection={collection}", body=b"".join(parts),
        headers={"Authorization": f"Token {token}",
                 "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )  # fmt: skip
    response = connection.getresponse()
    payload = json.loads(response.read())
    assert response.status == 202, payload
    return dict(payload)


def _get(port: int, token: str, path: str) -> dict[str, Any]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path, headers={"Authorization": f"Token {token}"})
    response = connection.getresponse()
    return {"status": response.status, **json.loads(response.read() or b"{}")}


def _search(port: int, token: str, query: str) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request(
        "POST", "/api/graphrag/query", body=json.dumps({"query": query}),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )  # fmt: skip
    response = connection.getresponse()
    response.read()
    return response.status


@pytest.fixture
def reader(warehouse: DataSource) -> Iterator[User]:
    """A user who reads two demo policies, ingested here through the real pipeline."""
    user = User.objects.create_user(f"scale-{uuid.uuid4().hex[:6]}")
    collection = Collection.objects.create(name=f"scale-policies-{uuid.uuid4().hex[:6]}")
    collection.readers.add(user)
    run_in_process(create_job(collection=collection, sources=sources_from_paths(DEMO_DOCUMENTS)))
    yield user
    for document in Document.objects.all():
        delete_document(document)
    delete_namespaced_graph_nodes(settings.INGESTION_GRAPH_NAMESPACE)


def test_two_web_processes_and_two_workers_share_the_work(
    processes: Processes, reader: User
) -> None:
    client = Client()
    client.force_login(reader)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    token = Token.objects.create(user=reader).key
    sessions = [str(ChatSession.objects.create(owner=reader).pk) for _ in range(CONVERSATIONS)]
    ports = processes.web

    with ConnectionWatch() as watch, ThreadPoolExecutor(CONVERSATIONS + 2) as pool:
        job = _upload(ports[0], token, f"scale-depots-{uuid.uuid4().hex[:6]}")
        turns = [
            pool.submit(_conversation, ports, cookie, session, n)
            for n, session in enumerate(sessions)
        ]
        searches = [
            pool.submit(_search, ports[n % 2], token, QUESTIONS[n % len(QUESTIONS)])
            for n in range(SEARCHES)
        ]
        conversations = [turn.result(timeout=ANSWER_SECONDS * 2) for turn in turns]
        statuses = [search.result(timeout=ANSWER_SECONDS) for search in searches]
        deadline = time.monotonic() + ANSWER_SECONDS
        while (polled := _get(ports[1], token, f"/api/ingestion/jobs/{job['id']}/"))[
            "status"
        ] not in ("done", "failed"):
            assert time.monotonic() < deadline, processes.log_tail()
            time.sleep(1)

    # Every turn streamed to its end on whichever process it reached, and was stored once.
    for conversation in conversations:
        for events in conversation:
            names = [event["event"] for event in events]
            assert names[0] == "accepted" and names[-1] == "complete", (names, events[-1:])
            assert events[-1]["outcome"] in ("answered", "partial", "not_found", "declined")
            assert "token" in names or events[-1].get("message", {}).get("content")
    for session in sessions:
        stored = Message.objects.filter(session_id=uuid.UUID(session))
        assert stored.filter(role="user").count() == 2
        assert stored.filter(role="assistant", status=Message.Status.COMPLETE).count() == 2
    assert statuses == [200] * SEARCHES

    # The job's files were each ingested once, by whichever worker claimed them.
    assert polled["status"] == "done", polled
    documents = Document.objects.filter(collection_id=polled["collection"])
    assert documents.count() == UPLOADS
    for document in documents:
        chunks = Chunk.objects.filter(document=document)
        assert chunks.count() > 0
        assert chunks.values("index").distinct().count() == chunks.count()
        in_graph = graph.run_read(
            "MATCH (c:Chunk) WHERE c.document_id = $doc RETURN count(c) AS n",
            doc=str(document.pk),
        )
        assert in_graph[0]["n"] == chunks.count()

    # No process held more connections than its pool, however many threads it ran.
    assert any(name.startswith("scale-web") for name in watch.peak), watch.peak
    assert all(count <= POOL for count in watch.peak.values()), watch.peak
