"""Words no name or value explains, linked by meaning: the product's embedding model
compares the word with every table's and column's name ("directed" and `director`, "born"
and `birth_date`). A link by meaning is weaker evidence than one by name, and scores so.

The names' vectors are computed once per semantic-layer version and kept in the cache.
"""

import logging
import threading

import numpy as np
from django.core.cache import cache

from core.language import is_noun, word_tags
from core.providers.embeddings import embed_texts, get_embedder
from registries.services import SemanticLayer
from sqlagent.linking.links import Link
from sqlagent.linking.question import Word
from sqlagent.linking.schema_words import SchemaWords
from sqlagent.linking.signals import (
    COUNT_WORDS,
    DETERMINERS,
    DISTINCT_WORDS,
    SHAPE_WORDS,
    comparator_at,
    phrase_at,
)

log = logging.getLogger(__name__)

MIN_SIMILARITY = 0.6  # cosine of a word and a name, below which they are not linked
MIN_GROUP_SIMILARITY = 0.5  # the same, for a grouping's or a bound's word: fewer candidates
_GROUPING = frozenset({"each", "every", "per", "by"})
_BEFORE_BOUND = frozenset({"is", "are", "was", "were", "of"})  # "altitude is above 50"
WEIGHT = 0.7  # a link by meaning scores its similarity times this
CACHE_SECONDS = 7 * 24 * 3600

_words: dict[str, np.ndarray] = {}
_lock = threading.Lock()


def _name_vectors(layer: SemanticLayer, schema: SchemaWords) -> np.ndarray:
    key = f"sqlagent:namevectors:{get_embedder().name}:{layer.data_source}:{layer.version}"
    found = cache.get(key)
    if found is None or len(found) != len(schema.elements):
        phrases = [" ".join(e.names[0][0]) for e in schema.elements]
        found = np.asarray(embed_texts(phrases), dtype=np.float32)
        cache.set(key, found, CACHE_SECONDS)
    return found


def word_vectors(words: list[str]) -> np.ndarray:
    """The embedding of each word, kept per process."""
    missing = [w for w in dict.fromkeys(words) if w not in _words]
    if missing:
        vectors = embed_texts(missing)
        with _lock:
            if len(_words) > 20_000:
                _words.clear()
            for word, vector in zip(missing, vectors, strict=True):
                _words[word] = np.asarray(vector, dtype=np.float32)
    return np.stack([_words[w] for w in words])


def similar_links(
    words: tuple[Word, ...],
    covered: set[int],
    layer: SemanticLayer,
    schema: SchemaWords,
    named: frozenset[str] = frozenset(),
    *,
    groups_only: bool = False,
) -> list[Link]:
    """Links for content words outside `covered`, each to the name nearest in meaning. A
    word a grouping is asked by ("of each gender") is looked for among the columns of the
    tables the question `named`, and a word a number bounds ("whose altitude is above 50")
    among their number columns, where a weaker likeness is enough (`sex`, `elevation`).
    `groups_only`: only such words are linked."""
    columns = np.array(
        [e.table in named and e.column is not None for e in schema.elements], dtype=bool
    )
    measures = columns & np.array([e.numeric for e in schema.elements], dtype=bool)
    tables = np.array([e.column is None for e in schema.elements], dtype=bool)
    lows = [w.lower for w in words]
    among = {
        i: tables if _counted(words, lows, i) else _among(words, lows, i, (columns, measures))
        for i, w in enumerate(words)
        if i not in covered and w.content and not w.quoted and w.lower not in SHAPE_WORDS
        and len(w.lower) > 2 and w.lower.isalpha()
    }  # fmt: skip  # the words no name explains, with the columns they may mean
    open_words = [i for i, within in among.items() if not groups_only or within is not None]
    if not open_words or not schema.elements:
        return []
    try:
        names = _name_vectors(layer, schema)
        found = word_vectors([words[i].lower for i in open_words]) @ names.T
    except Exception as error:  # an embedding service out of reach: read without these links
        log.warning("words not linked by meaning: %s", error)
        return []
    links = []
    for row, i in enumerate(open_words):
        best = int(np.argmax(found[row]))
        similarity = float(found[row][best])
        within = among[i]
        if within is not None:
            best = int(np.argmax(np.where(within, found[row], -1.0)))
            similarity = float(found[row][best])
            least = MIN_SIMILARITY if within is tables else MIN_GROUP_SIMILARITY
            if similarity < least:
                continue
        elif similarity < MIN_SIMILARITY or groups_only:
            continue
        links.append(Link(i, i + 1, schema.elements[best], round(similarity * WEIGHT, 3)))
    return links


def _among(
    words: tuple[Word, ...], lows: list[str], i: int, candidates: tuple[np.ndarray, np.ndarray]
) -> np.ndarray | None:
    """Of the named tables' columns (`candidates`: all, and those holding numbers), the ones
    a grouping's word may mean, the number columns for a word a number bounds; None for
    any other word."""
    columns, measures = candidates
    grouped = i and lows[i - 1] in _GROUPING
    if grouped or lows[i + 1 : i + 2] == ["of"]:  # "of each gender", "the gender of"
        return columns if columns.any() else None
    at = i + 1
    while at < min(len(lows), i + 3) and lows[at] in _BEFORE_BOUND:
        at += 1
    said = comparator_at(lows, at) or (("between", 1) if lows[at : at + 1] == ["between"] else None)
    numbered = said is not None and any(
        w.number is not None for w in words[at + said[1] : at + said[1] + 2]
    )
    return measures if numbered and measures.any() else None


def _counted(words: tuple[Word, ...], lows: list[str], i: int) -> bool:
    """Whether word i is what a count is of ("how many employees", "the number of
    different companies"): the rows of a table, which it is looked for among, at the
    likeness any word needs ("employees" and `Staff`, "companies" and `Manufacturers`).
    Not a word before the noun it modifies ("the number of flight routes")."""
    for start in range(max(0, i - 5), i):
        size = phrase_at(lows, start, COUNT_WORDS)
        between = lows[start + size : i]
        if size and all(w in DETERMINERS or w in DISTINCT_WORDS for w in between):
            following = word_tags(tuple(w.text for w in words))[i + 1 : i + 2]
            return not any(is_noun(tag) for tag in following)
    return False
