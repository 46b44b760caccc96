"""A thing's number: "the ticket numbers of urgent jobs" asks for the column of the
thing's table named for its number (workOrderNumber), not for a count."""

from registries.services import SemanticLayer
from sqlagent.plan import ColumnRef
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
