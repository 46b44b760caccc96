"""Fitting the rewording model: it learns from each question's best candidate, and its
threshold keeps the near misses out."""

import random

from sqlagent.verified.training import Asked, decisions, fit


def _asked(rng: random.Random, reworded: bool) -> Asked:
    """A rewording's right candidate says the same shape; the near miss of a question that
    rewords nothing is as close in meaning but asks for a negation its SQL does not do."""
    near = {"cosine": rng.uniform(0.8, 0.95), "negation_differs": 0.0}
    far = {"cosine": rng.uniform(0.2, 0.5), "negation_differs": float(rng.random() < 0.5)}
    if reworded:
        return Asked("dev", [(near, True), (far, False)], True)
    return Asked("dev", [(near | {"negation_differs": 1.0}, False), (far, False)], False)


def test_the_threshold_answers_rewordings_and_declines_near_misses() -> None:
    rng = random.Random(3)
    asked = [_asked(rng, reworded=n % 2 == 0) for n in range(200)]
    fitted = fit(asked, cost=3.0)
    cut = float(fitted["threshold"])  # type: ignore[arg-type]
    scored = decisions(asked, fitted)
    answered = [right for p, right in scored if p >= cut]
    assert len(answered) >= 90 and all(answered)


def test_with_only_right_best_candidates_the_first_fit_stands() -> None:
    rng = random.Random(5)
    asked = [_asked(rng, reworded=True) for _ in range(20)]
    assert 0 < float(fit(asked, cost=3.0)["threshold"]) < 1  # type: ignore[arg-type]
