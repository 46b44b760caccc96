"""Files to a flat list of blocks (headings, text, images) in reading order.

Each format module turns bytes into a `ParsedDocument`; `chunking` builds the header tree
from the headings. A file that cannot be read raises `ParseError` with a message meant for
the person who sent it.
"""

from pathlib import PurePath

from .base import Block, ImageRef, ParsedDocument, ParseError, decode_text

SUPPORTED = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".docx": "docx",
}


def detect_format(file_name: str) -> str:
    suffix = PurePath(file_name).suffix.lower()
    if suffix not in SUPPORTED:
        known = ", ".join(sorted(SUPPORTED))
        raise ParseError(f"unsupported file type {suffix or '(none)'!r}: expected one of {known}")
    return SUPPORTED[suffix]


def parse_bytes(data: bytes, *, file_name: str) -> ParsedDocument:
    kind = detect_format(file_name)
    if not data.strip():
        raise ParseError("the file is empty")
    if kind == "markdown":
        from .markdown import parse_markdown

        parsed = parse_markdown(decode_text(data))
    elif kind == "text":
        from .text import parse_text

        parsed = parse_text(decode_text(data))
    elif kind == "html":
        from .html import parse_html

        parsed = parse_html(decode_text(data, html=True))
    elif kind == "pdf":
        from .pdf import parse_pdf

        parsed = parse_pdf(data)
    else:
        from .docx import parse_docx

        parsed = parse_docx(data)
    parsed.format = kind
    if not any(block.kind == "text" and block.text.strip() for block in parsed.blocks):
        raise ParseError("no text found in the file")
    if not parsed.title:
        parsed.title = PurePath(file_name).stem.replace("_", " ").replace("-", " ").strip()
    return parsed


__all__ = [
    "SUPPORTED",
    "Block",
    "ImageRef",
    "ParseError",
    "ParsedDocument",
    "detect_format",
    "parse_bytes",
]
