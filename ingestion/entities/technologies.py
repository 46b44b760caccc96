"""Technologies by spelling: the gazetteer's names, and its everyday words ("Go", "R")
only where the text lists technologies."""

import re
from functools import lru_cache

from . import gazetteer as gz
from .spans import Span


@lru_cache(maxsize=1)
def _tech_pattern() -> tuple[re.Pattern[str], dict[str, tuple[str, bool]]]:
    """One alternation of every spelling, longest first, so that "Amazon EKS" wins over
    "EKS"; and for each spelling its canonical name and whether it is an everyday word."""
    spellings: dict[str, tuple[str, bool]] = {}
    for canonical, aliases in gz.TECHNOLOGIES.items():
        for spelling in (canonical, *aliases):
            ambiguous = spelling in gz.AMBIGUOUS or canonical in gz.AMBIGUOUS
            spellings.setdefault(spelling, (canonical, ambiguous))
    ordered = sorted(spellings, key=len, reverse=True)
    regex = re.compile(
        r"(?<![\w.+#/-])(" + "|".join(re.escape(s) for s in ordered) + r")(?![\w+#]|\.\w|-\w)"
    )
    return regex, spellings


def find_technologies(text: str, *, skill_heading: bool = False) -> list[Span]:
    found: list[Span] = []
    candidates: list[tuple[Span, bool]] = []
    regex, spellings = _tech_pattern()
    for match in regex.finditer(text):
        canonical, ambiguous = spellings[match.group(1)]
        span = Span(match.start(), match.end(), match.group(1), "Technology", 0.95, canonical)
        candidates.append((span, ambiguous))
    sure = [c for c, ambiguous in candidates if not ambiguous]
    for span, ambiguous in candidates:
        if not ambiguous:
            found.append(span)
            continue
        # An everyday word counts as a technology only in a list of technologies.
        window = text[max(0, span.start - 50) : span.end + 50]
        listed = bool(re.search(r"[,|/\u2022;:]| and | or ", window))
        near = any(abs(o.start - span.start) < 50 for o in sure if o is not span)
        single_letter = len(span.text) == 1
        if (
            (near or skill_heading)
            and listed
            and (
                not single_letter
                or re.search(r"[,|/]\s*$", text[: span.start])
                or re.match(r"\s*[,|/]", text[span.end :])
            )
        ):
            span.confidence = 0.75
            found.append(span)
    return sorted(found, key=lambda s: s.start)
