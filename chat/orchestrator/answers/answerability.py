"""Whether the passages a search found answer the question, before anything is answered
from them.

A calibrated probability from evidence that carries over to other corpora, not from
phrase lists:

- `coverage`: the share of the question's keywords the readable chunks know, weighted by
  how rare each is among them (idf), that the best passages hold;
- `absent`: the idf-weighted share of its keywords that no readable chunk holds at all
  ("parental" in a corpus without parental leave);
- `sentence`, `sentence_vector`: how well the best sentence of the passages answers it
  (the extractive answer's own score) and its cosine to the question;
- `top_similarity`, `top_keyword`: the best passage's vector and keyword scores;
- `agreement`: the share of the best five passages both stages found.

A logistic model over these, trained on the development half of labelled question sets
(`manage.py train_answerability`), turns them into a probability; its threshold was chosen
on that half only. The model is a JSON file beside this module.
"""

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from chat.orchestrator.answers.extractive import Sentence, coverage
from core import calibration
from retrieval.services import KeywordEvidence

MODEL_FILE = Path(__file__).resolve().parent / "answerability.json"
FEATURES = (
    "coverage",
    "passage_coverage",
    "absent",
    "absent_any",
    "absent_name",
    "sentence",
    "sentence_vector",
    "sentence_coverage",
    "top_similarity",
    "top_keyword",
    "agreement",
)
# The way each feature's evidence points: +1 for answerable, -1 against.
SIGNS = {name: -1 if name.startswith("absent") else 1 for name in FEATURES}
PASSAGES_READ = 3  # the best passages whose words count as covered
AGREEMENT_OF = 5


@dataclass(frozen=True)
class Verdict:
    answerable: bool
    probability: float
    threshold: float
    features: dict[str, float]
    missing: list[str] = field(default_factory=list)  # keywords no readable chunk holds
    missing_names: list[str] = field(default_factory=list)  # of them, those written as names

    def as_dict(self) -> dict[str, Any]:
        return {
            "answerable": self.answerable,
            "probability": round(self.probability, 4),
            "threshold": self.threshold,
            "features": {k: round(v, 4) for k, v in self.features.items()},
            "missing": self.missing,
            "missing_names": self.missing_names,
        }


def evidence(
    question: str,
    results: Sequence[dict[str, Any]],
    sentences: Sequence[Sentence],
    keywords: KeywordEvidence | None,
) -> tuple[dict[str, float], list[str]]:
    """The features of (question, passages), and the keywords no readable chunk holds.
    `keywords`: the question's keyword evidence over the readable chunks."""
    covered, absent, missing = _keyword_shares(keywords, results[:PASSAGES_READ])
    # An answer usually stands in one passage: the best single passage's share.
    alone = max((_keyword_shares(keywords, [r])[0] for r in results[:PASSAGES_READ]), default=0.0)
    best = sentences[0] if sentences else None
    top = results[0] if results else {}
    both = [
        r
        for r in results[:AGREEMENT_OF]
        if float(r.get("similarity") or 0) > 0
        and float((r.get("metadata") or {}).get("keyword_score") or 0) > 0
    ]
    features = {
        "coverage": covered,
        "passage_coverage": alone,
        "absent": absent,
        "absent_any": float(bool(missing)),
        "absent_name": float(bool(absent_names(question, missing))),
        "sentence": best.score if best else 0.0,
        "sentence_vector": best.vector if best else 0.0,
        "sentence_coverage": best.coverage if best else 0.0,
        "top_similarity": float(top.get("similarity") or 0.0),
        "top_keyword": float((top.get("metadata") or {}).get("keyword_score") or 0.0),
        "agreement": len(both) / AGREEMENT_OF if results else 0.0,
    }
    return features, missing


def _keyword_shares(
    keywords: KeywordEvidence | None, passages: Sequence[dict[str, Any]]
) -> tuple[float, float, list[str]]:
    if keywords is None or not keywords.terms:
        return 0.0, 0.0, []
    text = " ".join(str(p.get("text") or "") for p in passages)
    context = " ".join(
        f"{p.get('file_name') or ''} {(p.get('metadata') or {}).get('section_path') or ''}"
        for p in passages
    )
    missing = [term for term in keywords.terms if not keywords.frequencies.get(term)]
    known = [term for term in keywords.terms if term not in missing]
    # Coverage counts the words the collection knows; the others are `absent`'s to weigh
    # (a "say" or "whats" no chunk holds says nothing about the passages).
    covered = sum(keywords.idf[term] * coverage([term], text, context) for term in known)
    absent = sum(keywords.idf[term] for term in missing)
    total = sum(keywords.idf.values()) or 1.0
    return covered / (sum(keywords.idf[t] for t in known) or 1.0), absent / total, missing


_NAME = re.compile(r"(?<=\w[\s,;:])([A-Z][\w'\u2019-]*)")


def absent_names(question: str, missing: Sequence[str]) -> list[str]:
    """Names written as names (capitalised after the first word) that no readable chunk
    holds: people, projects or products the documents never mention."""
    absent = {m.lower() for m in missing}
    names = (re.sub(r"['\u2019]s$", "", name) for name in _NAME.findall(question))
    return list(dict.fromkeys(name for name in names if name.lower() in absent))


@lru_cache(maxsize=1)
def model() -> dict[str, Any]:
    return dict(json.loads(MODEL_FILE.read_text(encoding="utf-8")))


def probability(features: dict[str, float], fitted: dict[str, Any] | None = None) -> float:
    """The model's probability that the passages answer."""
    return calibration.probability(features, fitted or model())


def judge(
    question: str,
    results: Sequence[dict[str, Any]],
    sentences: Sequence[Sentence],
    keywords: KeywordEvidence | None,
) -> Verdict:
    features, missing = evidence(question, results, sentences, keywords)
    threshold = float(model()["threshold"])
    p = probability(features)
    return Verdict(p >= threshold, p, threshold, features, missing, absent_names(question, missing))
