"""A verified SQL made to fit a rewording: the literals the new question changes are swapped.

The two questions are aligned word by word. A literal of the SQL that the verified question
spells out ('France', 30, '%son%') and that the new question replaces with other words takes
those words: a number for a number, a stored value of the same column for a text (with the
value's own spelling), the same pattern around a LIKE's words. A literal the verified question
does not spell out ('Y', the 1 of a LIMIT nobody named) stays as confirmed, and so does one
the new question names again anywhere, or does not name at all (counted: evidence against).
"""

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlglot import exp

from sqlagent.linking.question import Word
from sqlagent.linking.values import StoredValues, value_key


@dataclass
class Fitted:
    statement: exp.Expression
    swapped: list[tuple[str, str]] = field(default_factory=list)  # (confirmed, asked)
    unnamed: int = 0  # literals the verified question spells out and this one does not
    asked_used: set[int] = field(default_factory=set)  # words of the question swapped in
    verified_used: set[int] = field(default_factory=set)  # words of the verified one replaced


def fit_literals(
    asked: tuple[Word, ...],
    verified: tuple[Word, ...],
    statement: exp.Expression,
    values: StoredValues,
) -> Fitted:
    """The verified SQL with the question's literals, where it names others. A literal the
    question no longer names stays as confirmed and is counted in `unnamed`: whether it
    still holds ("from Italy" asked as "Italian") is for the caller's evidence to weigh."""
    fitted = Fitted(statement.copy())
    blocks = difflib.SequenceMatcher(
        None, [w.lower for w in verified], [w.lower for w in asked], autojunk=False
    ).get_opcodes()
    spelled = []
    for literal in list(fitted.statement.find_all(exp.Literal)):
        span = _spelled(literal, verified)
        if span is None:
            continue
        again = _spelled(literal, asked)
        if again is not None:  # named again, wherever it stands
            fitted.asked_used.update(range(*again))
            fitted.verified_used.update(range(*span))
        else:
            spelled.append((literal, span))
    # Only then the swaps, from words no other literal took: "in 1989" asked of "in 1989
    # and in 1990" keeps 1989 and leaves 1990 unnamed, not 1989 twice.
    for literal, span in spelled:
        replacement = _replacement(literal, span, verified, asked, blocks, values)
        if replacement is None or fitted.asked_used.intersection(replacement[1]):
            fitted.unnamed += 1
            continue
        new, used = replacement
        fitted.swapped.append((literal.sql(), new.sql()))
        fitted.asked_used.update(used)
        fitted.verified_used.update(range(*span))
        literal.replace(new)
    return fitted


def _replacement(
    literal: exp.Literal,
    span: tuple[int, int],
    verified: tuple[Word, ...],
    asked: tuple[Word, ...],
    blocks: Sequence[tuple[str, int, int, int, int]],
    values: StoredValues,
) -> tuple[exp.Expression, list[int]] | None:
    """What the question puts where the verified one spelled the literal: the words the
    aligned block replaces it with, when they are a number for a number or a value of the
    compared column for a text."""
    block = next((b for b in blocks if b[1] <= span[0] < b[2]), None)
    if block is None or block[0] != "replace" or span[1] > block[2]:
        return None
    _, v_start, v_end, a_start, a_end = block
    kept = {verified[i].lower for i in range(v_start, v_end) if i not in range(*span)}
    new = [i for i in range(a_start, a_end) if asked[i].lower not in kept]
    if literal.is_number:
        numbers = [i for i in new if asked[i].number is not None]
        if len(numbers) != 1:
            return None
        number = asked[numbers[0]].number
        assert number is not None
        return exp.Literal.number(int(number) if number == int(number) else number), numbers
    column = _compared_column(literal)
    pattern = str(literal.this)
    for start, end in _runs(new):
        text = " ".join(asked[i].text for i in range(start, end))
        stored = [v for _, c, v in values.find(text) if column is None or c.lower() == column]
        named = all(asked[i].capitalised or asked[i].quoted for i in range(start, end))
        if stored or (named and (column is None or column not in values.columns)):
            core = pattern.strip("%")
            value = stored[0] if stored else text
            swapped = pattern.replace(core, value, 1) if core else value
            return exp.Literal.string(swapped), list(range(start, end))
    return None


def _runs(indexes: list[int]) -> list[tuple[int, int]]:
    """Every run of consecutive indexes, longest first."""
    runs = []
    for i, start in enumerate(indexes):
        for j in range(i, len(indexes)):
            if indexes[j] - start != j - i:
                break
            runs.append((start, indexes[j] + 1))
    return sorted(runs, key=lambda r: r[0] - r[1])


def _spelled(literal: exp.Literal, words: tuple[Word, ...]) -> tuple[int, int] | None:
    """Where the question spells the literal out, as a span of its words."""
    if literal.is_number:
        number = float(literal.this)
        at = [i for i, w in enumerate(words) if w.number == number]
        return (at[0], at[0] + 1) if len(at) == 1 else None
    key = value_key(str(literal.this).strip("%"))
    if not key:
        return None
    for size in range(1, min(8, len(words)) + 1):
        for start in range(len(words) - size + 1):
            if value_key(" ".join(w.text for w in words[start : start + size])) == key:
                return start, start + size
    return None


def _compared_column(literal: exp.Literal) -> str | None:
    parent = literal.parent
    while isinstance(parent, exp.Paren | exp.Tuple):
        parent = parent.parent
    if isinstance(parent, exp.Binary | exp.In):
        for side in (parent.this, parent.args.get("expression")):
            if isinstance(side, exp.Column):
                return side.name.lower()
    return None


def unsaid_numbers(
    words: tuple[Word, ...], verified: tuple[Word, ...], fitted: Fitted
) -> set[float]:
    """Numbers the verified question says, still in its SQL, that this question does not."""
    mine = {w.number for w in words if w.number is not None}
    theirs = {
        w.number
        for i, w in enumerate(verified)
        if w.number is not None and i not in fitted.verified_used
    }
    kept = {n for literal in fitted.statement.find_all(exp.Literal) for n in _said_in(literal)}
    return (theirs - mine) & kept


def _said_in(literal: exp.Literal) -> set[float]:
    """The number a literal holds: its value, or the year of a date ('2025-01-01')."""
    if literal.is_number:
        return {float(literal.this)}
    year = re.match(r"(\d{4})-\d\d", str(literal.this))
    return {float(year.group(1))} if year else set()


def without_conditions_on(statement: exp.Expression, numbers: set[float]) -> exp.Expression | None:
    """The statement without the conditions of its WHERE that hold the numbers; None when one
    of them stands anywhere else."""
    trimmed = statement.copy()
    where = trimmed.args.get("where")
    if not isinstance(trimmed, exp.Select) or where is None:
        return None
    conditions: list[exp.Expr] = (
        list(where.this.flatten()) if isinstance(where.this, exp.And) else [where.this]
    )

    def held(node: exp.Expr, *, dates: bool = False) -> int:
        return sum(
            1
            for lit in node.find_all(exp.Literal)
            if (lit.is_number or dates) and _said_in(lit) & numbers
        )

    # a year in a date range ('2025-01-01' to '2026-01-01') is not one condition to drop
    holding = [c for c in conditions if held(c)]
    if not holding or sum(held(c) for c in holding) != held(trimmed, dates=True):
        return None
    kept = [c for c in conditions if not held(c)]
    trimmed.set("where", exp.Where(this=exp.and_(*kept)) if kept else None)
    return trimmed
