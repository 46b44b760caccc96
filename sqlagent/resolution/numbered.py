"""A thing's number: "the ticket numbers of urgent jobs" asks for the column of the
thing's table named for its number (workOrderNumber), not for a count; and a number
column followed by a number: "rated level 5" is the rows whose level is 5."""

from registries.services import SemanticLayer
from sqlagent.plan import NUMERIC, ColumnRef, Filter
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution.resolved import Resolved, mention_lengths
from sqlagent.vocabulary import phrase


def resolve_numbered(terms: QuestionTerms, layer: SemanticLayer, out: Resolved) -> None:
    lengths = mention_lengths(terms)
    ends = {pos + lengths.get(pos, 1): table for pos, table, _ in out.entities}
    for i, token in enumerate(terms.tokens):
        # right after the thing's name; "the number of jobs" is a count
        if token.norm != "number" or i not in ends:
            continue
        table = ends[i]
        numbers = [
            name
            for name in layer.tables[table].columns
            if not name.endswith("Id") and phrase(name).split()[-1:] == ["number"]
        ]
        own = [n for n in numbers if phrase(n) == f"{phrase(table)} number"]
        numbers = own or numbers  # workOrderNumber, not the work order's poNumber
        if len(numbers) == 1:
            out.columns.append((i, ColumnRef(table, numbers[0])))
            out.notes.append(f"'number' of {table} -> {table}.{numbers[0]}")


def resolve_column_numbers(terms: QuestionTerms, layer: SemanticLayer, out: Resolved) -> None:
    """ "level 5", "floor 3": a number said right after a number column is its value.
    Bounds ("a level of more than 3") are placed before this and keep their numbers."""
    lengths = mention_lengths(terms)
    for value, position in terms.numbers:
        if position in out.compared or value == terms.shape.top_n or not value.is_integer():
            continue
        before = [
            (pos, ref)
            for pos, ref in out.columns
            if pos + lengths.get(pos, 1) == position
            and layer.tables[ref.table].columns[ref.column].data_type in NUMERIC
        ]
        if len(before) != 1:
            continue
        pos, ref = before[0]
        out.filters.append((pos, Filter((ref,), "=", int(value), f"{ref} = {int(value)}")))
        out.columns = [(p, r) for p, r in out.columns if (p, r) != (pos, ref)]
        out.compared.add(position)
        out.notes.append(f"{ref} = {int(value)}: the number said after it")
