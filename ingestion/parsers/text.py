"""Plain text has no markup, so headings are guessed from layout: an underlined line, a
short line in capitals, or a short line ending in a colon, each standing alone."""

import re

from .base import Block, ParsedDocument, clean_inline

_UNDERLINE = re.compile(r"^(=+|-+)\s*$")
_BULLET = re.compile(r"^\s*([-*\u2022]|\d+[.)])\s+")


def _looks_like_heading(line: str) -> bool:
    words = line.split()
    if not words or len(words) > 8 or len(line) > 70:
        return False
    if line.rstrip().endswith((".", ",", ";")) or _BULLET.match(line):
        return False
    letters = [c for c in line if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 2:
        return True
    return line.rstrip().endswith(":") and len(words) <= 5


def parse_text(text: str) -> ParsedDocument:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    doc = ParsedDocument()
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            doc.blocks.append(Block("text", clean_inline(" ".join(paragraph))))
            paragraph.clear()

    first_content = True
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        following = lines[i + 1].strip() if i + 1 < len(lines) else ""
        previous_blank = i == 0 or not lines[i - 1].strip()
        if not line:
            flush()
        elif following and _UNDERLINE.match(following) and len(line) <= 70:
            flush()
            level = 1 if following.startswith("=") else 2
            doc.blocks.append(Block("heading", line, level=level))
            i += 1
        elif first_content and len(line) <= 70 and (not following or _looks_like_heading(line)):
            # A short first line standing alone is the document's title.
            doc.blocks.append(Block("heading", line, level=1))
            doc.title = line
        elif previous_blank and _looks_like_heading(line):
            flush()
            doc.blocks.append(Block("heading", line.rstrip(":").strip(), level=2))
        elif _BULLET.match(line):
            flush()
            paragraph.append(line)
            flush()
        else:
            paragraph.append(line)
        if line:
            first_content = False
        i += 1
    flush()
    if not doc.title:
        doc.title = next((b.text for b in doc.blocks if b.kind == "heading"), "")
    return doc
