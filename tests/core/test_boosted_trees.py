import random

from core.boosted_trees import fit_trees, tree_probability, tree_upper_bound

FEATURES = ("share", "rows", "empty")


def _examples(n: int, seed: int) -> tuple[list[dict[str, float]], list[bool]]:
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(n):
        row = {
            "share": rng.random(),
            "rows": float(rng.randint(0, 50)),
            "empty": rng.random() < 0.3,
        }
        # right when little is unexplained and rows came back: an interaction
        labels.append((row["share"] < 0.4 and not row["empty"]) or rng.random() < 0.1)
        rows.append({k: float(v) for k, v in row.items()})
    return rows, labels


def test_stored_trees_score_as_the_fitted_model_does() -> None:
    from sklearn.ensemble import GradientBoostingClassifier

    rows, labels = _examples(600, 1)
    fitted = fit_trees(rows, labels, FEATURES)
    x = [[r[n] for n in FEATURES] for r in rows]
    again = GradientBoostingClassifier(
        n_estimators=len(fitted["trees"]), max_depth=3, learning_rate=fitted["rate"],
        subsample=0.8, min_samples_leaf=30, random_state=0,
    ).fit(x, labels)  # fmt: skip
    expected = again.predict_proba(x)[:, 1]
    assert (
        max(abs(tree_probability(r, fitted) - e) for r, e in zip(rows, expected, strict=True))
        < 1e-6
    )
    # and it learnt the interaction: unexplained words and no rows are both bad signs
    good = tree_probability({"share": 0.1, "rows": 5.0, "empty": 0.0}, fitted)
    assert good > 0.8 > tree_probability({"share": 0.1, "rows": 0.0, "empty": 1.0}, fitted)


def test_the_upper_bound_holds_whatever_the_rows_show() -> None:
    rows, labels = _examples(600, 2)
    fitted = fit_trees(rows, labels, FEATURES)
    free = frozenset({"rows", "empty"})
    for share in (0.05, 0.3, 0.7):
        bound = tree_upper_bound({"share": share}, fitted, free)
        seen = [
            tree_probability({"share": share, "rows": float(n), "empty": float(e)}, fitted)
            for n in range(0, 51, 5)
            for e in (0, 1)
        ]
        assert max(seen) <= bound + 1e-9
        assert bound - max(seen) < 0.2  # a bound, but not a useless one
