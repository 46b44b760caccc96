"""Shared fixtures of the chat tests: people, their sessions, clients for the API and the
websocket, and a model server that answers only when told to (to stop answers in flight)."""

import tempfile
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from chat.models import ChatSession, Message
from core.providers import graph, llm
from ingestion.documents import delete_document
from ingestion.models import Collection, Document

from ..ingestion.fake_openai import FakeOpenAI
from ..ingestion.helpers import ingest

# Graph ids this run writes carry a prefix of their own, so clean-up deletes only them.
if not django_settings.INGESTION_GRAPH_NAMESPACE:
    django_settings.INGESTION_GRAPH_NAMESPACE = f"test-chat-{uuid.uuid4().hex[:8]}:"

HANDBOOK_MD = b"""# Crew Handbook

## Arrival

Crews arrive at the yard by seven and check the crane log before leaving.

## Rigging

Every sling is inspected before a lift. A damaged sling is tagged and removed from service.

## Lifting

The lift director confirms the load chart, the wind speed and the exclusion zone.
"""

ORIGIN = (b"origin", b"http://127.0.0.1")


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="pw-alice-12345")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="pw-bob-12345")


def api_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def make_session(user: User, title: str = "") -> ChatSession:
    return ChatSession.objects.create(owner=user, title=title)


def add_message(session: ChatSession, content: str, role: str = "user", **fields: Any) -> Message:
    return Message.objects.create(
        session=session, owner=session.owner, role=role, content=content, **fields
    )


async def socket_headers(user: User) -> list[tuple[bytes, bytes]]:
    """A logged-in browser's headers: its session cookie and an allowed origin."""
    client = Client()
    await sync_to_async(client.force_login)(user)
    cookie = "; ".join(f"{key}={morsel.value}" for key, morsel in client.cookies.items())
    return [ORIGIN, (b"cookie", cookie.encode())]


@pytest.fixture
def no_llm(settings: Settings) -> Iterator[None]:
    """What runs without a model configured: deterministic routing and answers."""
    settings.OPENAI_API_KEY = settings.OPENAI_BASE_URL = settings.OPENAI_MODEL = ""
    llm.get_client.cache_clear()
    yield
    llm.get_client.cache_clear()


class HeldModel:
    """A model server whose every reply waits until `release()`: a run that reaches the
    model stays in flight as long as a test needs."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self.called = threading.Event()
        self.server = FakeOpenAI(self._answer)

    def _answer(self, prompt: str) -> str:
        self.called.set()
        self.released.wait(timeout=30)
        return "Released."

    def release(self) -> None:
        self.released.set()


@pytest.fixture
def held_model(settings: Settings) -> Iterator[HeldModel]:
    held = HeldModel()
    with held.server.running():
        settings.OPENAI_BASE_URL = held.server.url
        settings.OPENAI_API_KEY = "test-key"
        settings.OPENAI_MODEL = "fake-model"
        llm.get_client.cache_clear()
        try:
            yield held
        finally:
            held.release()
            llm.get_client.cache_clear()


@pytest.fixture
def handbook(alice: User, settings: Settings) -> Iterator[Document]:
    """A crew handbook ingested through the real pipeline into a collection alice reads.
    For transactional tests: the rows go with the flush, the graph nodes here."""
    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="switchboard-chat-media-")
    collection = Collection.objects.create(name=f"handbook-{uuid.uuid4().hex[:6]}")
    collection.readers.add(alice)
    ingest(collection, {"manual/crew_handbook.md": HANDBOOK_MD})
    document = Document.objects.get(collection=collection)
    try:
        yield document
    finally:
        delete_document(document)
        for label in ("Entity", "SectionType"):
            graph.run_write(
                f"MATCH (n:{label}) WHERE n.id STARTS WITH $prefix DETACH DELETE n",
                prefix=django_settings.INGESTION_GRAPH_NAMESPACE,
            )
