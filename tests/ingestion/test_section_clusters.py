"""Section types over more sections than are clustered at once: the same groups as one
clustering of everything, in memory that does not grow with the square of the sections."""

import numpy as np
import pytest

from ingestion import section_types
from ingestion.section_types import cluster


def _groups(labels: list[int]) -> set[frozenset[int]]:
    found: dict[int, set[int]] = {}
    for row, label in enumerate(labels):
        found.setdefault(label, set()).add(row)
    return {frozenset(rows) for rows in found.values()}


def _sections(kinds: int, each: int, seed: int = 7) -> np.ndarray:
    """`kinds` far-apart directions, `each` sections close to each one, interleaved as
    documents would hold them."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(kinds, 48))
    rows = [centres[n % kinds] + rng.normal(scale=0.05, size=48) for n in range(kinds * each)]
    return np.array(rows, dtype=np.float32)


def test_past_the_cap_the_groups_are_those_of_one_clustering(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    features = _sections(kinds=6, each=40)
    whole = cluster(features, 0.3)
    monkeypatch.setattr(section_types, "MAX_CLUSTERED", 25)
    capped = cluster(features, 0.3)
    assert len(_groups(whole)) == 6
    assert _groups(capped) == _groups(whole)


def test_sections_near_no_clustered_one_get_types_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    features = _sections(kinds=3, each=30)
    odd = _sections(kinds=2, each=1, seed=99)  # two sections unlike any other
    everything = np.vstack([features, odd])
    monkeypatch.setattr(section_types, "MAX_CLUSTERED", 10)
    labels = cluster(everything, 0.3)
    assert len(set(labels[:90])) == 3
    assert labels[90] != labels[91] and not {labels[90], labels[91]} & set(labels[:90])
