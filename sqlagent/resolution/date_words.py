"""Dates a verb or its noun names ("completion": completedAt): the days between two of
them, and "not started yet" (an empty date)."""

from registries.services import SemanticLayer
from sqlagent.dates import DATE_VERBS
from sqlagent.plan import DATES, ColumnRef, Filter
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution.resolved import Resolved


def _dated_by(
    word: str, tables: list[str], layer: SemanticLayer, *, unset: bool
) -> list[ColumnRef]:
    """The date columns of `tables` a verb or its noun names ("completion": completedAt);
    with `unset`, only those that may be empty."""
    stems = {stem for verb, stem in DATE_VERBS.items() if word.startswith(verb) and stem != "date"}
    return [
        ColumnRef(t, c.name)
        for t in tables
        for c in layer.tables[t].columns.values()
        if c.data_type in DATES
        and any(stem in c.name.lower() for stem in stems)
        and (c.nullable or not unset)
    ]


def resolve_span(terms: QuestionTerms, layer: SemanticLayer, out: Resolved) -> None:
    """ "how many days passed between the scheduled start and the completion": the days from
    one date column to another of the same rows."""
    norms = [t.norm for t in terms.tokens]
    if "day" not in norms or "between" not in norms:
        return
    day, between = norms.index("day"), norms.index("between")
    if not 0 < between - day <= 3 or "and" not in norms[between:]:
        return
    and_ = norms.index("and", between)
    stop = next(
        (i for i in range(and_ + 1, len(norms)) if norms[i] in ("of", "for", "in", "on")),
        len(norms),
    )
    sides = (range(between + 1, and_), range(and_ + 1, stop))
    # A date named by its column fixes the rows; the other may be named by a verb's noun.
    named = [_span_end(terms, side, [], layer, out) for side in sides]
    tables = list(dict.fromkeys(end[1].table for end in named if end)) or out.tables()
    first, second = (
        end or _span_end(terms, side, tables, layer, out)
        for end, side in zip(named, sides, strict=True)
    )
    if first is None or second is None or first[1].table != second[1].table:
        return
    out.span = (first[1], second[1])
    # "passed" and "days" are the span's words here, not a result or a column
    spoken = set(range(day, between + 1)) | {first[0], second[0]}
    out.filters = [(p, f) for p, f in out.filters if p not in spoken]
    out.columns = [(p, c) for p, c in out.columns if p not in spoken]
    out.consumed |= {norms[i] for i in range(day, between + 1)} | {
        norms[first[0]],
        norms[second[0]],
    }
    out.notes.append(f"days from {first[1]} to {second[1]}")


def _span_end(
    terms: QuestionTerms, where: range, tables: list[str], layer: SemanticLayer, out: Resolved
) -> tuple[int, ColumnRef] | None:
    """The one date column named in `where`: by its name, or by a verb or its noun."""
    named = [
        (p, c)
        for p, c in out.columns
        if p in where and layer.tables[c.table].columns[c.column].data_type in DATES
    ]
    for i in where:
        if terms.tokens[i].norm in terms.unknown:
            named += [(i, c) for c in _dated_by(terms.tokens[i].norm, tables, layer, unset=False)]
    return named[0] if len(named) == 1 else None


def resolve_not_yet(terms: QuestionTerms, layer: SemanticLayer, out: Resolved) -> None:
    """ "not started yet": the one empty-able date column the verb names is empty."""
    norms = [t.norm for t in terms.tokens]
    for i, word in enumerate(norms):
        if word not in ("not", "never") or word in out.consumed:
            continue
        j = i + 2 if i + 2 < len(norms) and norms[i + 1] == "yet" else i + 1
        verb = norms[j] if j < len(norms) else ""
        if verb not in terms.unknown or not verb.endswith("ed"):
            continue
        found = _dated_by(verb, out.tables(), layer, unset=True)
        if len(found) != 1:
            continue
        out.filters.append(
            (j, Filter((found[0],), "is_null", None, f"not {verb}: {found[0]} empty"))
        )
        out.consumed |= {word, verb, "yet"}
        out.notes.append(f"'not {verb}' -> {found[0]} IS NULL")
