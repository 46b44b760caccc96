"""Ranking metrics over documents, with binary relevance."""

import math
from collections.abc import Collection, Sequence


def recall_at(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Share of the relevant documents among the first k."""
    if not relevant:
        return 0.0
    return len(set(ranked[:k]) & set(relevant)) / len(set(relevant))


def all_at(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1.0 when every relevant document is among the first k (both hops of a two-hop
    question), else 0.0."""
    return 1.0 if relevant and set(relevant) <= set(ranked[:k]) else 0.0


def reciprocal_rank(ranked: Sequence[str], relevant: Collection[str]) -> float:
    for position, name in enumerate(ranked, start=1):
        if name in relevant:
            return 1.0 / position
    return 0.0


def ndcg_at(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """DCG of the first k over the DCG of a perfect ranking of the relevant documents."""
    wanted = set(relevant)
    if not wanted:
        return 0.0
    dcg = sum(
        1.0 / math.log2(position + 1)
        for position, name in enumerate(ranked[:k], start=1)
        if name in wanted
    )
    ideal = sum(1.0 / math.log2(position + 1) for position in range(1, min(len(wanted), k) + 1))
    return dcg / ideal


def distinct(names: Sequence[str]) -> list[str]:
    """Documents in the order their first chunk appears."""
    seen: dict[str, None] = {}
    for name in names:
        seen.setdefault(name, None)
    return list(seen)


def score_question(ranked: Sequence[str], relevant: Collection[str]) -> dict[str, float]:
    return {
        "recall@5": recall_at(ranked, relevant, 5),
        "recall@10": recall_at(ranked, relevant, 10),
        "both@5": all_at(ranked, relevant, 5),
        "both@10": all_at(ranked, relevant, 10),
        "mrr": reciprocal_rank(ranked, relevant),
        "ndcg@10": ndcg_at(ranked, relevant, 10),
    }


def mean(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {}
    return {key: sum(r[key] for r in rows) / len(rows) for key in rows[0]}
