"""Ingestion tests share the graph server with every other run on the machine, so the ids
of shared nodes (entities, section types) get a namespace of this run, and every document a
test makes is deleted through the code under test."""

import os
import tempfile
import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings

from core.providers import graph

NAMESPACE = f"test-{uuid.uuid4().hex[:10]}:"
MEDIA = tempfile.mkdtemp(prefix="switchboard-ingestion-media-")
# Set before the session's worker starts, so that it writes the same ids and files.
os.environ["INGESTION_GRAPH_NAMESPACE"] = NAMESPACE
os.environ["MEDIA_ROOT"] = MEDIA
settings.INGESTION_GRAPH_NAMESPACE = NAMESPACE
settings.MEDIA_ROOT = MEDIA


@pytest.fixture(scope="session", autouse=True)
def _remove_namespaced_graph_nodes() -> Iterator[None]:
    yield
    graph.run_write(
        "MATCH (n:Entity) WHERE n.id STARTS WITH $prefix DETACH DELETE n", prefix=NAMESPACE
    )
    graph.run_write(
        "MATCH (n:SectionType) WHERE n.id STARTS WITH $prefix DETACH DELETE n", prefix=NAMESPACE
    )


@pytest.fixture
def cleanup_documents() -> Iterator[None]:
    """Deletes, through delete_document, whatever documents the test left."""
    yield
    from ingestion.documents import delete_document
    from ingestion.models import Document

    for document in Document.objects.all():
        delete_document(document)
