"""Extractive answers: the sentences of the retrieved chunks that answer the question.

The sentences (and multi-word headings) of the best chunks are scored in two passes. A
cheap one ranks them all:

    cheap = 0.30 x keyword coverage  (the question's terms in the sentence; a term found
                                      only in the chunk's file name or section path counts
                                      half: it says which document, not what the answer is)
          + 0.15 x chunk prior       (the chunk's hybrid score / the best chunk's)
          + 0.10 x answer type       (a "when" question and a date, "how many" and a number)

and the best 8 of them get the vector part (a sentence embedding is the costly step on a
CPU; on the demo set, embedding 8 rather than 16 or all loses nothing):

    score = 0.45 x cosine(question, section name + sentence) + cheap

The best few sentences above a floor are kept and shown grouped by document, in document
order within each. The section name goes into the embedding because a line such as
"Python, Go, Kubernetes" says "skills" only through its heading. A search routed to a
section ("Alexis skills section only") is answered with that section's lines.
"""

import re
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any

from core.providers.embeddings import embed_texts
from retrieval.search.query_terms import query_keywords

VECTOR_WEIGHT = 0.45
KEYWORD_WEIGHT = 0.30
PRIOR_WEIGHT = 0.15
TYPE_WEIGHT = 0.10
FLOOR = 0.38  # below it, no sentence answers the question
RELATIVE_FLOOR = 0.80  # kept sentences score at least this share of the best one
MAX_SENTENCES = 4
CHUNKS_READ = 6  # the best chunks whose sentences compete
EMBEDDED = 8  # sentences embedded per question, the best by the cheap score
SECTION_LINES = 10  # lines quoted when the search routed to a section
MIN_WORDS = 3
LIST_ITEMS = 12  # list items a line ending in ":" takes at most
LIST_ITEM_WORDS = 8  # longer lines without a bullet are not list items
MAX_SENTENCE_CHARS = 420

_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "dr", "mr", "mrs", "ms", "st", "inc", "co", "corp", "ltd",
     "jr", "sr", "no", "fig", "approx", "dept", "est"}
)  # fmt: skip
_BULLET = re.compile(r"^\s*(?:[-*•▪◦·]|\d{1,2}[.)])\s+")
_BOUNDARY = re.compile(r"[.!?][\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#.\-]*")
_INITIALS = re.compile(r"(?:[a-z]\.)*[a-z]\.?")
_PAGE_FOOTER = re.compile(r"\bpage \d+ (?:of|/) \d+\s*$", re.IGNORECASE)
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
_DATE = re.compile(rf"\b(?:(?:19|20)\d\d|(?:{_MONTHS})[a-z]*\.? \d{{1,2}})\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b")
# What kind of words answer a question, by how it starts.
ANSWER_TYPES = (
    (re.compile(r"^\s*(?:when|since when|what year|which year|what date)\b", re.I), _DATE),
    (re.compile(r"^\s*(?:how (?:many|much|long|often|old|far)|what percent)", re.I), _NUMBER),
)


@dataclass
class Sentence:
    text: str
    result: int  # index of its search result
    position: int  # order within its chunk
    score: float = 0.0
    vector: float = 0.0
    coverage: float = 0.0


def _lines(text: str) -> list[str]:
    """The text's lines without markup; a line ending in ":" takes the list items that
    follow it ("wears at all times: Hard hat; Safety glasses; Gloves."), which alone would
    be too short to quote. An item is a bulleted line or a short one that is no sentence."""
    lines: list[tuple[str, bool]] = []
    for raw in text.splitlines():
        line = _BULLET.sub("", raw.strip())
        if not line or line.startswith(("#", "![", "|---", "```")) or _PAGE_FOOTER.search(line):
            continue
        lines.append((line, line != raw.strip()))
    merged: list[str] = []
    i = 0
    while i < len(lines):
        line, items = lines[i][0], []
        if line.endswith(":"):
            for following, bulleted in lines[i + 1 : i + 1 + LIST_ITEMS]:
                short = len(_WORD.findall(following)) <= LIST_ITEM_WORDS
                if following.endswith(":") or not (
                    bulleted or (short and not following.endswith((".", "!", "?")))
                ):
                    break
                items.append(following.rstrip(".;,"))
        if items:
            merged.append(f"{line} {'; '.join(items)}.")
            i += 1 + len(items)
        else:
            merged.append(line)
            i += 1
    return merged


def split_sentences(text: str) -> list[str]:
    """Lines, then sentences within a line; headings, fragments and markup left out."""
    found: list[str] = []
    for line in _lines(text):
        start = 0
        for match in _BOUNDARY.finditer(line):
            before = line[start : match.start()].rsplit(" ", 1)[-1].lower()
            if before.rstrip(".") in _ABBREVIATIONS or _INITIALS.fullmatch(before):
                continue  # "e.g. Python", "B.S. Computer Science", "J. Smith"
            found.append(line[start : match.start() + 1].strip())
            start = match.end()
        found.append(line[start:].strip())
    return [_trim(s) for s in found if len(_WORD.findall(s)) >= MIN_WORDS]


def _trim(sentence: str) -> str:
    sentence = sentence.replace("**", "").strip()
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return sentence
    return sentence[:MAX_SENTENCE_CHARS].rsplit(" ", 1)[0] + " …"


def _stem(word: str) -> str:
    word = word.lower().rstrip(".")
    for suffix in ("'s", "\u2019s", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text)}


def coverage(terms: Sequence[str], sentence: str, context: str) -> float:
    """Share of the question's terms the sentence holds; a term only in the context (file
    name, section path) counts half: it says which document, not what the answer is."""
    if not terms:
        return 0.0
    own, around = _stems(sentence), _stems(re.sub(r"[_./\\-]+", " ", context))
    total = 0.0
    for term in terms:
        parts = [_stem(p) for p in _WORD.findall(term)] or [_stem(term)]
        if all(p in own for p in parts):
            total += 1.0
        elif all(p in own | around for p in parts):
            total += 0.5
    return total / len(terms)


class _EmbeddingCache:
    """Sentences come back often (the same chunks answer related questions)."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self.items: OrderedDict[str, list[float]] = OrderedDict()
        self.lock = Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        with self.lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self.items]
        if missing:
            vectors = embed_texts(missing)
            with self.lock:
                for text, vector in zip(missing, vectors, strict=True):
                    self.items[text] = vector
                while len(self.items) > self.size:
                    self.items.popitem(last=False)
        with self.lock:
            found = []
            for text in texts:
                self.items.move_to_end(text)
                found.append(self.items[text])
            return found


_cache = _EmbeddingCache()


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def answer_type(question: str, sentence: str) -> float:
    """1.0 when the sentence holds the kind of words the question asks for."""
    for asks, holds in ANSWER_TYPES:
        if asks.search(question):
            return 1.0 if holds.search(sentence) else 0.0
    return 0.0


def score_sentences(question: str, results: Sequence[dict[str, Any]]) -> list[Sentence]:
    """The sentences of the best chunks that were embedded and scored in full, best first."""
    sentences: list[Sentence] = []
    headings: set[tuple[str, str]] = set()
    for index, result in enumerate(results[:CHUNKS_READ]):
        # A heading often holds the answer ("Meridian Freight Systems - Staff Platform
        # Engineer"): it competes as the first line of its section's first chunk read.
        heading = _section_name(result)
        key = (result["file_path"], heading)
        if len(_WORD.findall(heading)) >= MIN_WORDS and key not in headings:
            headings.add(key)
            sentences.append(Sentence(_trim(heading), index, -1))
        for position, text in enumerate(split_sentences(result["text"])):
            sentences.append(Sentence(text, index, position))
    if not sentences:
        return []
    best_chunk = max(float(r.get("hybrid_score") or 0.0) for r in results[:CHUNKS_READ]) or 1.0
    terms = query_keywords(question)
    for sentence in sentences:
        result = results[sentence.result]
        context = f"{result['file_name']} {result['metadata'].get('section_path') or ''}"
        sentence.coverage = coverage(terms, sentence.text, context)
        prior = float(result.get("hybrid_score") or 0.0) / best_chunk
        sentence.score = (
            KEYWORD_WEIGHT * sentence.coverage
            + PRIOR_WEIGHT * prior
            + TYPE_WEIGHT * answer_type(question, sentence.text)
        )
    shortlist = sorted(sentences, key=lambda s: (-s.score, s.result, s.position))[:EMBEDDED]
    texts = []
    for sentence in shortlist:
        section = _section_name(results[sentence.result])
        texts.append(f"{section}: {sentence.text}" if section else sentence.text)
    vectors = _cache.embed([question, *texts])
    for sentence, vector in zip(shortlist, vectors[1:], strict=True):
        sentence.vector = max(0.0, _dot(vectors[0], vector))
        sentence.score = round(sentence.score + VECTOR_WEIGHT * sentence.vector, 4)
    return sorted(shortlist, key=lambda s: (-s.score, s.result, s.position))


def _section_name(result: dict[str, Any]) -> str:
    return str(result["metadata"].get("section_name") or "")


def section_lines(results: Sequence[dict[str, Any]]) -> list[Sentence]:
    """When the search was routed to a section ("Alexis skills section only"), the section
    is the answer: its lines in order, from the chunks of the best section found."""
    if not results or results[0].get("source") != "section_routing":
        return []
    first = results[0]
    where = (first["file_path"], first["metadata"].get("section_path"))
    lines: list[Sentence] = []
    for index, result in enumerate(results):
        if (result["file_path"], result["metadata"].get("section_path")) != where:
            continue
        for position, text in enumerate(split_sentences(result["text"])):
            lines.append(Sentence(text, index, position, score=float(result["hybrid_score"])))
    lines.sort(key=lambda s: (int(results[s.result]["metadata"].get("chunk_index") or 0),
                              s.position))  # fmt: skip
    return lines[:SECTION_LINES]


def select(sentences: Sequence[Sentence]) -> list[Sentence]:
    """The best few above the floor, without repeats."""
    if not sentences or sentences[0].score < FLOOR:
        return []
    bar = max(FLOOR, sentences[0].score * RELATIVE_FLOOR)
    kept: list[Sentence] = []
    seen: set[str] = set()
    for sentence in sentences:
        key = " ".join(sentence.text.lower().split())
        if sentence.score < bar or len(kept) >= MAX_SENTENCES:
            break
        if key not in seen:
            seen.add(key)
            kept.append(sentence)
    return kept


def grouped(kept: Sequence[Sentence], results: Sequence[dict[str, Any]]) -> list[list[Sentence]]:
    """One group per document, in the order of their best sentence; document order (chunk,
    then sentence) within a group."""
    groups: dict[str, list[Sentence]] = {}
    for sentence in kept:  # best first, so groups open in order of their best sentence
        document = str(results[sentence.result]["metadata"].get("file_id"))
        groups.setdefault(document, []).append(sentence)

    def place(s: Sentence) -> tuple[int, int]:
        return (int(results[s.result]["metadata"].get("chunk_index") or 0), s.position)

    return [sorted(g, key=place) for g in groups.values()]


def cite(sentence: str, n: int) -> str:
    """ "... to AWS." -> "... to AWS [1]." (the citation inside the full stop)."""
    if sentence and sentence[-1] in ".!?":
        return f"{sentence[:-1]} [{n}]{sentence[-1]}"
    return f"{sentence} [{n}]"


def document_label(result: dict[str, Any]) -> str:
    """What a document calls itself: its top heading ("Alexis Torres", "Overtime Policy"),
    else its file name."""
    path = str(result["metadata"].get("section_path") or "")
    top = re.sub(r"^Level \d+:\s*", "", path.split(">", 1)[0].strip())
    return top or str(result["file_name"])


def render(
    groups: Sequence[Sequence[Sentence]], results: Sequence[dict[str, Any]]
) -> Iterator[str]:
    """The answer's pieces, a sentence each, cited by its result's rank: a paragraph per
    document, or a list when its sentences are fragments (table rows, skill lines). When
    several documents answer, each group opens with the document's name."""
    labelled = len(groups) > 1
    for g, group in enumerate(groups):
        listed = not all(s.text.endswith((".", "!", "?")) for s in group)
        if labelled:
            opening = "\n\n" if g else ""
            after = "\n" if listed else ": "
            yield f"{opening}**{document_label(results[group[0].result])}**{after}"
        for i, sentence in enumerate(group):
            lead = ("\n" if listed else " ") if i else ""
            text = cite(sentence.text, sentence.result + 1)
            yield f"{lead}- {text}" if listed else f"{lead}{text}"
