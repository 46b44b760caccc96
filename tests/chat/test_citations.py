"""Citations that say where: a PDF chunk knows the pages it runs over and its source opens
the original file at the first; other formats cite their nearest heading, which the
document page carries as an anchor."""

import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse

from chat.orchestrator.tools.documents import sources_from_chunks
from ingestion.documents import delete_document
from ingestion.models import Chunk, Collection, Document

from ..conftest import delete_namespaced_graph_nodes
from ..ingestion.helpers import ingest
from .chat_fixtures import alice, bob
from .test_views import logged_in

__all__ = ["alice", "bob"]

pytestmark = pytest.mark.django_db

SENTENCE = "The lift plan names the crane, the load, the rigging and the exclusion zone. "
HANDBOOK_HTML = b"""<html><body><h1>Yard Handbook</h1>
<h2>Gate Hours</h2><p>The gate opens at six and closes at eight.</p>
<h2>Visitor Badges</h2><p>Visitors wear a red badge and stay with their host.</p>
</body></html>"""


def lift_plan_pdf() -> bytes:
    """Three pages: "Lift Plans" runs from the first page onto the second, "Closing" is on
    the third."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 10, "Lift Plans", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, SENTENCE * 2, new_x="LMARGIN", new_y="NEXT")
    pdf.add_page()
    pdf.multi_cell(0, 6, "Continued: the plan is signed before the first lift.")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 10, "Closing", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, "Keys are returned to the office at the end of the day.")
    return bytes(pdf.output())


@pytest.fixture
def handbooks(alice: User) -> Iterator[dict[str, Document]]:
    collection = Collection.objects.create(name=f"citations-{uuid.uuid4().hex[:6]}")
    collection.readers.add(alice)
    job = ingest(collection, {"lift_plans.pdf": lift_plan_pdf(), "yard.html": HANDBOOK_HTML})
    assert job.status == "done", job.error
    yield {d.file_name: d for d in Document.objects.filter(collection=collection)}
    for document in Document.objects.filter(collection=collection):
        delete_document(document)
    delete_namespaced_graph_nodes(settings.INGESTION_GRAPH_NAMESPACE)


def test_a_pdf_chunk_cites_its_pages_and_opens_the_file_at_the_first(
    alice: User, bob: User, handbooks: dict[str, Document]
) -> None:
    pdf = handbooks["lift_plans.pdf"]
    chunks = list(Chunk.objects.filter(document=pdf).order_by("index"))
    spanning = next(c for c in chunks if "Continued" in c.text)
    closing = next(c for c in chunks if "Keys are returned" in c.text)
    assert (spanning.page, spanning.page_end) == (1, 2)
    assert (closing.page, closing.page_end) == (3, 3)

    sources = sources_from_chunks(
        [str(spanning.pk), str(closing.pk)], collection_ids=[pdf.collection_id]
    )
    assert [(s["page"], s["page_end"]) for s in sources] == [(1, 2), (3, 3)]
    assert sources[0]["url"] == f"/documents/{pdf.pk}/file#page=1"
    assert sources[1]["url"] == f"/documents/{pdf.pk}/file#page=3"
    assert sources[0]["text_url"] == f"/documents/{pdf.pk}/#chunk-{spanning.index}"
    assert sources[0]["anchor"] == ""  # a PDF is cited by its pages

    # The original, inline for the PDF viewer, to readers only.
    url = reverse("chat:document_file", args=[pdf.pk])
    response = logged_in(alice).get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("inline")
    assert response["Content-Security-Policy"] == "sandbox"
    assert b"".join(response.streaming_content)[:5] == b"%PDF-"  # type: ignore[attr-defined]
    assert logged_in(bob).get(url).status_code == 404

    # The document page links each chunk's pages into the file.
    page = logged_in(alice).get(reverse("chat:document", args=[pdf.pk])).content.decode()
    assert f'href="/documents/{pdf.pk}/file#page=1">pages 1\u20132</a>' in page
    assert f'href="/documents/{pdf.pk}/file#page=3">page 3</a>' in page


def test_an_html_chunk_cites_its_heading_and_the_page_has_its_anchor(
    alice: User, handbooks: dict[str, Document]
) -> None:
    html = handbooks["yard.html"]
    badges = Chunk.objects.get(document=html, text__contains="red badge")
    (source,) = sources_from_chunks([str(badges.pk)], collection_ids=[html.collection_id])
    assert source["page"] is None and source["page_end"] is None
    assert source["heading"] == "Visitor Badges" and source["anchor"] == "visitor-badges"
    assert source["url"] == f"/documents/{html.pk}/#chunk-{badges.index}"

    page = logged_in(alice).get(reverse("chat:document", args=[html.pk])).content.decode()
    assert page.index('id="visitor-badges"') < page.index(f'id="chunk-{badges.index}"')
    # Anything but a PDF downloads: an uploaded page never runs as this site.
    response = logged_in(alice).get(reverse("chat:document_file", args=[html.pk]))
    assert response["Content-Disposition"].startswith("attachment")
    assert response["Content-Type"] == "application/octet-stream"
