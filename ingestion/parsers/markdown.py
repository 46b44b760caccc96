import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

from .base import Block, ImageRef, ParsedDocument, clean_inline, image_from_reference

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")


def _inline_text(token: Token, images: list[ImageRef]) -> str:
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(
                _TAGS.sub("", child.content) if child.type == "html_inline" else child.content
            )
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" " if child.type == "softbreak" else "\n")
        elif child.type == "image":
            alt = "".join(grand.content for grand in child.children or [])
            title = str(child.attrGet("title") or "")
            images.append(image_from_reference(str(child.attrGet("src") or ""), title or alt))
    return "".join(parts)


class _Reader:
    """Walks markdown-it's flat token stream, keeping whether it is inside a heading or a
    table cell."""

    def __init__(self) -> None:
        self.doc = ParsedDocument()
        self.heading_level = 0
        self.row: list[str] = []
        self.in_cell = False

    def token(self, token: Token) -> None:
        kind = token.type
        if kind == "heading_open":
            self.heading_level = int(token.tag[1])
        elif kind == "heading_close":
            self.heading_level = 0
        elif kind == "tr_open":
            self.row = []
        elif kind in ("th_open", "td_open", "th_close", "td_close"):
            self.in_cell = kind.endswith("_open")
        elif kind == "tr_close":
            self.doc.blocks.append(Block("text", " | ".join(cell for cell in self.row if cell)))
        elif kind == "inline":
            self.inline(token)
        elif kind in ("fence", "code_block"):
            if token.content.strip():
                self.doc.blocks.append(Block("text", token.content.rstrip()))
        elif kind == "html_block":
            content = clean_inline(_TAGS.sub(" ", token.content))
            if content:
                self.doc.blocks.append(Block("text", content))

    def inline(self, token: Token) -> None:
        images: list[ImageRef] = []
        content = clean_inline(_inline_text(token, images))
        if self.in_cell:
            self.row.append(content)
        elif self.heading_level:
            if content:
                self.doc.blocks.append(Block("heading", content, level=self.heading_level))
                if self.heading_level == 1 and not self.doc.title:
                    self.doc.title = content
        elif content:
            self.doc.blocks.append(Block("text", content))
        for image in images:
            self.doc.blocks.append(Block("image", image.caption, image=image))


def parse_markdown(text: str) -> ParsedDocument:
    text = _FRONT_MATTER.sub("", text)
    reader = _Reader()
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        reader.token(token)
    return reader.doc
