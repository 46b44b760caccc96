"""Small gradient-boosted tree models stored as JSON: where evidence interacts (a guessed
label matters when the rows are many, an empty result when there was a condition), a sum
of shallow trees ranks answers better than one weighted sum.

Fitted with scikit-learn's `GradientBoostingClassifier`; each tree is kept as its public
arrays (`tree_.feature`, `threshold`, `children_left`, `children_right`, `value`), so
scoring needs neither scikit-learn nor a pickle.
"""

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

DEPTH = 3  # interactions of up to three pieces of evidence
TREES = 100
RATE = 0.05
LEAF = 30  # examples a leaf holds at least: no rule for a handful of questions


def fit_trees(
    rows: Sequence[Mapping[str, float]], labels: Sequence[bool], features: Sequence[str]
) -> dict[str, Any]:
    from sklearn.ensemble import GradientBoostingClassifier

    x = [[float(r.get(n, 0.0)) for n in features] for r in rows]
    boosted = GradientBoostingClassifier(
        n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, subsample=0.8,
        min_samples_leaf=LEAF, random_state=0,
    )  # fmt: skip
    boosted.fit(x, [int(label) for label in labels])
    prior = float(boosted.init_.class_prior_[1])
    return {
        "kind": "trees",
        "features": list(features),
        "means": {n: round(float(m), 6) for n, m in zip(features, np.mean(x, axis=0), strict=True)},
        "init": round(math.log(prior / (1 - prior)), 6),
        "rate": RATE,
        "trees": [_tree(estimator.tree_) for [estimator] in boosted.estimators_],
    }


def _tree(tree: Any) -> dict[str, list[Any]]:
    return {
        "feature": [int(f) for f in tree.feature],
        "threshold": [float(t) for t in tree.threshold],  # exact: rounded, one could cross a value
        "left": [int(n) for n in tree.children_left],
        "right": [int(n) for n in tree.children_right],
        "value": [round(float(v), 6) for v in tree.value[:, 0, 0]],
    }


def _inputs(features: Mapping[str, float], fitted: Mapping[str, Any]) -> list[float]:
    # As the trees were grown: on float32 values.
    return [float(np.float32(features.get(n, 0.0))) for n in fitted["features"]]


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def tree_probability(features: Mapping[str, float], fitted: Mapping[str, Any]) -> float:
    x = _inputs(features, fitted)
    z = float(fitted["init"])
    for tree in fitted["trees"]:
        node = 0
        while tree["left"][node] != -1:  # a leaf has no children
            go_left = x[tree["feature"][node]] <= tree["threshold"][node]
            node = tree["left"][node] if go_left else tree["right"][node]
        z += float(fitted["rate"]) * tree["value"][node]
    return sigmoid(z)


def tree_upper_bound(
    features: Mapping[str, float], fitted: Mapping[str, Any], free: frozenset[str]
) -> float:
    """The highest probability the trees could give whatever values the `free` features
    take: at a split on one, both sides are open; the trees add, so the sum of each tree's
    best leaf bounds every combination."""
    x = _inputs(features, fitted)
    open_ = {i for i, n in enumerate(fitted["features"]) if n in free}
    z = float(fitted["init"])
    for tree in fitted["trees"]:
        best, stack = -math.inf, [0]
        while stack:
            node = stack.pop()
            feature = tree["feature"][node]
            if tree["left"][node] == -1:
                best = max(best, tree["value"][node])
            elif feature in open_:
                stack += [tree["left"][node], tree["right"][node]]
            else:
                left = x[feature] <= tree["threshold"][node]
                stack.append(tree["left"][node] if left else tree["right"][node])
        z += float(fitted["rate"]) * best
    return sigmoid(z)
