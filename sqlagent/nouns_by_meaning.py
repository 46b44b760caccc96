"""Nouns no term, table or value explains, read by meaning: "trucks" where the warehouse
says `vehicle`, "agreements" where it says contract. The product's embedding model compares
the noun with the phrases that name things (the registry's terms and synonyms, the tables);
the nearest is taken only when it is clearly near (cosine at least 0.6, the likeness the
schema-linked planner takes too) and no other thing is about as near. A noun that names a
kind of something is not read as it: one before another noun ("credit score" is a kind of
score, not a credit and a score), a compound ending in a known word ("website" is no
site), a word inside a known phrase ("fork truck" is no truck). Otherwise the noun
stays unknown and the question is declined naming it, as before; so is a noun spelled like
a known word ("technitian"), whose decline offers that word rather than a guess.
"""

import logging
from dataclasses import dataclass, replace

import numpy as np
from django.core.cache import cache

from core.language import is_noun, word_tags
from core.providers.embeddings import embed_texts, get_embedder
from registries.services import SemanticLayer
from sqlagent.declines import spelled_like
from sqlagent.linking.similar import MIN_SIMILARITY, word_vectors
from sqlagent.plan import CannotAnswer, QueryPlan, UnknownWords
from sqlagent.question_terms import Mention, QuestionTerms
from sqlagent.resolution import Resolved, resolve
from sqlagent.table_selection import select_tables
from sqlagent.value_index import ValueIndex
from sqlagent.vocabulary import Vocabulary

log = logging.getLogger(__name__)

MARGIN = 0.05  # a rival thing this near is as likely: the noun is not read
_THINGS = frozenset({"term", "table"})
CACHE_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class ByMeaning:
    word: str
    phrase: str  # the vocabulary's phrase it is read as
    similarity: float

    def describe(self) -> str:
        return f"{self.word!r} read as {self.phrase!r} by meaning ({self.similarity:.2f})"


def plan_by_meaning(
    unknown: UnknownWords,
    terms: QuestionTerms,
    vocab: Vocabulary,
    values: ValueIndex,
    layer: SemanticLayer,
) -> tuple[QuestionTerms, Resolved, QueryPlan, list[ByMeaning]]:
    """The term plan once the nouns nothing explained are read by meaning; `unknown`, the
    first reason, stands when none is or the plan still cannot be made."""
    meant, read = read_nouns_by_meaning(terms, vocab, layer, unknown.words)
    if not read:
        raise unknown
    resolved = resolve(meant, layer, values)
    try:
        return meant, resolved, select_tables(meant, resolved, layer), read
    except CannotAnswer:
        raise unknown from None


def read_nouns_by_meaning(
    terms: QuestionTerms, vocab: Vocabulary, layer: SemanticLayer, unknown: list[str]
) -> tuple[QuestionTerms, list[ByMeaning]]:
    """The question's terms with the `unknown` words that are nouns read as the things they
    mean, where clearly one."""
    tokens = terms.tokens
    tags = word_tags(tuple(t.text for t in tokens))
    nouns = [
        i
        for i, (t, tag) in enumerate(zip(tokens, tags, strict=True))
        if t.norm in unknown and t.norm in terms.unknown and not t.quoted
        and t.norm.isalpha() and len(t.norm) > 2 and is_noun(tag) and not t.text[:1].isupper()
        and not spelled_like(t.norm, vocab)  # a misspelling: the decline offers the word
        and not (i + 1 < len(tags) and is_noun(tags[i + 1]))  # it modifies the noun after it
    ]  # fmt: skip
    if not nouns:
        return terms, []
    phrases = _thing_phrases(vocab)
    try:
        names = _phrase_vectors(layer, phrases)
        likeness = word_vectors([tokens[i].norm for i in nouns]) @ names.T
    except Exception as error:  # an embedding service out of reach: read as before
        log.warning("nouns not read by meaning: %s", error)
        return terms, []
    read: list[ByMeaning] = []
    mentions = list(terms.mentions)
    for row, i in enumerate(nouns):
        kinds = np.array([_kind_of(tokens[i].norm, p) for p in phrases])
        best = _clearly_nearest(np.where(kinds, -1.0, likeness[row]), phrases, vocab)
        if best is None:
            continue
        found = ByMeaning(tokens[i].norm, phrases[best], float(likeness[row][best]))
        read.append(found)
        mentions.append(Mention(found.phrase, i, 1, vocab.entries[found.phrase]))
    if not read:
        return terms, []
    taken = {r.word for r in read}
    return replace(
        terms,
        mentions=tuple(sorted(mentions, key=lambda m: m.position)),
        unknown=tuple(w for w in terms.unknown if w not in taken),
    ), read


def _kind_of(word: str, phrase: str) -> bool:
    """Whether `word` and `phrase` name a thing and a narrower kind of it: "fork truck" is
    a kind of truck and "website" ("web" + "site") no site, so neither means the other."""
    parts = phrase.split()
    return word in parts or any(
        len(part) > 2 and len(word) - len(part) > 2 and word.endswith(part) for part in parts
    )


def _clearly_nearest(row: np.ndarray, phrases: list[str], vocab: Vocabulary) -> int | None:
    order = np.argsort(-row)
    best = int(order[0])
    if row[best] < MIN_SIMILARITY:
        return None
    meant = _meaning(vocab, phrases[best])
    for other in order[1:]:
        if row[other] < row[best] - MARGIN:
            break
        if _meaning(vocab, phrases[int(other)]) != meant:
            return None  # two things about as near
    return best


def _meaning(vocab: Vocabulary, phrase: str) -> object:
    entry = vocab.entries[phrase][0]
    return entry.term.name if entry.term is not None else entry.table


def _thing_phrases(vocab: Vocabulary) -> list[str]:
    return sorted(k for k, entries in vocab.entries.items() if entries[0].kind in _THINGS)


def _phrase_vectors(layer: SemanticLayer, phrases: list[str]) -> np.ndarray:
    key = f"sqlagent:thingvectors:{get_embedder().name}:{layer.data_source}:{layer.version}"
    found = cache.get(key)
    if found is None or len(found) != len(phrases):
        found = np.asarray(embed_texts(phrases), dtype=np.float32)
        cache.set(key, found, CACHE_SECONDS)
    return found
