"""Fixtures of the tool and answer tests (none is autouse). Import the `fixture_*`
functions into a test module to use the fixture of that name.

`tool_corpus`: demo documents ingested once per session through the real pipeline into a
collection one reader may read, and one more demo document in a collection only an
outsider may read (its text must never reach the reader). `streaming_llm`: the fake
OpenAI-compatible server, taught to stream (`stream: true` answers Server-Sent Events) as
the chat writers ask. `graph_down`: the graph driver pointed at a closed port."""

import io
import json
import socket
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from chat.orchestrator.breaker import CircuitBreaker
from chat.orchestrator.context import RunContext
from core.providers import graph, llm
from ingestion.models import Collection, Document

from ..ingestion.fake_openai import FakeOpenAI
from ..ingestion.helpers import ingest
from .conftest import ROOT_DIR, EventLog

if not settings.INGESTION_GRAPH_NAMESPACE:
    settings.INGESTION_GRAPH_NAMESPACE = f"test-tools-{uuid.uuid4().hex[:8]}:"

DEMO = ROOT_DIR / "demo" / "corpus"
TEAM_FILES = (
    "resumes/alexis_torres.pdf",
    "resumes/sarah_chen.docx",
    "resumes/sarah_okafor.pdf",
    "resumes/will_patterson.docx",
    "policies/overtime_policy.pdf",
    "policies/time_off_policy.md",
)
PRIVATE_FILE = "policies/crane_and_rigging_safety.html"


@dataclass
class ToolCorpus:
    reader: Any  # reads "team"
    outsider: Any  # reads "private" only
    team: Collection
    private: Collection
    documents: dict[str, Document]  # file name -> document


@pytest.fixture(scope="session", name="tool_corpus")
def fixture_tool_corpus(django_db_setup: None, django_db_blocker: Any) -> Iterator[ToolCorpus]:
    namespace = settings.INGESTION_GRAPH_NAMESPACE
    suffix = uuid.uuid4().hex[:6]
    with django_db_blocker.unblock():
        users = get_user_model().objects
        reader = users.create_user(f"tools-reader-{suffix}", password="pw")
        outsider = users.create_user(f"tools-outsider-{suffix}", password="pw")
        team = Collection.objects.create(name=f"tools-team-{suffix}")
        team.readers.add(reader)
        private = Collection.objects.create(name=f"tools-private-{suffix}")
        private.readers.add(outsider)
        try:
            job = ingest(team, {name: (DEMO / name).read_bytes() for name in TEAM_FILES})
            assert job.status == "done", job.status
            job = ingest(private, {PRIVATE_FILE: (DEMO / PRIVATE_FILE).read_bytes()})
            assert job.status == "done", job.status
            documents = {
                d.file_name: d for d in Document.objects.filter(collection__in=[team, private])
            }
            assert len(documents) == len(TEAM_FILES) + 1, documents
            yield ToolCorpus(reader, outsider, team, private, documents)
        finally:
            from ingestion.documents import delete_document

            for document in Document.objects.filter(collection__in=[team, private]):
                delete_document(document)
            team.delete()
            private.delete()
            reader.delete()
            outsider.delete()
            for label in ("Entity", "SectionType"):
                graph.run_write(
                    f"MATCH (n:{label}) WHERE n.id STARTS WITH $prefix DETACH DELETE n",
                    prefix=namespace,
                )


def context(user: Any, question: str, **options: Any) -> tuple[RunContext, EventLog]:
    events = EventLog()
    return RunContext(user=user, question=question, emit=events, **options), events


@pytest.fixture(name="no_llm")
def fixture_no_llm(settings: Settings) -> Iterator[None]:
    settings.OPENAI_API_KEY = settings.OPENAI_BASE_URL = settings.OPENAI_MODEL = ""
    llm.get_client.cache_clear()
    yield
    llm.get_client.cache_clear()


class StreamingFakeOpenAI(FakeOpenAI):
    """FakeOpenAI that also answers `stream: true` requests as the OpenAI API does: the
    reply in pieces (a word each) as `chat.completion.chunk` events, then [DONE]."""

    def __init__(self, answer: Callable[[str], str]) -> None:
        super().__init__(answer)
        fake = self
        plain: type[BaseHTTPRequestHandler] = self.server.RequestHandlerClass  # type: ignore[assignment]

        class Handler(plain):  # type: ignore[valid-type, misc]
            rfile: Any

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                request = json.loads(body or b"{}")
                if not request.get("stream"):
                    self.rfile = io.BytesIO(body)  # the plain handler reads it again
                    super().do_POST()
                    return
                prompt = "\n\n".join(m["content"] for m in request["messages"][-1:])
                fake.prompts.append(prompt)
                fake.requests.append(request)
                content = fake.answer(prompt)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                pieces = [w + " " for w in content.split(" ")]
                pieces[-1] = pieces[-1].rstrip(" ")
                for piece in [*pieces, None]:
                    chunk = {
                        "id": "chatcmpl-stream",
                        "object": "chat.completion.chunk",
                        "created": 0,
                        "model": request["model"],
                        "choices": [
                            {
                                "index": 0,
                                "delta": {"content": piece} if piece is not None else {},
                                "finish_reason": None if piece is not None else "stop",
                            }
                        ],
                    }
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        self.requests: list[dict[str, Any]] = []
        self.server.RequestHandlerClass = Handler


@dataclass
class LLM:
    fake: StreamingFakeOpenAI
    replies: dict[str, str]  # the first key found in a prompt picks the reply

    def reply(self, prompt: str) -> str:
        for key, text in self.replies.items():
            if key in prompt:
                return text
        return "I do not know."


@pytest.fixture(name="streaming_llm")
def fixture_streaming_llm(settings: Settings) -> Iterator[LLM]:
    """An LLM configured and answering from `replies` (fill it in the test)."""
    holder: dict[str, LLM] = {}
    fake = StreamingFakeOpenAI(lambda prompt: holder["llm"].reply(prompt))
    holder["llm"] = LLM(fake, {})
    with fake.running():
        settings.OPENAI_BASE_URL = fake.url
        settings.OPENAI_API_KEY = "test-key"
        settings.OPENAI_MODEL = "fake-model"
        llm.get_client.cache_clear()
        yield holder["llm"]
    llm.get_client.cache_clear()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(name="llm_down")
def fixture_llm_down(settings: Settings) -> Iterator[None]:
    """An LLM configured at an address where nothing listens."""
    settings.OPENAI_BASE_URL = f"http://127.0.0.1:{closed_port()}/v1"
    settings.OPENAI_API_KEY = "test-key"
    settings.OPENAI_MODEL = "fake-model"
    llm.get_client.cache_clear()
    yield
    llm.get_client.cache_clear()


@pytest.fixture(name="tool_breakers")
def fixture_tool_breakers() -> Iterator[None]:
    """Every tool's breaker closed before and after: a test of bad input fails on purpose,
    and failures count towards opening a breaker."""
    from chat.orchestrator.tools.registry import REGISTRY
    from chat.orchestrator.tools.runner import get_tool

    get_tool("document_search")  # registers the shipped tools
    for name in list(REGISTRY):
        CircuitBreaker(name).reset()
    yield
    for name in list(REGISTRY):
        CircuitBreaker(name).reset()


@pytest.fixture(name="graph_breaker")
def fixture_graph_breaker() -> Iterator[CircuitBreaker]:
    """The graph database's breaker of document_search, closed before and after."""
    from chat.orchestrator.tools.documents import GRAPH_BREAKER

    GRAPH_BREAKER.reset()
    yield GRAPH_BREAKER
    GRAPH_BREAKER.reset()


@pytest.fixture(name="graph_down")
def fixture_graph_down(settings: Settings, graph_breaker: CircuitBreaker) -> Iterator[None]:
    """The graph driver pointed at a closed port (a fresh driver, reset afterwards)."""
    graph.close()
    settings.GRAPH_URL = f"bolt://127.0.0.1:{closed_port()}"
    yield
    graph.close()


# The same fixtures under their own names, for modules that import them so (a module that
# also takes a parameter of that name imports the `fixture_*` function instead).
tool_corpus = fixture_tool_corpus
no_llm = fixture_no_llm
streaming_llm = fixture_streaming_llm
llm_down = fixture_llm_down
tool_breakers = fixture_tool_breakers
graph_breaker = fixture_graph_breaker
graph_down = fixture_graph_down
