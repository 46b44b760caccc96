"""Conditions joined by "or": "customers in Texas or Arizona", "urgent or emergency work
orders" are the rows with either value (IN), "urgent or on hold" either condition (OR),
not both."""

from sqlagent.plan import Filter
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution.resolved import Resolved, mention_lengths


def resolve_either(terms: QuestionTerms, out: Resolved) -> None:
    spans = _filter_spans(terms, out)
    by_start = {start: i for i, (start, _) in enumerate(spans)}
    by_end = {end: i for i, (_, end) in enumerate(spans)}
    merged: dict[int, int] = {}  # filter index -> the filter it joins
    ors = [k for k, token in enumerate(terms.tokens) if token.norm == "or"]
    for k in ors:
        if k not in by_end or k + 1 not in by_start:
            continue
        left, right = merged.get(by_end[k], by_end[k]), by_start[k + 1]
        joined = _either(out.filters[left][1], out.filters[right][1])
        if joined is None:
            continue
        out.filters[left] = (out.filters[left][0], joined)
        merged[right] = left
    if ors and len(merged) == len(ors):  # every "or" read; any other still declines
        out.consumed.add("or")
    out.filters = [found for i, found in enumerate(out.filters) if i not in merged]


def _either(one: Filter, other: Filter) -> Filter | None:
    """One column's values as IN; conditions on one table's rows as OR ("urgent or on
    hold"); None across tables, where "or" would change which rows the question is about."""
    if one.columns == other.columns and one.op in ("=", "in") and other.op == "=":
        values = (*one.value, other.value) if one.op == "in" else (one.value, other.value)
        why = f"{one.columns[0]} is one of {', '.join(repr(v) for v in values)}"
        return Filter(one.columns, "in", values, why)
    if one.tables == other.tables and len(one.tables) == 1:
        members = (*one.value, other) if one.op == "any" else (one, other)
        columns = tuple(dict.fromkeys(c for m in members for c in m.columns))
        return Filter(columns, "any", members, " or ".join(m.reason for m in members))
    return None


def _filter_spans(terms: QuestionTerms, out: Resolved) -> list[tuple[int, int]]:
    """Each filter's words, [start, end): a mention starts where its filter is, a proper
    name ends there."""
    lengths = mention_lengths(terms)
    names = {end - 1: len(text.split()) for text, end in terms.names}
    spans = []
    for pos, _ in out.filters:
        if pos in lengths:
            spans.append((pos, pos + lengths[pos]))
        elif pos in names:
            spans.append((pos + 1 - names[pos], pos + 1))
        else:
            spans.append((pos, pos + 1))
    return spans
