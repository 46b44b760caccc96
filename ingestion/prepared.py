"""A file read and cut into sections and chunks, then filled in by the later stages."""

from dataclasses import dataclass, field

from django.conf import settings

from .chunking import ChunkDraft, SectionDraft, build_chunks
from .entities import Extraction
from .parsers import ParsedDocument, ParseError, parse_bytes


@dataclass
class Prepared:
    parsed: ParsedDocument
    sections: list[SectionDraft]
    chunks: list[ChunkDraft]
    chunk_vectors: list[list[float]] = field(default_factory=list)
    section_vectors: list[list[float]] = field(default_factory=list)
    extraction: Extraction = field(default_factory=lambda: Extraction(source=""))
    keywords: list[list[str]] = field(default_factory=list)
    # Per chunk: (embedding input, vector) of each sentence answers may quote.
    sentences: list[list[tuple[str, list[float]]]] = field(default_factory=list)


def prepare(data: bytes, *, file_name: str) -> Prepared:
    parsed = parse_bytes(data, file_name=file_name)
    sections, chunks = build_chunks(
        parsed.blocks,
        max_tokens=settings.INGESTION_CHUNK_TOKENS,
        overlap=settings.INGESTION_CHUNK_OVERLAP,
    )
    if not chunks:
        raise ParseError("no text found in the file")
    return Prepared(parsed, sections, chunks)
