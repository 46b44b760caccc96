"""Learned fusion: one linear score over a candidate's evidence, its weights fitted on
development questions (`manage.py train_ranker`) and read by retrieval.fusion.

The evidence is what the weighted fusion reads (`vector`, `keyword`, `path`, `proximity`,
each in 0..1) and a few more pieces that carry over to any corpus: where the first stages
ranked the chunk, whether it is a seed or was reached through an entity both chunks merely
mention, how many candidates its document has, and whether the question names the
document's title. Every feature lies in 0..1 and every weight is at least 0 (a weight that
came out below 0 was dropped when fitting), so the score divided by the sum of the weights
also lies in 0..1, a perfect candidate scoring 1.0, and each feature's part of it is a
share that explains the order. The shares are reported by the five signals of the weighted
fusion (`FAMILY`), so the API and the traces read the same either way.

The weights were fitted pairwise: on each development question, every relevant
document's best chunk against every other document's, so that what the model learns is
which of two candidates should come first (see retrieval.evaluation.ranker_training).
"""

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..fusion import FAMILY, coefficients
from .candidates import Candidate
from .query_terms import STOP_WORDS

ENTITY_RELATIONSHIP = "MENTIONS"
_WORD = re.compile(r"[^\W_]+")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def title_words(file_name: str) -> set[str]:
    """The content words of a document's title, read from its file name."""
    return {w for w in _words(_EXTENSION.sub("", file_name)) if w not in STOP_WORDS}


def features(candidates: Sequence[Candidate], query: str) -> dict[str, dict[str, float]]:
    """Each candidate's evidence by chunk id. Needs the signals re-ranking normalises."""
    question = _words(query)
    per_document = Counter(str(c.row.get("document_id")) for c in candidates)
    best_cosine: dict[str, float] = {}
    for c in candidates:
        document = str(c.row.get("document_id"))
        best_cosine[document] = max(best_cosine.get(document, 0.0), c.vector_similarity or 0.0)
    named: dict[str, float] = {}
    found = {}
    for c in candidates:
        document = str(c.row.get("document_id"))
        if document not in named:
            title = title_words(str(c.row.get("file_name") or ""))
            named[document] = float(bool(title) and title <= question)
        found[c.chunk_id] = {
            "vector": c.signals["vector"],
            "cosine": max(0.0, c.vector_similarity or 0.0),
            "vector_rank": 1.0 / c.vector_rank if c.vector_rank else 0.0,
            "keyword": c.signals["keyword"],
            "terms_held": c.keyword_score,
            "keyword_rank": 1.0 / c.keyword_rank if c.keyword_rank else 0.0,
            "title_named": named[document],
            "path": c.signals["path"],
            "seed": float(c.is_seed),
            "direct": float(c.relationship != ENTITY_RELATIONSHIP),
            "proximity": c.signals["proximity"],
            "document_support": 1.0 - 1.0 / per_document[document],
            "document_best_cosine": max(0.0, best_cosine[document]),
        }
    return found


def score_learned(
    candidates: Sequence[Candidate], *, query: str, section_weight: float, model: Mapping[str, Any]
) -> dict[str, float]:
    """Sets each candidate's hybrid score (0..1) and shares by signal; returns the weight
    of each signal (its features' weights, as a share of all)."""
    weights = coefficients(model)
    total = sum(weights.values()) or 1.0
    evidence = features(candidates, query)
    for c in candidates:
        parts = dict.fromkeys(("vector", "keyword", "path", "proximity", "section"), 0.0)
        for name, weight in weights.items():
            parts[FAMILY[name]] += (1.0 - section_weight) * weight * evidence[c.chunk_id][name]
        parts = {name: part / total for name, part in parts.items()}
        parts["section"] = section_weight * c.signals["section"]
        c.hybrid_score = sum(parts.values())
        c.shares = {
            name: (part / c.hybrid_score if c.hybrid_score > 0 else 0.0)
            for name, part in parts.items()
        }
    signal_weights = dict.fromkeys(("vector", "keyword", "path", "proximity"), 0.0)
    for name, weight in weights.items():
        signal_weights[FAMILY[name]] += (1.0 - section_weight) * weight / total
    return {**signal_weights, "section": section_weight}
