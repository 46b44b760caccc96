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
    page: int | None  # the first page it is on (PDF), and the last
    page_end: int | None
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


class _Builder:
    """Walks the blocks once: headings open sections, text waits as units until the next
    heading packs the section into chunks."""

    def __init__(self, *, max_tokens: int, overlap: int) -> None:
        self.max_tokens = max_tokens
        self.overlap = overlap
        self.sections: list[SectionDraft] = []
        self.chunks: list[ChunkDraft] = []
        self.stack: list[SectionDraft] = []  # the open sections, outermost first
        self.units: list[_Unit] = []  # the current section's text, not yet packed
        self.images: list[ImageRef] = []  # pictures waiting for the next chunk

    def current(self) -> SectionDraft | None:
        return self.stack[-1] if self.stack else None

    def add(self, number: int, block: Block) -> None:
        if block.kind == "heading":
            self.open_section(block)
        elif block.kind == "image" and block.image is not None:
            self.add_image(number, block, block.image)
        elif block.text.strip():
            for piece in _split_long(block.text, self.max_tokens):
                self.units.append(_Unit(piece, count_tokens(piece), block.page, number))

    def open_section(self, block: Block) -> None:
        self.flush_section()
        while self.stack and self.stack[-1].level >= block.level:
            self.stack.pop()
        parent = self.current()
        label = f"Level {block.level}: {block.text}"
        section = SectionDraft(
            position=len(self.sections),
            name=block.text,
            level=block.level,
            path=f"{parent.path} > {label}" if parent else label,
            parent=parent.position if parent else None,
            parent_path=parent.path if parent else "",
        )
        self.sections.append(section)
        self.stack.append(section)

    def add_image(self, number: int, block: Block, image: ImageRef) -> None:
        self.images.append(image)
        if image.caption and not any(u.text == image.caption for u in self.units):
            text = f"[Image: {image.caption}]"
            self.units.append(_Unit(text, count_tokens(text), block.page, number))

    def flush_section(self) -> None:
        """Pack the pending units of the current section into chunks."""
        packed: list[_Unit] = []
        size = 0
        for unit in self.units:
            if packed and size + unit.tokens > self.max_tokens:
                self.emit(packed)
                packed = self.overlap_tail(packed)
                size = sum(u.tokens for u in packed)
            packed.append(unit)
            size += unit.tokens
        if packed and any(u.tokens for u in packed):
            self.emit(packed)
        self.units.clear()

    def overlap_tail(self, packed: list[_Unit]) -> list[_Unit]:
        """The last units of a chunk that fit in the overlap: the next chunk starts with them."""
        tail: list[_Unit] = []
        tail_size = 0
        for previous in reversed(packed):
            if tail_size + previous.tokens > self.overlap:
                break
            tail.insert(0, previous)
            tail_size += previous.tokens
        return tail

    def emit(self, section_units: list[_Unit]) -> None:
        section = self.current()
        text = _join(section_units)
        pages = [u.page for u in section_units if u.page is not None]
        chunk = ChunkDraft(
            index=len(self.chunks),
            text=text,
            token_count=count_tokens(text),
            header_text=section.name if section else "",
            header_path=section.path if section else "",
            header_level=section.level if section else 0,
            page=min(pages, default=None),
            page_end=max(pages, default=None),
            section=section.position if section else None,
            images=list(self.images),
        )
        self.images.clear()
        self.chunks.append(chunk)
        if section:
            section.chunk_indexes.append(chunk.index)
        for open_section in self.stack:
            if open_section.start_chunk_index is None:
                open_section.start_chunk_index = chunk.index
            open_section.end_chunk_index = chunk.index


def build_chunks(
    blocks: list[Block], *, max_tokens: int, overlap: int
) -> tuple[list[SectionDraft], list[ChunkDraft]]:
    builder = _Builder(max_tokens=max_tokens, overlap=overlap)
    for number, block in enumerate(blocks):
        builder.add(number, block)
    builder.flush_section()
    if builder.images and builder.chunks:
        builder.chunks[-1].images.extend(builder.images)
    return builder.sections, builder.chunks
