"""Fitting the rewording model from a question set whose verified pairs are imported.

Each question of the set is matched against its data source's verified queries as the
agent would; every candidate is an example, right when its SQL, with the question's
literals fitted, is the question's gold SQL. Each question is matched twice: against every
verified query, and against all but those with its gold SQL, since most questions people
ask reword nothing verified, and the model must learn to decline those too. Only questions
of development databases train (`registries.services.spider_split`; a question without a
database counts as development).
The model is fitted twice: on every candidate, then again on each question's best candidate
by the first fit, since those are the ones it decides on (a candidate that never comes first
teaches it little about the near misses that do). The threshold is the one that maximises
right minus `cost` times wrong answers among the best candidates of development questions.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import sqlglot
from sqlglot import exp

from core.calibration import best_threshold, figures, fit_logistic, probability
from core.providers.query_embeddings import embed_query
from registries.services import spider_split
from sqlagent.agent import Source
from sqlagent.evaluation import Case
from sqlagent.linking.schema_words import schema_words
from sqlagent.linking.values import stored_values
from sqlagent.verified.matching import FEATURES, Match, matches
from sqlagent.verified.store import Pool, usable

C = 0.5


@dataclass(frozen=True)
class Asked:
    split: str
    candidates: list[tuple[dict[str, float], bool]]  # every candidate's features, and right?
    reworded: bool  # its gold SQL is among the verified queries it was matched against


def gather(cases: Iterable[Case], source_for: Callable[[Case], str]) -> list[Asked]:
    found = []
    for case in cases:
        target = Source.named(source_for(case))
        values = stored_values(target.layer, target.url, agent=target.agent_login)
        dialect = target.layer.dialect
        gold = _normal(case.sql, dialect)
        pool = usable(target.layer)
        split = spider_split(case.db) if case.db else "dev"
        others = Pool(k for k in pool if _normal(k.sql, dialect) != gold)
        for reworded, known in ((True, pool), (False, others)):
            candidates = matches(
                case.question,
                embed_query(case.question),
                known,
                schema=schema_words(target.layer),
                values=values,
            )
            labelled = [(m.features, _normal_of(m, dialect) == gold) for m in candidates]
            found.append(Asked(split, labelled, reworded and len(others) < len(pool)))
    return found


def fit(asked: list[Asked], *, cost: float) -> dict[str, object]:
    dev = [a for a in asked if a.split == "dev"]
    rows = [pair for a in dev for pair in a.candidates]
    first = fit_logistic([f for f, _ in rows], [right for _, right in rows], FEATURES, c=C)
    best = [max(a.candidates, key=lambda c: probability(c[0], first)) for a in dev if a.candidates]
    labels = [right for _, right in best]
    # Too few questions for both kinds among the best candidates: the first fit stands.
    fitted = first
    if len(set(labels)) == 2:
        fitted = fit_logistic([f for f, _ in best], labels, FEATURES, c=C)
    fitted["threshold"] = round(best_threshold(decisions(dev, fitted), cost=cost), 4)
    fitted["trained_on"] = {
        "questions": len(dev),
        "candidates": len(rows),
        "best": len(best),
        "cost": cost,
    }
    return fitted


def decisions(asked: list[Asked], fitted: dict[str, object]) -> list[tuple[float, bool]]:
    """Each question's best candidate by the model: its probability, and whether it is right
    (a question without a candidate counts as a decline at any cut)."""
    found = []
    for a in asked:
        scored = [(probability(f, fitted), right) for f, right in a.candidates]
        if scored:
            found.append(max(scored, key=lambda pair: pair[0]))
    return found


def report(
    asked: list[Asked], fitted: dict[str, object], split: str, *, reworded: bool
) -> dict[str, int]:
    half = [a for a in asked if a.split == split and a.reworded == reworded]
    numbers = figures(decisions(half, fitted), float(fitted["threshold"]))  # type: ignore[arg-type]
    numbers["questions"] = len(half)
    numbers["reachable"] = sum(1 for a in half if any(right for _, right in a.candidates))
    return numbers


@lru_cache(maxsize=20_000)
def _normal(sql: str, dialect: str) -> str:
    try:
        return sqlglot.parse_one(sql, read=dialect).sql(dialect=dialect).lower()
    except sqlglot.errors.ParseError:
        return sql.lower()


def _normal_of(match: Match, dialect: str) -> str:
    statement: exp.Expression = match.statement
    return statement.sql(dialect=dialect).lower()
