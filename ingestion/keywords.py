"""Per-chunk keyword lists for exact matching: names first, then the terms the chunk
repeats or capitalizes, in lower case."""

import re
from collections.abc import Iterable

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

# Keeps technical spellings whole: C++, C#, Node.js, CI/CD, .NET.
_TERM = re.compile(r"\.?[A-Za-z][A-Za-z0-9]*(?:[+#]+|(?:[./-][A-Za-z0-9]+)+)?")
_EXTRA_STOP = {
    "also",
    "use",
    "used",
    "using",
    "include",
    "includes",
    "including",
    "new",
    "may",
    "must",
    "shall",
    "will",
    "can",
    "etc",
    "level",
    "within",
    "per",
    "one",
    "two",
    "eg",
    "ie",
}
STOP_WORDS = frozenset(ENGLISH_STOP_WORDS | _EXTRA_STOP)
MAX_KEYWORDS = 24


def extract_keywords(
    text: str, *, header: str = "", names: Iterable[str] = (), limit: int = MAX_KEYWORDS
) -> list[str]:
    scores: dict[str, float] = {}
    first_seen: dict[str, int] = {}
    for position, match in enumerate(_TERM.finditer(f"{header}\n{text}")):
        word = match.group().rstrip(".")
        key = word.lower()
        if len(key) < 2 or key in STOP_WORDS or key.isdigit():
            continue
        first_seen.setdefault(key, position)
        scores[key] = scores.get(key, 0.0) + 1.0 + (0.5 if word[0].isupper() else 0.0)
    for word in _TERM.findall(header):
        if word.lower() in scores:
            scores[word.lower()] += 1.0
    keywords: list[str] = []
    for name in names:
        key = name.lower().strip()
        if key and key not in keywords:
            keywords.append(key)
    ranked = sorted(scores, key=lambda k: (-scores[k], first_seen[k]))
    for key in ranked:
        if len(keywords) >= limit:
            break
        if key not in keywords:
            keywords.append(key)
    return keywords[:limit]
