"""Small logistic models that turn evidence into a calibrated probability, fitted on the
development half of a labelled set and stored as JSON beside the code that reads them.

Every gate that decides from evidence (the linked planner's confidence, whether passages
answer a question, whether a question rewords a verified one) uses these: features are
standardised with the development half's means and spreads, the weights are a plain
logistic regression, and the threshold is chosen on the same half. A model may be boosted
trees instead (`core.boosted_trees`); `probability` reads either.
"""

from collections.abc import Mapping, Sequence
from statistics import mean, pstdev
from typing import Any

from core.boosted_trees import sigmoid, tree_probability


def probability(features: Mapping[str, float], fitted: Mapping[str, Any]) -> float:
    if fitted.get("kind") == "trees":
        return tree_probability(features, fitted)
    z = float(fitted["bias"])
    for name, weight in fitted["weights"].items():
        centre, spread = fitted["scale"].get(name, (0.0, 1.0))
        z += float(weight) * (float(features.get(name, 0.0)) - centre) / spread
    return sigmoid(z)


def feature_mean(fitted: Mapping[str, Any], name: str) -> float:
    """A feature's mean on the data the model was fitted on: a neutral value."""
    if "means" in fitted:
        return float(fitted["means"].get(name, 0.0))
    return float(fitted["scale"].get(name, (0.0, 1.0))[0])


def fit_logistic(
    rows: Sequence[Mapping[str, float]],
    labels: Sequence[bool],
    features: Sequence[str],
    *,
    c: float,
    signs: Mapping[str, int] | None = None,
    balanced: bool = False,
) -> dict[str, Any]:
    """Weights, bias and scale for `features`. With `signs`, a feature whose weight comes
    out against the way its evidence points is an artefact of few examples: it is dropped
    (weight 0) and the rest refitted."""
    from sklearn.linear_model import LogisticRegression

    columns = list(zip(*([float(r.get(n, 0.0)) for n in features] for r in rows), strict=True))
    scale = {
        n: [round(mean(col), 6), round(pstdev(col) or 1.0, 6)]
        for n, col in zip(features, columns, strict=True)
    }
    active = list(features)
    while True:
        x = [[(float(r.get(n, 0.0)) - scale[n][0]) / scale[n][1] for n in active] for r in rows]
        regression = LogisticRegression(
            C=c, max_iter=2000, class_weight="balanced" if balanced else None
        )
        regression.fit(x, [int(label) for label in labels])
        weights = dict(zip(active, map(float, regression.coef_[0]), strict=True))
        against = [n for n in active if signs and weights[n] * signs.get(n, 0) < 0]
        if not against:
            break
        active.remove(min(against, key=lambda n: weights[n] * (signs or {}).get(n, 0)))
    return {
        "features": list(features),
        "scale": scale,
        "weights": {n: round(weights.get(n, 0.0), 6) for n in features},
        "bias": round(float(regression.intercept_[0]), 6),
    }


def best_threshold(scored: Sequence[tuple[float, bool]], *, cost: float) -> float:
    """The cut maximising right minus `cost` times wrong among the answers at or above it
    (1.0, answer nothing, when no cut gains)."""
    best, best_gain = 1.0, 0.0
    for cut in sorted({p for p, _ in scored}):
        kept = [right for p, right in scored if p >= cut]
        gain = sum(kept) - cost * (len(kept) - sum(kept))
        if gain > best_gain:
            best, best_gain = cut, gain
    return best


def figures(scored: Sequence[tuple[float, bool]], cut: float) -> dict[str, int]:
    kept = [right for p, right in scored if p >= cut]
    return {"examples": len(scored), "answered": len(kept), "right": sum(kept),
            "wrong": len(kept) - sum(kept)}  # fmt: skip
