"""Words that say a value is not wanted, and how far their negation reaches."""

from sqlagent.linking import signals as sig
from sqlagent.linking.intent import Condition
from sqlagent.linking.schema_words import Element


def negates(before: list[str], n: int) -> bool:
    """Whether the word at `n` says the value after it is not wanted: "not", "never", and
    "excluding", "other than", "leaving out"."""
    low = before[n]
    if low in sig.NEGATIONS:
        return True
    if low == "other":
        return before[n + 1 : n + 2] == ["than"]
    if low == "out":
        return before[n - 1 : n] in (["leaving"], ["leave"], ["left"])
    return low in sig.EXCLUSIONS


def negated_list(conditions: list[Condition], element: Element, joined: list[str]) -> bool:
    """A value said after "or" beside a negated one of the same column ("not France or
    Spain"): the negation is of both."""
    last = conditions[-1] if conditions else None
    return (
        last is not None
        and last.op == "!="
        and last.element == element
        and "or" in joined
        and len(joined) <= 3
        and not any(negates(joined, n) for n in range(len(joined)))
    )
