"""Execution accuracy: does an answer hold the gold result?

Every gold column must match one distinct column of the answer, and the rows must agree as
multisets on those columns. Extra display columns in the answer are allowed, column order
is ignored, and row order counts only where the gold SQL orders.
"""

import datetime
import re
from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d")


def normalise(value: Any) -> Any:
    """One form for a value whichever way it travelled (driver, JSON, exact decimal text)."""
    if isinstance(value, str) and _NUMBER.fullmatch(value):
        value = Decimal(value)
    elif isinstance(value, str) and _TIMESTAMP.match(value):
        return value[:10] + "T" + value[11:19]
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal | float | int):
        number = round(float(value), 2)
        return int(number) if number.is_integer() else number
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()[:19]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def _column(rows: Sequence[Sequence[Any]], index: int) -> list[Any]:
    return [normalise(row[index]) for row in rows]


def matches(
    gold: Sequence[Sequence[Any]], answer: Sequence[Sequence[Any]], *, ordered: bool
) -> bool:
    if len(gold) != len(answer):
        return False
    if not gold:
        return True
    width, answer_width = len(gold[0]), len(answer[0])
    if answer_width < width:
        return False
    candidates = []
    for g in range(width):
        wanted = Counter(map(repr, _column(gold, g)))
        fits = [a for a in range(answer_width) if Counter(map(repr, _column(answer, a))) == wanted]
        if not fits:
            return False
        candidates.append(fits)
    gold_rows = [tuple(normalise(v) for v in row) for row in gold]
    for chosen in _assignments(candidates, answer_width):
        projected = [tuple(normalise(row[a]) for a in chosen) for row in answer]
        if ordered and projected == gold_rows:
            return True
        if not ordered and Counter(map(repr, projected)) == Counter(map(repr, gold_rows)):
            return True
    return False


def _assignments(candidates: list[list[int]], width: int) -> list[tuple[int, ...]]:
    """Distinct answer columns for each gold column, at most 51 ways: a search over each
    gold column's fitting columns, never over every ordering of a wide answer's columns."""
    found: list[tuple[int, ...]] = []

    def walk(chosen: tuple[int, ...]) -> None:
        if len(found) > 50:
            return
        if len(chosen) == len(candidates):
            found.append(chosen)
            return
        for column in candidates[len(chosen)]:
            if column not in chosen and column < width:
                walk((*chosen, column))

    walk(())
    return found
