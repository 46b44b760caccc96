"""The tables a question involves, and how near a meaning's table is to them: ambiguous
words are read in that context."""

from django.conf import settings

from registries.services import SemanticLayer
from sqlagent.join_paths import shortest_path
from sqlagent.question_terms import Mention, QuestionTerms
from sqlagent.value_index import ValueIndex
from sqlagent.vocabulary import Entry, singular

_UNREACHED = 99  # the distance of a table no join path reaches


def question_context(
    terms: QuestionTerms, layer: SemanticLayer, values: ValueIndex
) -> tuple[set[str], bool]:
    """The tables named outright (by name, a structural term or a proper name), and whether
    only catalogue tables are named ("which manufacturers"): kinds are then read there."""
    context: set[str] = set()
    for mention in terms.mentions:
        if mention.best.kind == "table":
            context.add(mention.best.table)
        elif mention.best.kind == "term" and mention.best.term:
            for r in mention.best.term.resolutions:
                if r.match_type == "structural" and r.rank == "primary":
                    context.update(t for t in r.tables if t in layer.tables)
    catalogue = bool(context) and all(layer.tables[t].role == "reference" for t in context)
    for name, _ in terms.names:
        # "Crane Technicians": the stored 'Crane Technician', said in the plural
        *first, last = name.lower().split() or [""]
        said = {name.lower(), " ".join([*first, singular(last)])}
        context.update(t for t, _, v in values.values if v.lower() in said)
    return context, catalogue


def head_table(mention: Mention, terms: QuestionTerms, layer: SemanticLayer) -> str | None:
    """The table named right after a mention (the last of a compound's), by its name or a
    term for it, or the one table of a flag said as a noun ("active technicians": the
    employees isTechnician marks)."""
    for other in terms.mentions:
        if other.position != mention.position + mention.length:
            continue
        if other.best.kind == "table":
            # "active service contracts": the last noun of a compound is the thing
            return head_table(other, terms, layer) or other.best.table
        if other.best.kind == "term" and other.best.term:
            primary = [r for r in other.best.term.resolutions if r.rank == "primary"]
            for r in primary:
                if r.match_type in ("structural", "boolean") and len(r.tables) == 1:
                    return r.tables[0] if r.tables[0] in layer.tables else None
        flags = {e.table for e in other.entries if e.kind == "column" and _flag(e, layer)}
        if len(flags) == 1:
            return flags.pop()
    return None


def _flag(entry: Entry, layer: SemanticLayer) -> bool:
    column = layer.tables[entry.table].columns.get(entry.column)
    return column is not None and column.data_type == "boolean"


def join_distance(table: str, context: set[str], layer: SemanticLayer) -> int:
    """The fewest tables on a join path from `table` to one of `context`."""
    threshold, hops = settings.SQL_CONFIDENCE_THRESHOLD, settings.SQL_MAX_JOIN_HOPS
    lengths = [
        len(path)
        for other in context
        if (path := shortest_path(layer, table, other, threshold, hops)) is not None
    ]
    return min(lengths, default=_UNREACHED)


def far(table: str, context: set[str], layer: SemanticLayer) -> bool:
    """More than one join from every table the question involves."""
    return table not in context and join_distance(table, context, layer) > 2


def nearest(candidates: list[str], context: set[str], layer: SemanticLayer) -> list[str]:
    """The candidates at the smallest join distance from the context (all ties)."""
    if not context:
        return candidates
    distance = {table: join_distance(table, context, layer) for table in candidates}
    best = min(distance.values())
    return [t for t, d in distance.items() if d == best and d < _UNREACHED]


def in_context(entries: tuple[Entry, ...], context: set[str], layer: SemanticLayer) -> Entry:
    """The meaning in a table the question involves, else in the table nearest to one:
    "templates completed" reads the status of service (a hop from serviceTemplate)."""
    for entry in entries:
        if entry.table in context:
            return entry
    # "employees who passed the Lockout/Tagout course": the training that pairs them
    bridges = [e for e in entries if len(_referred(e.table, layer) & context) >= 2]
    if len(bridges) == 1:
        return bridges[0]
    best = [e for e in entries if e.kind == entries[0].kind]
    if len(best) == 1 or not context:
        return entries[0]
    return min(best, key=lambda entry: join_distance(entry.table, context, layer))


def _referred(table: str, layer: SemanticLayer) -> set[str]:
    return {r.to_table for r in layer.relationships if r.enabled and r.from_table == table}
