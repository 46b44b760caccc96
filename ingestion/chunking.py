"""The header tree and the chunks: each section's text is cut within a token budget, with
a little overlap between neighbouring chunks of the same section."""

import re
from dataclasses import dataclass, field

from .parsers import Block, ImageRef

_TOKEN = re.compile(r"\w+|[^\w\s]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")


def count_tokens(text: str) -> int:
    """Words and punctuation marks: close to a sub-word count for English, and the same for
    every embedding backend."""
    return len(_TOKEN.findall(text))


def normalize_name(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@dataclass
class SectionDraft:
    position: int
    name: str
    level: int
    path: str
    parent: int | None  # position of the parent section
    parent_path: str
    chunk_indexes: list[int] = field(default_factory=list)
    start_chunk_index: int | None = None  # over the section and its subsections
    end_chunk_index: int | None = None


@dataclass
class ChunkDraft:
    index: int
    text: str
    token_count: int
    header_text: str
    header_path: str
    header_level: int
    page: int | None
    section: int | None  # position of the deepest section it is in
    images: list[ImageRef] = field(default_factory=list)

    def embedding_input(self) -> str:
        # The heading travels with the text so that "Skills: Python, Go" embeds as skills.
        return f"{self.header_text}\n{self.text}" if self.header_text else self.text


@dataclass
class _Unit:
    text: str
    tokens: int
    page: int | None
    block: int  # sentences of one block are joined by spaces, blocks by line breaks


def _split_long(text: str, budget: int) -> list[str]:
    """Sentences, and word windows for a sentence that alone is over the budget."""
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(text):
        if count_tokens(sentence) <= budget:
            pieces.append(sentence)
            continue
        words = sentence.split()
        window: list[str] = []
        for word in words:
            if window and count_tokens(" ".join([*window, word])) > budget:
                pieces.append(" ".join(window))
                window = []
            window.append(word)
        if window:
            pieces.append(" ".join(window))
    return [p for p in pieces if p.strip()]


def _join(units: list[_Unit]) -> str:
    text = ""
    for i, unit in enumerate(units):
        if i:
            text += " " if unit.block == units[i - 1].block else "\n"
        text += unit.text
    return text


def build_chunks(
    blocks: list[Block], *, max_tokens: int, overlap: int
) -> tuple[list[SectionDraft], list[ChunkDraft]]:
    sections: list[SectionDraft] = []
    chunks: list[ChunkDraft] = []
    stack: list[SectionDraft] = []
    units: list[_Unit] = []
    images: list[ImageRef] = []

    def current() -> SectionDraft | None:
        return stack[-1] if stack else None

    def emit(section_units: list[_Unit]) -> None:
        section = current()
        text = _join(section_units)
        chunk = ChunkDraft(
            index=len(chunks),
            text=text,
            token_count=count_tokens(text),
            header_text=section.name if section else "",
            header_path=section.path if section else "",
            header_level=section.level if section else 0,
            page=next((u.page for u in section_units if u.page is not None), None),
            section=section.position if section else None,
            images=list(images),
        )
        images.clear()
        chunks.append(chunk)
        if section:
            section.chunk_indexes.append(chunk.index)
        for open_section in stack:
            if open_section.start_chunk_index is None:
                open_section.start_chunk_index = chunk.index
            open_section.end_chunk_index = chunk.index

    def flush_section() -> None:
        """Pack the pending units of the current section into chunks."""
        packed: list[_Unit] = []
        size = 0
        for unit in units:
            if packed and size + unit.tokens > max_tokens:
                emit(packed)
                tail: list[_Unit] = []
                tail_size = 0
                for previous in reversed(packed):
                    if tail_size + previous.tokens > overlap:
                        break
                    tail.insert(0, previous)
                    tail_size += previous.tokens
                packed, size = tail, tail_size
            packed.append(unit)
            size += unit.tokens
        if packed and any(u.tokens for u in packed):
            emit(packed)
        units.clear()

    for number, block in enumerate(blocks):
        if block.kind == "heading":
            flush_section()
            while stack and stack[-1].level >= block.level:
                stack.pop()
            parent = current()
            label = f"Level {block.level}: {block.text}"
            section = SectionDraft(
                position=len(sections),
                name=block.text,
                level=block.level,
                path=f"{parent.path} > {label}" if parent else label,
                parent=parent.position if parent else None,
                parent_path=parent.path if parent else "",
            )
            sections.append(section)
            stack.append(section)
        elif block.kind == "image" and block.image is not None:
            images.append(block.image)
            if block.image.caption and not any(u.text == block.image.caption for u in units):
                text = f"[Image: {block.image.caption}]"
                units.append(_Unit(text, count_tokens(text), block.page, number))
        elif block.text.strip():
            for piece in _split_long(block.text, max_tokens):
                units.append(_Unit(piece, count_tokens(piece), block.page, number))
    flush_section()
    if images and chunks:
        chunks[-1].images.extend(images)
    return sections, chunks
