"""The documents named after a person: by a title that opens with the whole name or a file
name that closes with it, among the collections asked about only, and current as documents
come and go in any process (the index is kept per process)."""

import uuid

import pytest

from ingestion.documents import delete_document
from ingestion.models import Collection, Document
from retrieval.named_documents import NamedDocuments

from ..ingestion.helpers import ingest

pytestmark = pytest.mark.django_db

NAME = ["orla", "brannigan"]


def _file_names(found: dict[str, str]) -> set[str]:
    return set(Document.objects.filter(pk__in=found).values_list("file_name", flat=True))


def test_title_or_file_name_names_the_person_and_the_index_follows_changes() -> None:
    suffix = uuid.uuid4().hex[:8]
    staff = Collection.objects.create(name=f"staff-{suffix}")
    elsewhere = Collection.objects.create(name=f"elsewhere-{suffix}")
    ingest(
        staff,
        {
            "notes.txt": b"ORLA BRANNIGAN - Resume\n\nForklift certified, night shifts.\n",
            "orla-brannigan.md": b"# Work history\n\nShift lead at the Tulsa depot.\n",
            "rota.txt": b"Weekly rota\n\nOrla Brannigan covers Tuesday; Dev Olsen Friday.\n",
            "orla_brannigan_smith.txt": b"Contacts\n\nA different person altogether.\n",
            "brannigan_orla.txt": b"Payroll\n\nThe names in the wrong order.\n",
        },
    )
    ingest(elsewhere, {"orla_brannigan.txt": b"Another collection\n\nNot readable here.\n"})

    found = NamedDocuments([staff.pk]).named_after(NAME)
    assert _file_names(found) == {"notes.txt", "orla-brannigan.md"}
    assert sorted(found.values()) == list(found.values())  # by path
    # A name that only opens a longer word is not the name.
    assert NamedDocuments([staff.pk]).named_after(["orl", "brannigan"]) == {}

    ingest(staff, {"Resume - Orla Brannigan.txt": b"Skills\n\nRigging, first aid.\n"})
    named_now = _file_names(NamedDocuments([staff.pk]).named_after(NAME))
    assert named_now == {"notes.txt", "orla-brannigan.md", "Resume - Orla Brannigan.txt"}

    delete_document(Document.objects.get(collection=staff, file_name="notes.txt"))
    after = _file_names(NamedDocuments([staff.pk, elsewhere.pk]).named_after(NAME))
    assert after == {"orla-brannigan.md", "Resume - Orla Brannigan.txt", "orla_brannigan.txt"}
