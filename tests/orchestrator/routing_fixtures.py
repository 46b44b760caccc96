"""Fixtures of the routing and memory tests (import them by name; none is autouse).

`routing_corpus`: the whole demo corpus (demo/corpus: résumés, policies, the manual)
ingested once through the real pipeline into a collection one reader may read; an outsider
reads nothing. With `--reuse-db` the collection is kept for the next run (ingesting forty
documents takes minutes); otherwise it is deleted at the end. `routing_warehouse`: the demo
warehouse and its registry (the SQL agent's fixture), with the router's caches cleared.
"""

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from chat.orchestrator import routing
from core.providers import graph, llm
from ingestion.models import Collection, Document
from registries.models import DataSource

from ..ingestion.fake_openai import FakeOpenAI
from ..ingestion.helpers import ingest
from ..sqlagent.agent_fixtures import (  # noqa: F401 - fixtures
    agent_warehouse_schema,
    agent_warehouse_url,
    warehouse,
)
from .conftest import ROOT_DIR

if not settings.INGESTION_GRAPH_NAMESPACE:
    settings.INGESTION_GRAPH_NAMESPACE = f"test-routing-{uuid.uuid4().hex[:8]}:"

DEMO = ROOT_DIR / "demo" / "corpus"
DEMO_FILES = sorted(str(p.relative_to(DEMO)) for p in DEMO.rglob("*") if p.is_file())
COLLECTION = "routing-demo"
READER = "routing-reader"
OUTSIDER = "routing-outsider"


@dataclass
class RoutingCorpus:
    reader: Any  # reads the demo collection
    outsider: Any  # reads no collection at all
    collection: Collection


@pytest.fixture(scope="session")
def routing_corpus(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[RoutingCorpus]:
    keep = bool(request.config.getoption("reuse_db", default=False))
    with django_db_blocker.unblock():
        users = get_user_model().objects
        reader, _ = users.get_or_create(username=READER)
        outsider, _ = users.get_or_create(username=OUTSIDER)
        collection, _ = Collection.objects.get_or_create(name=COLLECTION)
        collection.readers.add(reader)
        have = set(collection.documents.values_list("file_path", flat=True))
        missing = [name for name in DEMO_FILES if name not in have]
        if missing:
            job = ingest(collection, {name: (DEMO / name).read_bytes() for name in missing})
            assert job.status == "done", job.status
        assert collection.documents.count() == len(DEMO_FILES)
        try:
            yield RoutingCorpus(reader, outsider, collection)
        finally:
            if not keep:
                from ingestion.documents import delete_document

                for document in Document.objects.filter(collection=collection):
                    delete_document(document)
                collection.delete()
                reader.delete()
                outsider.delete()
                graph.run_write(
                    "MATCH (n) WHERE (n:Entity OR n:SectionType) AND n.id STARTS WITH $prefix "
                    "DETACH DELETE n",
                    prefix=settings.INGESTION_GRAPH_NAMESPACE,
                )


@pytest.fixture
def routing_warehouse(warehouse: DataSource, no_router_llm: None) -> Iterator[DataSource]:  # noqa: F811
    """The demo registry over the test warehouse; the router rereads it."""
    routing.clear_caches()
    yield warehouse
    routing.clear_caches()


@pytest.fixture
def no_router_llm(settings: Settings) -> Iterator[None]:
    """The deterministic router alone, whatever the environment configures."""
    settings.OPENAI_API_KEY = settings.OPENAI_BASE_URL = settings.OPENAI_MODEL = ""
    llm.get_client.cache_clear()
    yield
    llm.get_client.cache_clear()


@pytest.fixture
def router_llm(settings: Settings) -> Iterator[Callable[[Callable[[str], str]], FakeOpenAI]]:
    """Starts a fake OpenAI-compatible server answering with the given function and
    configures the LLM to be it; every low-confidence decision goes to it."""
    servers: list[Any] = []

    def start(answer: Callable[[str], str]) -> FakeOpenAI:
        fake = FakeOpenAI(answer)
        context = fake.running()
        context.__enter__()
        servers.append(context)
        settings.OPENAI_BASE_URL = fake.url
        settings.OPENAI_API_KEY = "test"
        settings.OPENAI_MODEL = "fake-model"
        llm.get_client.cache_clear()
        return fake

    yield start
    for context in servers:
        context.__exit__(None, None, None)
    llm.get_client.cache_clear()
