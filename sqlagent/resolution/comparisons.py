"""Bounds: "a capacity of at least 200 tons" on a number column, "more than 40 work orders"
on how many rows of a table each answer has."""

from registries.services import SemanticLayer
from sqlagent.plan import NUMERIC, ColumnRef, Filter
from sqlagent.question_terms import Comparison, QuestionTerms
from sqlagent.resolution.resolved import Resolved, mention_lengths
from sqlagent.vocabulary import UNITS, phrase, unit_of


def resolve_comparison(
    comparison: Comparison, terms: QuestionTerms, layer: SemanticLayer, out: Resolved
) -> None:
    """ "a capacity of at least 200 tons" bounds a number column; "more than 40 work orders"
    bounds how many rows of a table each answer has."""
    at = comparison.position
    norms = [t.norm for t in terms.tokens]
    trailing = tuple(norms[at + 1 : at + 1 + len(comparison.words)]) == comparison.words
    start = at if trailing else at - len(comparison.words)  # the bound's first word
    past = at + 1 + (len(comparison.words) if trailing else 0)  # the word after it
    after = norms[past] if past < len(norms) else ""
    numeric = [
        (pos, ref)
        for pos, ref in out.columns
        if layer.tables[ref.table].columns[ref.column].data_type in NUMERIC
    ]
    named = [(pos, ref) for pos, ref in numeric if start - 4 <= pos < start]
    if not named and (after in UNITS or any(pos == past for pos, _ in numeric)):
        # "entries of more than 8 hours": an amount of the one table the question is about;
        # "work orders with more than 5 hours of work time" would need a sum: not placed.
        named = _amount_of_the_rows(after, past, layer, out)
        if len(named) != 1:
            return
    consumed = set(comparison.words)
    if named:
        pos, ref = max(named, key=lambda n: (n[0] < at, n[0]))
        if after and after in (unit_of(ref.column), phrase(ref.column).split()[-1]):
            consumed.add(after)  # "200 tons" of capacityTons
        value = int(comparison.value) if comparison.value.is_integer() else comparison.value
        why = f"{ref} {comparison.op} {value}: {' '.join(comparison.words)}"
        out.filters.append((pos, Filter((ref,), comparison.op, value, why)))
        out.columns = [(p, r) for p, r in out.columns if (p, r) != (pos, ref)]
    else:
        counted = _counted_after(past, terms, out)
        if counted is None:
            return
        pos, table = counted
        out.bounds.append((pos, table, comparison.op, comparison.value))
        why = f"{' '.join(comparison.words)} {comparison.value:g} {table} rows"
    out.consumed |= consumed
    out.compared.add(at)
    out.notes.append(why)


def _amount_of_the_rows(
    unit: str, past: int, layer: SemanticLayer, out: Resolved
) -> list[tuple[int, ColumnRef]]:
    """The number columns, of the one table the question is about, that `unit` names."""
    tables = out.tables()
    if len(tables) != 1:
        return []
    return [
        (past, ColumnRef(tables[0], c.name))
        for c in layer.tables[tables[0]].columns.values()
        if c.data_type in NUMERIC and unit in (unit_of(c.name), phrase(c.name))
    ]


def _counted_after(i: int, terms: QuestionTerms, out: Resolved) -> tuple[int, str] | None:
    """The rows a number counts: the thing named right after it (from token `i`), past the
    conditions that qualify it ("more than 40 emergency work orders")."""
    lengths = mention_lengths(terms)
    conditions = {pos: found.columns[0].table for pos, found in out.filters}
    entities = {pos: table for pos, table, _ in out.entities}
    last: tuple[int, str] | None = None
    while i < len(terms.tokens):
        if i in entities:
            # "more than 400 customer assets": of things named one after the other, the
            # last is the thing counted, the others say whose
            while (after := i + lengths.get(i, 1)) in entities:
                i = after
            return i, entities[i]
        if i not in conditions:
            break
        last = i, conditions[i]
        i += lengths.get(i, 1)
    # "more than 3 overdue invoices": a term that is a condition is the thing itself.
    return last if last is not None and last[0] in _terms_said(terms) else None


def _terms_said(terms: QuestionTerms) -> set[int]:
    return {m.position for m in terms.mentions if m.best.kind == "term"}
