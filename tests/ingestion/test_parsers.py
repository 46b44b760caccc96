from itertools import pairwise

import pytest

from ingestion.chunking import build_chunks, count_tokens
from ingestion.parsers import ParseError, parse_bytes

from . import samples


def headings(data: bytes, name: str) -> list[tuple[int, str]]:
    return [
        (b.level, b.text) for b in parse_bytes(data, file_name=name).blocks if b.kind == "heading"
    ]


def test_markdown_headings_images_and_title() -> None:
    parsed = parse_bytes(samples.ALEXIS_MD.encode(), file_name="alexis.md")

    assert parsed.title == "Alexis Torres"
    assert (2, "Technical Expertise") in headings(samples.ALEXIS_MD.encode(), "a.md")
    images = [b.image for b in parsed.blocks if b.image]
    assert [(i.source, i.caption) for i in images] == [("arch.png", "Billing architecture")]


def test_plain_text_headings_are_guessed_from_layout() -> None:
    found = headings(samples.SARAH_TXT.encode(), "sarah.txt")

    assert found[0] == (1, "SARAH CHEN")
    assert [text for _, text in found[1:]] == [
        "SUMMARY",
        "CORE COMPETENCIES",
        "EXPERIENCE",
        "EDUCATION",
    ]


def test_html_headings_and_figure_caption() -> None:
    parsed = parse_bytes(samples.JAMES_HTML.encode(), file_name="james.html")

    assert [(b.level, b.text) for b in parsed.blocks if b.kind == "heading"][:3] == [
        (1, "James Smith"),
        (2, "Skills"),
        (2, "Experience"),
    ]
    image = next(b.image for b in parsed.blocks if b.image)
    assert image.caption == "Figure 1: Deployment pipeline"


def test_docx_heading_styles_sit_under_the_title_and_pictures_are_kept() -> None:
    parsed = parse_bytes(samples.docx_resume(), file_name="priya.docx")

    found = [(b.level, b.text) for b in parsed.blocks if b.kind == "heading"]
    assert found == [
        (1, "Priya Raman"),
        (2, "Core Competencies"),
        (2, "Experience"),
        (3, "TechCorp \u2013 Data Scientist"),
    ]
    image = next(b.image for b in parsed.blocks if b.image)
    assert image.data and image.data.startswith(b"\x89PNG")
    assert image.caption == "Figure 2: Forecast accuracy"
    assert any(b.text == "Year | 2021" for b in parsed.blocks)


@pytest.mark.parametrize("outline", [True, False])
def test_pdf_headings_from_outline_or_layout_with_pages(outline: bool) -> None:
    parsed = parse_bytes(samples.pdf_manual(outline=outline), file_name="manual.pdf")

    found = [(b.level, b.text, b.page) for b in parsed.blocks if b.kind == "heading"]
    assert found == [
        (1, "Field Service User Manual", 1),
        (2, "Work Orders", 1),
        (2, "Inspections", 2),
    ]
    assert parsed.page_count == 2
    image = next(b for b in parsed.blocks if b.image)
    assert image.page == 1 and image.image and image.image.caption.startswith("Figure 3")


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (b"%PDF-1.7\n garbage", "broken.pdf", "corrupt or unreadable PDF"),
        (b"not a pdf at all", "fake.pdf", "not a PDF file"),
        (b"PK\x03\x04 nope", "broken.docx", "not a readable DOCX file"),
        (b"hello", "notes.xyz", "unsupported file type '.xyz'"),
        (b"   \n ", "empty.md", "the file is empty"),
        ("café".encode("latin-1"), "latin.txt", "not valid UTF-8"),
        (b"<html><body><script>x()</script></body></html>", "blank.html", "no text found"),
    ],
)
def test_bad_input_fails_with_a_clear_message(data: bytes, name: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_bytes(data, file_name=name)


def test_chunks_keep_header_path_stay_in_budget_and_overlap() -> None:
    text = "# Guide\n\n## Long Section\n\n" + " ".join(
        f"Sentence number {i} explains one more step of the procedure." for i in range(40)
    )
    parsed = parse_bytes(text.encode(), file_name="guide.md")

    sections, chunks = build_chunks(parsed.blocks, max_tokens=60, overlap=15)

    assert [s.path for s in sections] == [
        "Level 1: Guide",
        "Level 1: Guide > Level 2: Long Section",
    ]
    assert len(chunks) > 5
    assert all(c.header_path == "Level 1: Guide > Level 2: Long Section" for c in chunks)
    assert all(c.header_level == 2 and c.header_text == "Long Section" for c in chunks)
    assert all(count_tokens(c.text) <= 60 for c in chunks)
    for before, after in pairwise(chunks):
        last_sentence = before.text.split(". ")[-1]
        assert last_sentence in after.text  # the overlap carries the last sentence over
    assert sections[0].start_chunk_index == 0 and sections[0].end_chunk_index == len(chunks) - 1
    assert sections[1].chunk_indexes == [c.index for c in chunks]
