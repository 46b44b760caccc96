"""A client generated from /api/schema/ with openapi-python-client runs the main flow against
the real server: a token for a password, a session, a database question and a document
question, the messages, feedback, and deleting the session. Every call is parsed into the
generated models, so a response unlike the schema fails here."""

import importlib
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from ingestion.documents import delete_document
from ingestion.jobs import create_job, run_in_process, sources_from_paths
from ingestion.models import Collection, Document

from ..chat.test_e2e import DEMO_DOCUMENTS, DOCUMENT_QUESTION, SQL_QUESTION
from ..conftest import ROOT, delete_namespaced_graph_nodes
from .conftest import Api

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

PACKAGE = "switchboard_client"


@pytest.fixture(scope="module", autouse=True)
def _namespaced_graph_nodes() -> Iterator[None]:
    yield
    delete_namespaced_graph_nodes(settings.INGESTION_GRAPH_NAMESPACE)


@pytest.fixture
def documents(api: Api) -> Iterator[None]:
    """Two demo policies the plain user reads, ingested through the real pipeline."""
    collection = Collection.objects.create(name=f"client-docs-{uuid.uuid4().hex[:6]}")
    collection.readers.add(User.objects.get(username="plain"))
    run_in_process(create_job(collection=collection, sources=sources_from_paths(DEMO_DOCUMENTS)))
    yield
    for document in Document.objects.filter(collection=collection):
        delete_document(document)


@pytest.fixture
def generated(api: Api, tmp_path: Path) -> Iterator[ModuleType]:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(api.schema()))
    subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(schema),
         "--meta", "none", "--output-path", str(tmp_path / PACKAGE)],
        cwd=ROOT, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def _call(module: str, **kwargs: Any) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.{module}").sync_detailed(**kwargs)


def test_a_generated_client_runs_the_main_flow(
    api: Api, generated: ModuleType, documents: None
) -> None:
    import httpx

    models = importlib.import_module(f"{PACKAGE}.models")
    anonymous = generated.Client(base_url=api.base, timeout=httpx.Timeout(300))

    wrong = _call(
        "auth.auth_token_create",
        client=anonymous,
        body=models.CredentialsRequest(username="plain", password="not-it"),
    )
    assert wrong.status_code == 401 and wrong.parsed.code.value == "unauthorized"
    login = _call(
        "auth.auth_token_create",
        client=anonymous,
        body=models.CredentialsRequest(username="plain", password="plain-pass-123"),
    )
    assert login.status_code == 200 and login.parsed.token == api.plain_token
    client = generated.AuthenticatedClient(
        base_url=api.base, token=login.parsed.token, prefix="Token", timeout=httpx.Timeout(300)
    )

    created = _call(
        "chat.chat_sessions_create", client=client, body=models.SessionRequest(title="From code")
    )
    assert created.status_code == 201 and created.parsed.title == "From code"
    session_id = created.parsed.id

    replies = {}
    for question in (SQL_QUESTION, DOCUMENT_QUESTION):
        asked = _call(
            "chat.chat_sessions_messages_create",
            session_id=session_id,
            client=client,
            body=models.QuestionRequest(content=question),
        )
        assert asked.status_code == 201, asked.content[:500]
        replies[question] = asked.parsed
    assert replies[SQL_QUESTION].route == "sql" and replies[SQL_QUESTION].response
    document_reply = replies[DOCUMENT_QUESTION]
    assert document_reply.route == "documents" and document_reply.sources
    assert document_reply.message.role.value == "assistant"

    listed = _call("chat.chat_sessions_messages_list", session_id=session_id, client=client)
    assert listed.status_code == 200 and listed.parsed.count == 4
    roles = [m.role.value for m in listed.parsed.results]
    assert roles == ["user", "assistant", "user", "assistant"]

    rated = _call(
        "chat.chat_messages_feedback_create",
        message_id=document_reply.message_id,
        client=client,
        body=models.FeedbackRequest(rating=models.RatingEnum.UP, comment="clear"),
    )
    assert rated.status_code == 201 and rated.parsed.rating.value == "up"

    deleted = _call("chat.chat_sessions_destroy", id=session_id, client=client)
    assert deleted.status_code == 204
    gone = _call("chat.chat_sessions_retrieve", id=session_id, client=client)
    assert gone.status_code == 404 and gone.parsed.code.value == "not_found"
