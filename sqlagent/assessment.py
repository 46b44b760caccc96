"""What the business database's vocabulary makes of a question, as evidence for the chat's
router: how much of the question the warehouse's words explain, which of its values and
codes it names, and the shape it asks for (a count, a total, top-N, per group, a date
range). It decides nothing; the router weighs it. The vocabulary is the agent's own (terms,
tables, columns, values, codes of the default data source), read with the agent's term
extraction, so the router and the agent read a question the same way."""

import logging
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from registries.services import load_semantic_layer

from .agent import Source
from .question_terms import QuestionReading, QuestionTerms, extract_terms
from .value_index import value_index
from .vocabulary import Vocabulary, phrase, vocabulary

logger = logging.getLogger(__name__)

WAREHOUSE_RETRY_SECONDS = 300
CODE_TOKEN = re.compile(r"\b[A-Z]{1,4}-?\d{2,}\b")
# Words that carry no content of their own in a question to the database.
FUNCTION_WORDS = frozenset({
    "how", "what", "which", "who", "whom", "whose", "when", "where", "why", "list", "show",
    "give", "find", "count", "name", "is", "are", "was", "were", "in", "for", "of", "the", "a",
    "an", "do", "does", "did", "and", "or", "on", "at", "by", "per", "each", "with", "from", "to",
    "between", "me", "our", "we", "us", "i", "my", "you", "your", "their", "its", "that", "this",
    "these", "those", "there", "be", "been", "have", "has", "had", "many", "much", "all", "any",
    "some", "get", "can", "could", "should", "would", "will", "it", "please", "tell", "about"
})  # fmt: skip


@dataclass(frozen=True)
class WarehouseWords:
    vocabulary: Vocabulary | None  # None: the registry or warehouse is not reachable
    words: frozenset[str]  # single words of terms, tables and columns (not values)
    codes: tuple[str, ...]  # regexes of code shapes (WO-\d{6})
    note: str = ""  # what the words had to do without


@dataclass
class _Cache:
    layer: Any = None  # the SemanticLayer snapshot the words were read from
    words: WarehouseWords | None = None
    retry_at: float = 0.0  # when words built without the warehouse's values are retried


_cache = _Cache()
_lock = threading.Lock()


def warehouse_words() -> WarehouseWords:
    """The agent's vocabulary for the default data source, rebuilt when the registry's
    version changes; when the warehouse cannot be read, the registry's words alone (values
    are read from the warehouse), tried again after a while."""
    try:
        layer = load_semantic_layer()
    except Exception as error:  # no registry yet, database trouble
        logger.warning("reading questions without the warehouse registry: %s", error)
        return WarehouseWords(None, frozenset(), (), "the warehouse registry is unavailable")
    cached = _cache.words
    if (
        cached is not None
        and _cache.layer is layer
        and (not cached.note or time.monotonic() < _cache.retry_at)
    ):
        return cached
    with _lock:
        built = _cache.words
        if built is not None and built is not cached and _cache.layer is layer:
            return built  # another thread built it meanwhile
        words = _build_words(layer)
        _cache.layer, _cache.words = layer, words
        _cache.retry_at = time.monotonic() + WAREHOUSE_RETRY_SECONDS
        return words


def _build_words(layer: Any) -> WarehouseWords:
    values: tuple[tuple[str, str, str], ...] = ()
    codes: tuple[str, ...] = ()
    note = ""
    try:
        source = Source.named(None)
        index = value_index(layer, source.url, agent=source.agent_login)
        values, codes = index.values, tuple(pattern for _, _, pattern in index.codes)
    except Exception as error:
        logger.warning("reading questions without warehouse values: %s", error)
        note = "the warehouse's values are unavailable"
    vocab = vocabulary(layer, values)
    plain = frozenset(
        word
        for key, entries in vocab.entries.items()
        if any(e.kind != "value" for e in entries)
        for word in key.split()
    )
    return WarehouseWords(vocab, plain, codes, note)


def forget_warehouse_words() -> None:
    with _lock:
        _cache.layer = _cache.words = None


@dataclass
class SqlEvidence:
    """How much of a question the warehouse's vocabulary explains."""

    coverage: float = 0.0  # weighted share of the question's content words explained
    named: list[str] = field(default_factory=list)  # terms and strong values, as written
    values: list[tuple[str, float]] = field(default_factory=list)  # value, how telling
    codes: list[str] = field(default_factory=list)  # codes of a known shape (WO-000123)
    asks: list[str] = field(default_factory=list)  # "a count", "per branch", "top 5"
    date_range: tuple[str, str] | None = None  # as written, as understood
    explained: set[str] = field(default_factory=set)  # lower-case words fully explained
    reading: QuestionReading | None = None  # the terms, for `ask` to reuse


def assess_question(text: str, words: WarehouseWords, *, today: date) -> SqlEvidence:
    """The warehouse's reading of `text`; empty evidence when there is no vocabulary."""
    if words.vocabulary is None:
        return SqlEvidence()
    terms = extract_terms(text, words.vocabulary, today=today)
    evidence = SqlEvidence(reading=QuestionReading(terms, words.vocabulary, today))
    covered = _cover(terms, words.vocabulary, evidence)
    content = _content_positions(terms)
    if content:
        evidence.coverage = sum(covered.get(i, 0.0) for i in content) / len(content)
    evidence.codes = [
        c for c in CODE_TOKEN.findall(text) if any(re.fullmatch(p, c) for p in words.codes)
    ]
    evidence.asks = _asks(terms)
    if terms.date_range is not None:
        evidence.date_range = (terms.date_range.text, terms.date_range.describe())
    evidence.explained = {
        part
        for i, weight in covered.items()
        if weight == 1.0
        for part in terms.tokens[i].text.lower().split()
    }
    return evidence


def _cover(terms: QuestionTerms, vocab: Vocabulary, evidence: SqlEvidence) -> dict[int, float]:
    """How fully each token position is explained (1.0 a term or telling value, less for a
    column or a common word that is also a value somewhere)."""
    covered: dict[int, float] = {}
    for mention in terms.mentions:
        tokens = terms.tokens[mention.position : mention.position + mention.length]
        kind = mention.best.kind
        weight = 0.4 if kind == "column" else 1.0
        if kind == "value":
            # "Lighthouse Power LLC" and "overhead bridge crane" say warehouse; "paid" or
            # "long" are values somewhere too, but say little.
            strength = _value_strength(tokens)
            evidence.values.append((mention.text, strength))
            weight = 1.0 if strength >= 0.2 else 0.5
        for i in range(mention.position, mention.position + mention.length):
            covered[i] = max(covered.get(i, 0.0), weight)
        if weight == 1.0:
            evidence.named.append(mention.text)
    for name, end in terms.names:
        # Proper names are the agent's to resolve later; here it is enough that the
        # warehouse holds one by that name ("Sterling Power Holdings").
        entries = vocab.entries.get(phrase(name), ())
        if any(e.kind == "value" for e in entries):
            evidence.values.append((name, 0.35))
            evidence.named.append(name)
            for i in range(end - len(name.split()), end):
                covered[i] = 1.0
    return covered


def _content_positions(terms: QuestionTerms) -> list[int]:
    in_date: set[int] = set()
    if terms.date_range is not None:
        in_date = {i for i, t in enumerate(terms.tokens) if t.text.lower() in terms.date_range.text}
    return [
        i
        for i, t in enumerate(terms.tokens)
        if t.norm not in FUNCTION_WORDS
        and not t.norm.replace(".", "").isdigit()
        and i not in in_date
    ]


def _asks(terms: QuestionTerms) -> list[str]:
    shape = terms.shape
    return [
        label
        for label, present in (
            ("a count", shape.aggregate == "count"),
            (f"a {shape.aggregate}", shape.aggregate not in (None, "count")),
            (f"per {shape.group_by}", bool(shape.group_by)),
            (f"top {shape.top_n}", bool(shape.top_n)),
            ("a share", shape.ratio),
        )
        if present
    ]


def _value_strength(tokens: Sequence[Any]) -> float:
    if any(t.text[:1].isupper() for t in tokens) or CODE_TOKEN.fullmatch(tokens[0].text):
        return 0.35
    return 0.2 if len(tokens) > 1 else 0.08
