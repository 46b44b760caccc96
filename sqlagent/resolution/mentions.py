"""Phrases the vocabulary knows: a term, a table, a role ("the account manager of X"), a
group of columns, or a value, flag or column of the table nearest the question's tables."""

from core.language import word_tags
from registries.services import SemanticLayer
from sqlagent.plan import ColumnRef, Filter
from sqlagent.question_terms import Mention, QuestionTerms
from sqlagent.resolution.context import far, head_table, in_context
from sqlagent.resolution.resolved import Resolved, Said, negated_before, negation_words
from sqlagent.resolution.terms import resolve_term
from sqlagent.vocabulary import AMOUNT_WORDS, Entry, own_total, phrase

# Verbs that are also column names somewhere ("make" of a vehicle).
FILLER_VERBS = frozenset({"make", "made", "use", "used", "hold", "own", "carry", "book"})
PERIODS = frozenset({"month", "year"})


def resolve_mention(
    mention: Mention,
    terms: QuestionTerms,
    layer: SemanticLayer,
    context: set[str],
    out: Resolved,
    *,
    catalogue: bool = False,
) -> None:
    entry = mention.best
    negated = negated_before(terms, mention.position)
    if negated:
        out.consumed |= negation_words(terms, mention.position)
    said = Said(mention, negated, head_table(mention, terms, layer))
    if entry.kind == "term" and entry.term:
        resolve_term(said, entry.term, layer, context, out, catalogue=catalogue)
        return
    if entry.kind == "table":
        out.entities.append((mention.position, entry.table, f"named: {mention.text!r}"))
        return
    if entry.kind == "group":
        out.columns += [(mention.position, ColumnRef(entry.table, c)) for c in entry.columns]
        out.notes.append(f"{mention.text!r} -> {entry.table}.{', '.join(entry.columns)}")
        return
    roles = [e for e in mention.entries if e.kind == "role" and e.value in context]
    if len(roles) == 1:
        _resolve_role(mention, roles[0], layer, out)
        return
    tags = word_tags(tuple(t.text for t in terms.tokens))
    verb = tags[mention.position].startswith("VB")  # "which manufacturers make forklifts"
    _resolve_column_meaning(
        said, layer, context, out, owner=_table_before(mention, terms), as_verb=verb
    )


def _table_before(mention: Mention, terms: QuestionTerms) -> str | None:
    """The table named right before a mention ("invoice" in "the invoice amount")."""
    for other in terms.mentions:
        if other.position + other.length == mention.position:
            tables = [e.table for e in other.entries if e.kind == "table"]
            return tables[0] if len(tables) == 1 else None
    return None


def _resolve_role(mention: Mention, entry: Entry, layer: SemanticLayer, out: Resolved) -> None:
    owner, column = entry.value, entry.column
    why = f"the {mention.text!r} of {owner} ({owner}.{column})"
    out.entities.append((mention.position, entry.table, why))
    out.via.extend(
        r for r in layer.relationships if r.from_table == owner and r.from_column == column
    )
    out.notes.append(f"{mention.text!r} -> {entry.table} through {owner}.{column}")


def _resolve_column_meaning(
    said: Said,
    layer: SemanticLayer,
    context: set[str],
    out: Resolved,
    *,
    owner: str | None,
    as_verb: bool = True,
) -> None:
    """A value, a flag or a column, in the table the words single out."""
    mention, negated = said.mention, said.negated
    entries = tuple(e for e in mention.entries if e.kind != "role")
    if not entries:
        out.unresolved.append(mention.text)
        return
    if owned := _owners_amount(mention, entries, owner, layer):
        out.columns.append((mention.position, owned))
        out.notes.append(f"{mention.text!r} of {owner} -> {owned}")
        return
    # "active employees", "completed inspections": a word before a thing is said of it.
    said_of = [e for e in entries if e.table == said.head]
    chosen = said_of[0] if said_of else in_context(entries, context, layer)
    if chosen.kind == "column" and mention.text.lower() in FILLER_VERBS and as_verb:
        return  # "which manufacturers make forklifts": a verb, not vehicle.make
    if _is_filter(chosen, layer) and context and far(chosen.table, context, layer):
        # "inspections passed" is not employeeTraining.isPassed, two joins away.
        out.unresolved.append(mention.text)
        return
    if mention.text.lower() in PERIODS and context and chosen.table not in context:
        return  # "payments each year" are grouped by their date, not by vehicle.year
    ref = ColumnRef(chosen.table, chosen.column)
    if chosen.kind == "value":
        op = "!=" if negated else "="
        out.filters.append((mention.position, Filter((ref,), op, chosen.value, f"value of {ref}")))
        out.notes.append(f"{mention.text!r} -> {ref} = {chosen.value!r}")
        return
    column = layer.tables[chosen.table].columns.get(chosen.column)
    if column is not None and column.data_type == "boolean":
        value = not negated
        adjective = phrase(chosen.column).removeprefix("is ")
        if mention.text.lower().replace(" ", "") in (f"in{adjective}", f"un{adjective}"):
            value = not value  # "inactive" against isActive
        out.filters.append((mention.position, Filter((ref,), "=", value, f"flag {ref}")))
        return
    out.columns.append((mention.position, ref))


def _owners_amount(
    mention: Mention, entries: tuple[Entry, ...], owner: str | None, layer: SemanticLayer
) -> ColumnRef | None:
    """ "the invoice amount": an amount said right after a table without a column of that
    name is the table's own total (invoice.total), not the amount of its lines."""
    if owner is None or mention.text.lower() not in AMOUNT_WORDS:
        return None
    if any(e.table == owner for e in entries):
        return None  # the table has a column called so
    total = own_total(layer, owner)
    return ColumnRef(owner, total) if total else None


def _is_filter(entry: Entry, layer: SemanticLayer) -> bool:
    if entry.kind == "value":
        return True
    column = layer.tables[entry.table].columns.get(entry.column)
    return entry.kind == "column" and column is not None and column.data_type == "boolean"
