"""A small corpus for the search tests, ingested once per session through the real
pipeline (so chunks, sections, entities and graph edges are what production writes): a
team collection one reader may see, and a vault collection about the same people that
only its own reader may see."""

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from core.providers import graph
from ingestion.models import Collection, Document

from ..ingestion import samples
from ..ingestion.helpers import ingest

if not settings.INGESTION_GRAPH_NAMESPACE:
    settings.INGESTION_GRAPH_NAMESPACE = f"test-search-{uuid.uuid4().hex[:8]}:"

# The vault names the same people and the same migration, so that similarity and shared
# entities lead towards it; only "nightjar" and "Halcyon" tell its text apart.
SECRET_WORD = "nightjar"
VAULT_MD = b"""# Alexis Torres - Board Memo

## Acquisition

Alexis Torres and Sarah Chen negotiated Project Nightjar, the confidential purchase of
Halcyon Robotics by TechCorp for 42 million dollars, after the AWS migration project.

## Terms

Nightjar closes in March. Alexis Torres leads the Kubernetes integration of Halcyon.
"""

HANDBOOK_MD = """# Crew Handbook

## Arrival

Crews arrive at the yard by seven and check the crane log before leaving.

## Rigging

Every sling is inspected before a lift. A damaged sling is tagged and removed.

## Lifting

The lift director confirms the load chart, the wind speed and the exclusion zone.

## Closing

At the end of the day the crane log is signed and the keys are returned.
"""


@dataclass
class SearchCorpus:
    reader: Any  # reads "team"
    vault_reader: Any  # reads "vault" only
    team: Collection
    vault: Collection
    documents: dict[str, Document]  # file name -> document


@pytest.fixture(scope="session")
def search_corpus(django_db_setup: None, django_db_blocker: Any) -> Iterator[SearchCorpus]:
    namespace = settings.INGESTION_GRAPH_NAMESPACE
    suffix = uuid.uuid4().hex[:6]
    with django_db_blocker.unblock():
        users = get_user_model().objects
        reader = users.create_user(f"search-reader-{suffix}", password="search-reader-pw")
        vault_reader = users.create_user(f"vault-reader-{suffix}", password="vault-reader-pw")
        team = Collection.objects.create(name=f"team-{suffix}")
        team.readers.add(reader)
        vault = Collection.objects.create(name=f"vault-{suffix}")
        vault.readers.add(vault_reader)
        ingest(
            team,
            {
                "resumes/alexis_torres.md": samples.ALEXIS_MD.encode(),
                "resumes/sarah_chen.txt": samples.SARAH_TXT.encode(),
                "resumes/james_smith.html": samples.JAMES_HTML.encode(),
                "policies/overtime.md": samples.POLICY_MD.encode(),
                "manual/crew_handbook.md": HANDBOOK_MD.encode(),
            },
        )
        ingest(vault, {"memos/board_memo.md": VAULT_MD})
        documents = {d.file_name: d for d in Document.objects.filter(collection__in=[team, vault])}
        assert len(documents) == 6, documents
        try:
            yield SearchCorpus(reader, vault_reader, team, vault, documents)
        finally:
            from ingestion.documents import delete_document

            for document in Document.objects.filter(collection__in=[team, vault]):
                delete_document(document)
            team.delete()
            vault.delete()
            reader.delete()
            vault_reader.delete()
            for label in ("Entity", "SectionType"):
                graph.run_write(
                    f"MATCH (n:{label}) WHERE n.id STARTS WITH $prefix DETACH DELETE n",
                    prefix=namespace,
                )
