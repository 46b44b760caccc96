"""Extractive answers: the sentences of the retrieved chunks that answer the question.

The sentences (and multi-word headings) of the best chunks are scored in two passes. A
cheap one ranks them all:

    cheap = 0.30 x keyword coverage  (the question's terms in the sentence; a term found
                                      only in the chunk's file name or section path counts
                                      half: it says which document, not what the answer is)
          + 0.15 x chunk prior       (the chunk's hybrid score / the best chunk's)
          + 0.10 x answer type       (a "when" question and a date, "how many" and a number)

and the best 8 of them get the vector part (on the demo set, 8 rather than 16 or all loses
nothing). Ingestion stored each sentence's vector (ingestion/sentences.py), so answering
runs no model over document text:

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

from chat.orchestrator.answers.answer_kinds import answer_type
from core.providers.embeddings import embed_texts
from core.providers.query_embeddings import embed_query
from ingestion.models import SentenceVector
from ingestion.services import WORD, embedding_input, heading_line, split_sentences
from retrieval.services import query_keywords

VECTOR_WEIGHT = 0.45
KEYWORD_WEIGHT = 0.30
PRIOR_WEIGHT = 0.15
TYPE_WEIGHT = 0.10
FLOOR = 0.38  # below it, no sentence answers the question
RELATIVE_FLOOR = 0.80  # kept sentences score at least this share of the best one
MAX_SENTENCES = 4
CHUNKS_READ = 6  # the best chunks whose sentences compete
EMBEDDED = 8  # sentences given the vector part, the best by the cheap score
SECTION_LINES = 10  # lines quoted when the search routed to a section


@dataclass
class Sentence:
    text: str
    result: int  # index of its search result
    position: int  # order within its chunk
    score: float = 0.0
    vector: float = 0.0
    coverage: float = 0.0


def _stem(word: str) -> str:
    word = word.lower().rstrip(".")
    for suffix in ("'s", "\u2019s", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in WORD.findall(text)}


def coverage(terms: Sequence[str], sentence: str, context: str) -> float:
    """Share of the question's terms the sentence holds; a term only in the context (file
    name, section path) counts half: it says which document, not what the answer is."""
    if not terms:
        return 0.0
    own, around = _stems(sentence), _stems(re.sub(r"[_./\\-]+", " ", context))
    total = 0.0
    for term in terms:
        parts = [_stem(p) for p in WORD.findall(term)] or [_stem(term)]
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


def sentence_vectors(texts: Sequence[str], chunk_ids: Sequence[str]) -> list[list[float]]:
    """The vectors ingestion stored for these sentences of these chunks; a sentence it has
    none for (a chunk ingested before sentences were embedded) is embedded now."""
    stored: dict[str, list[float]] = {}
    ids = [c for c in chunk_ids if c]
    if ids and texts:
        rows = SentenceVector.objects.filter(chunk_id__in=ids, text__in=set(texts))
        stored = {text: list(vector) for text, vector in rows.values_list("text", "embedding")}
    missing = [t for t in texts if t not in stored]
    stored.update(zip(missing, _cache.embed(missing), strict=True))
    return [stored[t] for t in texts]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def score_sentences(question: str, results: Sequence[dict[str, Any]]) -> list[Sentence]:
    """The sentences of the best chunks that were embedded and scored in full, best first."""
    sentences: list[Sentence] = []
    headings: set[tuple[str, str | None]] = set()
    for index, result in enumerate(results[:CHUNKS_READ]):
        # A heading often holds the answer ("Meridian Freight Systems - Staff Platform
        # Engineer"): it competes as the first line of its section's first chunk read.
        heading = heading_line(_section_name(result))
        key = (result["file_path"], heading)
        if heading and key not in headings:
            headings.add(key)
            sentences.append(Sentence(heading, index, -1))
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
    texts = [embedding_input(_section_name(results[s.result]), s.text) for s in shortlist]
    chunk_ids = [str(r["metadata"].get("chunk_id") or "") for r in results[:CHUNKS_READ]]
    asked = embed_query(question)
    for sentence, vector in zip(shortlist, sentence_vectors(texts, chunk_ids), strict=True):
        sentence.vector = max(0.0, _dot(asked, vector))
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
