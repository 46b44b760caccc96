"""What a declined question is told besides the reason: what the agent did understand
(the words its vocabulary explained, and what they mean), the words it could not place,
and the terms it knows that come closest to those, so the asker can rephrase."""

import difflib
from dataclasses import dataclass, field

from .question_terms import QuestionTerms
from .vocabulary import Entry, Vocabulary

NEARBY_PER_WORD = 3
SIMILARITY = 0.75  # difflib's ratio: "technitian" ~ "technician", "wifi" !~ "workflow"


@dataclass(frozen=True)
class DeclineNotes:
    understood: list[str] = field(default_factory=list)  # "work orders (the workOrder table)"
    unknown: list[str] = field(default_factory=list)  # words nothing explained
    nearby: list[str] = field(default_factory=list)  # known terms close to those words


def decline_notes(terms: QuestionTerms, vocabulary: Vocabulary) -> DeclineNotes:
    understood = [f"{m.text} ({_meaning(m.best)})" for m in terms.mentions]
    nearby: list[str] = []
    for word in terms.unknown:
        nearby += [m for m in spelled_like(word, vocabulary) if m not in nearby]
    return DeclineNotes(understood, list(dict.fromkeys(terms.unknown)), nearby)


def spelled_like(word: str, vocabulary: Vocabulary) -> list[str]:
    """The terms, tables and columns spelled most like `word` ("technitian": technician)."""
    known = [key for key, entries in vocabulary.entries.items() if _nameable(entries)]
    found = difflib.get_close_matches(word, known, n=NEARBY_PER_WORD + 1, cutoff=SIMILARITY)
    return [m for m in found if m != word][:NEARBY_PER_WORD]


def _nameable(entries: tuple[Entry, ...]) -> bool:
    """Terms, tables and columns: the words a person may ask with (not cell values)."""
    return any(e.kind in ("term", "table", "column", "role", "group") for e in entries)


def _meaning(entry: Entry) -> str:
    if entry.kind == "value":
        return f"a {entry.column} of {entry.table}" if entry.column else "a value"
    if entry.kind == "column":
        return f"{entry.table}.{entry.column}"
    if entry.kind == "table":
        return f"the {entry.table} table"
    if entry.kind == "term" and entry.term is not None:
        return f"the term {entry.term.name!r}"
    return entry.kind
