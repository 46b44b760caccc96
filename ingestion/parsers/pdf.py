"""PDF text by line with its font size. Headings come from the outline when the file has
one, otherwise from layout: lines set larger than the body text, or short bold lines."""

import io
import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .base import Block, ImageRef, ParsedDocument, ParseError, clean_inline

log = logging.getLogger(__name__)

_CAPTION = re.compile(r"^(figure|fig\.|image|photo)\s*\d*[:.]?\s", re.IGNORECASE)
_BULLET = re.compile(r"^([-*\u2022\u25aa\u25cf]|\d+[.)])\s+")


@dataclass
class _Line:
    text: str = ""
    size: float = 0.0
    bold: bool = False
    y: float | None = None
    gap_before: float = 0.0
    sizes: Counter[float] = field(default_factory=Counter)


def _page_lines(page: Any) -> list[_Line]:
    lines: list[_Line] = [_Line()]

    def new_line(y: float | None) -> None:
        previous = lines[-1]
        if previous.text.strip():
            gap = (previous.y - y) if (previous.y is not None and y is not None) else 0.0
            lines.append(_Line(y=y, gap_before=gap))
        else:
            previous.y = previous.y if y is None else y

    def visit(text: str, cm: list[float], tm: list[float], font: Any, font_size: float) -> None:
        if not text:
            return
        scale = abs(tm[3] or 1.0) * abs(cm[3] or 1.0)
        size = round(float(font_size) * scale, 1)
        name = str(font.get("/BaseFont", "")) if font else ""
        y = tm[5] * abs(cm[3] or 1.0) + cm[5] if tm[5] else None
        current = lines[-1]
        if (
            y is not None
            and current.y is not None
            and abs(current.y - y) > 1
            and current.text.strip()
        ):
            new_line(y)
        for i, piece in enumerate(text.split("\n")):
            if i:
                new_line(None)
            if piece.strip():
                line = lines[-1]
                if line.y is None:
                    line.y = y
                line.text += piece
                line.sizes[size] += len(piece.strip())
                line.bold = line.bold or "bold" in name.lower() or "black" in name.lower()

    page.extract_text(visitor_text=visit)
    result = []
    for line in lines:
        line.text = clean_inline(line.text)
        if line.text:
            line.size = line.sizes.most_common(1)[0][0]
            result.append(line)
    return result


_OutlineEntry = tuple[str, int, int]  # title, level, page index


def _outline(reader: Any) -> list[_OutlineEntry]:
    """(title, level, page index) for every outline entry, in order."""
    entries: list[_OutlineEntry] = []

    def walk(items: list[Any], level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)
            except Exception:
                log.debug("outline entry without a page skipped", exc_info=True)
                continue
            title = clean_inline(str(item.title or ""))
            if title and page is not None and page >= 0:
                entries.append((title, level, page))

    try:
        walk(reader.outline, 1)
    except Exception:
        return []
    return entries


def _norm(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().lower()


def parse_pdf(data: bytes) -> ParsedDocument:
    reader, pages = _read(data)
    headings = _Headings(pages, _outline(reader))
    doc = ParsedDocument(page_count=len(pages))
    for page_index, (lines, page) in enumerate(pages):
        doc.blocks.extend(_page_blocks(headings, lines, page, page_index))
    doc.title = next((b.text for b in doc.blocks if b.kind == "heading" and b.level == 1), "")
    if not doc.title:
        meta = reader.metadata
        doc.title = clean_inline(str(meta.title)) if meta and meta.title else ""
    return doc


def _read(data: bytes) -> tuple[Any, list[tuple[list[_Line], Any]]]:
    """The reader, and each page's lines with the page."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    if not data.lstrip().startswith(b"%PDF"):
        raise ParseError("not a PDF file (it does not start with %PDF)")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ParseError("the PDF is password-protected")
        pages = [(_page_lines(page), page) for page in reader.pages]
    except ParseError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise ParseError(f"corrupt or unreadable PDF ({exc})") from exc
    return reader, pages


class _Headings:
    """Which lines are headings, and of what level: the outline's entries where the file
    has an outline, otherwise lines set larger than the body text or short and bold."""

    def __init__(self, pages: list[tuple[list[_Line], Any]], outline: list[_OutlineEntry]):
        self.outline = outline
        self.pending = list(outline)  # entries not yet placed on a line
        sizes: Counter[float] = Counter()
        for lines, _ in pages:
            for line in lines:
                sizes.update(line.sizes)
        if not sizes:
            raise ParseError("no extractable text in the PDF (is it a scan?)")
        self.body = sizes.most_common(1)[0][0]
        self.heading_sizes = sorted(
            {ln.size for ls, _ in pages for ln in ls if ln.size > self.body * 1.15}, reverse=True
        )
        # Sizes of lines the outline names tell the level of the headings it leaves out.
        outline_titles = {(_norm(title), page): level for title, level, page in outline}
        self.size_levels: dict[float, int] = {}
        for page_index, (lines, _) in enumerate(pages):
            for line in lines:
                level = outline_titles.get((_norm(line.text), page_index))
                if level:
                    self.size_levels.setdefault(line.size, level)

    def on_page(self, page_index: int) -> list[_OutlineEntry]:
        return [e for e in self.pending if e[2] == page_index]

    def level(self, line: _Line, page_outline: list[_OutlineEntry]) -> int:
        """0 for a line that is not a heading. An outline entry is placed at the line
        that carries its title on its page."""
        if not self.outline:
            return self.layout_level(line)
        match = next((e for e in page_outline if _norm(e[0]) == _norm(line.text)), None)
        if match:
            page_outline.remove(match)
            self.pending.remove(match)
            return match[1]
        if self.layout_level(line):
            return self.size_levels.get(line.size, 0)
        return 0

    def layout_level(self, line: _Line) -> int:
        short = len(line.text) <= 90 and not line.text.endswith((".", ",", ";"))
        if not short or _BULLET.match(line.text):
            return 0
        if line.size in self.heading_sizes:
            return self.heading_sizes.index(line.size) + 1
        if line.bold and line.size >= self.body and len(line.text.split()) <= 10:
            return len(self.heading_sizes) + 1
        return 0


def _page_blocks(
    headings: _Headings, lines: list[_Line], page: Any, page_index: int
) -> list[Block]:
    number = page_index + 1
    paragraph: list[str] = []
    blocks: list[Block] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Block("text", " ".join(paragraph), page=number))
            paragraph.clear()

    page_outline = headings.on_page(page_index)
    for line in lines:
        level = headings.level(line, page_outline)
        if level:
            flush()
            blocks.append(Block("heading", line.text, level=level, page=number))
            continue
        if (
            _BULLET.match(line.text)
            or _CAPTION.match(line.text)
            or line.gap_before > line.size * 1.9
        ):
            flush()  # a bullet, a caption or a gap starts a paragraph
        paragraph.append(line.text)
    flush()
    # Titles of the outline that were not found as a line still open a section.
    for title, level, _ in page_outline:
        headings.pending.remove((title, level, page_index))
        blocks.insert(0, Block("heading", title, level=level, page=number))
    _place_images(blocks, page, number)
    return blocks


def _place_images(blocks: list[Block], page: Any, number: int) -> None:
    """Each picture after its caption (in order), or at the end of the page."""
    captions = [b.text for b in blocks if b.kind == "text" and _CAPTION.match(b.text)]
    try:
        images = list(page.images)
    except Exception:
        images = []
    for i, image in enumerate(images):
        caption = captions[i] if i < len(captions) else ""
        ref = ImageRef(source=image.name, caption=caption, data=image.data, name=image.name)
        at = next(
            (k for k, b in enumerate(blocks) if caption and b.text == caption),
            len(blocks) - 1,
        )
        blocks.insert(at + 1, Block("image", caption, page=number, image=ref))
