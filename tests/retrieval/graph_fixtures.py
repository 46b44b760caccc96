"""Collections for the query-understanding and graph tests, built once per session through
the real ingestion pipeline: demo résumés a reader may see, and a secret document that
names some of the same people, which that reader may not see."""

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from core.providers import graph
from ingestion.models import Collection, Document

from ..ingestion.helpers import ingest

ROOT = Path(__file__).resolve().parents[2]
RESUMES = ROOT / "demo" / "corpus" / "resumes"
PEOPLE_FILES = [
    "alexis_torres.pdf",
    "sarah_chen.docx",
    "sarah_okafor.pdf",
    "james_smith.md",
    "bob_kessler.md",
    "kevin_mahoney.txt",
    "will_patterson.docx",
]
# Only the secret collection says that Zed Quimby worked with Alexis Torres, and only it
# holds the word "quasarlattice".
SECRET_DOCUMENT = b"""# Zed Quimby

Platform engineer, Oakland, CA.

## Summary

Platform engineer who moves billing systems to the cloud.

## Technical Skills

- Python, COBOL and the quasarlattice toolkit
- Terraform and Kubernetes

## Work History

### Senior Engineer - TechCorp (2018 - 2021)

Worked with Alexis Torres at TechCorp on the quasarlattice migration.

## Education

B.S. Computer Science, Mills College, 2017
"""

# Every run gets its own id prefix for the shared entity nodes unless one was given.
if not settings.INGESTION_GRAPH_NAMESPACE:
    settings.INGESTION_GRAPH_NAMESPACE = f"test-graph-{uuid.uuid4().hex[:8]}:"


@dataclass
class GraphCorpus:
    reader: Any  # may read "people" only
    outsider: Any  # may read nothing
    people: Collection
    secret: Collection
    documents: dict[str, Document]  # file name -> document

    @property
    def readable(self) -> list[int]:
        return [self.people.pk]

    def doc(self, file_name: str) -> str:
        return str(self.documents[file_name].pk)


# Each test module imports the fixture, so pytest sees one session fixture per module:
# they share one corpus, built by the first and removed after the last.
_shared: dict[str, Any] = {"corpus": None, "users": 0}


def _build(namespace: str) -> GraphCorpus:
    users = get_user_model().objects
    reader = users.create_user("graph-reader", password="graph-reader-pw")
    outsider = users.create_user("graph-outsider", password="graph-outsider-pw")
    people = Collection.objects.create(name=f"people-{uuid.uuid4().hex[:6]}")
    people.readers.add(reader)
    secret = Collection.objects.create(name=f"secret-{uuid.uuid4().hex[:6]}")
    ingest(people, {name: (RESUMES / name).read_bytes() for name in PEOPLE_FILES})
    ingest(secret, {"zed_quimby.md": SECRET_DOCUMENT})
    documents = {d.file_name: d for d in Document.objects.filter(collection__in=[people, secret])}
    assert set(documents) == {*PEOPLE_FILES, "zed_quimby.md"}, documents
    return GraphCorpus(reader, outsider, people, secret, documents)


def _remove(corpus: GraphCorpus, namespace: str) -> None:
    from ingestion.documents import delete_document

    for document in Document.objects.filter(collection__in=[corpus.people, corpus.secret]):
        delete_document(document)
    # The rows were committed (session fixture): remove them so that --reuse-db works.
    corpus.people.delete()
    corpus.secret.delete()
    corpus.reader.delete()
    corpus.outsider.delete()
    for label in ("Entity", "SectionType"):
        graph.run_write(
            f"MATCH (n:{label}) WHERE n.id STARTS WITH $prefix DETACH DELETE n",
            prefix=namespace,
        )


@pytest.fixture(scope="session", name="graph_corpus")
def graph_corpus_fixture(django_db_setup: None, django_db_blocker: Any) -> Iterator[GraphCorpus]:
    namespace = settings.INGESTION_GRAPH_NAMESPACE
    with django_db_blocker.unblock():
        if _shared["corpus"] is None:
            _shared["corpus"] = _build(namespace)
        _shared["users"] += 1
        try:
            yield _shared["corpus"]
        finally:
            _shared["users"] -= 1
            if not _shared["users"]:
                _remove(_shared["corpus"], namespace)
                _shared["corpus"] = None
