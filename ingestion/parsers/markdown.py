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


def parse_markdown(text: str) -> ParsedDocument:
    text = _FRONT_MATTER.sub("", text)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    doc = ParsedDocument()
    heading_level = 0
    row: list[str] = []
    in_cell = False
    for token in tokens:
        if token.type == "heading_open":
            heading_level = int(token.tag[1])
        elif token.type == "heading_close":
            heading_level = 0
        elif token.type in ("tr_open",):
            row = []
        elif token.type in ("th_open", "td_open"):
            in_cell = True
        elif token.type in ("th_close", "td_close"):
            in_cell = False
        elif token.type == "tr_close":
            doc.blocks.append(Block("text", " | ".join(cell for cell in row if cell)))
        elif token.type == "inline":
            images: list[ImageRef] = []
            content = clean_inline(_inline_text(token, images))
            if in_cell:
                row.append(content)
            elif heading_level:
                if content:
                    doc.blocks.append(Block("heading", content, level=heading_level))
                    if heading_level == 1 and not doc.title:
                        doc.title = content
            elif content:
                doc.blocks.append(Block("text", content))
            for image in images:
                doc.blocks.append(Block("image", image.caption, image=image))
        elif token.type in ("fence", "code_block"):
            if token.content.strip():
                doc.blocks.append(Block("text", token.content.rstrip()))
        elif token.type == "html_block":
            content = clean_inline(_TAGS.sub(" ", token.content))
            if content:
                doc.blocks.append(Block("text", content))
    return doc
