import io
import re
import zipfile
from typing import TYPE_CHECKING, Any

from .base import Block, ImageRef, ParsedDocument, ParseError, clean_inline

if TYPE_CHECKING:
    from docx.document import Document
    from docx.table import Table
    from docx.text.paragraph import Paragraph

_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)
_CAPTION = re.compile(r"^(figure|fig\.|image|photo)\s*\d*[:.]?\s", re.IGNORECASE)
_BLIP = "{http://schemas.openxmlformats.org/drawingml/2006/main}blip"
_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"


def parse_docx(data: bytes) -> ParsedDocument:
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise ParseError(f"not a readable DOCX file ({exc})") from exc

    doc = ParsedDocument()
    # A "Title" paragraph sits above the headings, so Heading 1 becomes level 2 under it.
    has_title = any((p.style is not None and p.style.name == "Title") for p in document.paragraphs)
    shift = 1 if has_title else 0
    for element in document.element.body.iterchildren():
        tag = element.tag.rsplit("}", 1)[-1]
        if tag == "tbl":
            doc.blocks.extend(_table_rows(Table(element, document)))
        elif tag == "p":
            doc.blocks.extend(_images(element, document))
            _add_paragraph(doc, Paragraph(element, document), shift)
    if not doc.title:
        doc.title = clean_inline(document.core_properties.title or "")
    return doc


def _table_rows(table: "Table") -> list[Block]:
    """A row a block, its cells joined with bars."""
    rows = []
    for row in table.rows:
        cells: list[str] = []
        for cell in row.cells:
            text = clean_inline(cell.text)
            if text and (not cells or cells[-1] != text):  # merged cells repeat
                cells.append(text)
        if cells:
            rows.append(Block("text", " | ".join(cells)))
    return rows


def _images(element: Any, document: "Document") -> list[Block]:
    """The pictures inside a paragraph, with their bytes."""
    images = []
    for blip in element.iter(_BLIP):
        part = document.part.related_parts.get(blip.get(_EMBED) or "")
        if part is not None:
            name = str(part.partname).rsplit("/", 1)[-1]
            ref = ImageRef(source=name, data=part.blob, name=name)
            images.append(Block("image", "", image=ref))
    return images


def _add_paragraph(doc: ParsedDocument, paragraph: "Paragraph", shift: int) -> None:
    style = paragraph.style.name if paragraph.style is not None else ""
    text = clean_inline(paragraph.text)
    if not text:
        return
    heading = _HEADING_STYLE.match(style)
    if style == "Title":
        doc.blocks.append(Block("heading", text, level=1))
        doc.title = doc.title or text
    elif heading:
        doc.blocks.append(Block("heading", text, level=int(heading.group(1)) + shift))
    else:
        if style == "Caption" or _CAPTION.match(text):
            # A caption right under a picture names it.
            last = doc.blocks[-1] if doc.blocks else None
            if last is not None and last.image is not None and not last.image.caption:
                last.image.caption = text
                last.text = text
        doc.blocks.append(Block("text", text))
