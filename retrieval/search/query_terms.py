"""Keywords of a question when the caller gives none: the words that carry its subject,
in lower case, the way chunk keyword lists are written."""

import re
from collections.abc import Iterable

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

# Keeps technical spellings whole (C++, C#, Node.js, CI/CD) and drops a possessive.
_TERM = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[+#]+|(?:[./-][A-Za-z0-9]+)+)?")
_POSSESSIVE = re.compile("(?:'s|\u2019s|'|\u2019)$")
# Words that shape a question without saying what it is about. Number words stay out of
# the stop list: "first", "two" often decide a question.
QUESTION_WORDS = frozenset(
    [
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "does",
        "did",
        "do",
        "is",
        "are",
        "was",
        "were",
        "tell",
        "show",
        "give",
        "find",
        "list",
        "get",
        "describe",
        "explain",
        "many",
        "much",
        "kind",
        "type",
        "sort",
        "me",
        "please",
        "about",
    ]
)
_KEEP = frozenset({"first", "second", "third", "one", "two", "three", "last", "top"})
STOP_WORDS = frozenset((ENGLISH_STOP_WORDS | QUESTION_WORDS) - _KEEP)
MAX_TERMS = 12


def query_keywords(query: str, *, extra: Iterable[str] = ()) -> list[str]:
    """Distinct terms in the order they appear, names given in `extra` first."""
    terms: list[str] = []
    for word in extra:
        for part in _TERM.findall(word):
            key = part.lower()
            if key not in terms and key not in STOP_WORDS:
                terms.append(key)
    for raw in re.split(r"\s+", query):
        for part in _TERM.findall(_POSSESSIVE.sub("", raw.strip('.,;:!?"()[]'))):
            key = part.lower().rstrip(".")
            if len(key) < 2 or key in STOP_WORDS or key in terms:
                continue
            terms.append(key)
    return terms[:MAX_TERMS]


# A word in any script, numbers too, kept whole across inner dots, hyphens and apostrophes
# ("node.js", "e-mail", "o'brien", "2.5") and with a trailing "+" or "#" ("c++").
_WORD = re.compile(r"[^\W_](?:[\w]|[./\-'\u2019](?=[^\W_]))*[+#]*")
MAX_SEARCH_TERMS = 40


def search_terms(query: str, *, extra: Iterable[str] = ()) -> list[str]:
    """What the keyword stage looks for when the caller names no keywords: every word of
    the question, numbers included, names given in `extra` first. BM25 weighs them by how
    rare they are, and the full-text stop words drop out with no lexeme: on the development
    halves this beat the chosen keywords alone (see docs/retrieval.md)."""
    terms: list[str] = []
    for text in (*extra, query):
        for word in _WORD.findall(text.lower()):
            if word not in terms:
                terms.append(word)
    return terms[:MAX_SEARCH_TERMS]


def normalize_keywords(keywords: Iterable[str]) -> list[str]:
    """Keywords a caller gave: lower case, trimmed, distinct, empty ones dropped."""
    seen: list[str] = []
    for keyword in keywords:
        key = keyword.strip().lower()
        if key and key not in seen:
            seen.append(key)
    return seen[:MAX_TERMS]
