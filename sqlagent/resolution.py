"""Step 2: map what the question says to tables, columns and filters.

A domain term resolves through its resolutions in rank order (primary, then secondary,
then fallback); the first whose tables the question already involves wins, so "active
customers" reads customer.isActive although the term's primary is employee.isActive.
Match types: text_search and semantic become case-insensitive LIKE over the columns,
boolean and exact become equality, structural only brings tables in.
"""

from dataclasses import dataclass, field, replace

from django.conf import settings

from registries.semantic_layer import Relationship, Resolution, SemanticLayer, Term
from sqlagent.join_paths import shortest_path
from sqlagent.plan import ColumnRef, Filter
from sqlagent.question_terms import Mention, QuestionTerms
from sqlagent.value_index import ValueIndex
from sqlagent.vocabulary import Entry, phrase

# A state named in full matches the two-letter code columns hold ("Arizona" -> AZ).
US_STATES = {
    "alabama": "al", "alaska": "ak", "arizona": "az", "arkansas": "ar", "california": "ca",
    "colorado": "co", "connecticut": "ct", "delaware": "de", "florida": "fl", "georgia": "ga",
    "hawaii": "hi", "idaho": "id", "illinois": "il", "indiana": "in", "iowa": "ia",
    "kansas": "ks", "kentucky": "ky", "louisiana": "la", "maine": "me", "maryland": "md",
    "massachusetts": "ma", "michigan": "mi", "minnesota": "mn", "mississippi": "ms",
    "missouri": "mo", "montana": "mt", "nebraska": "ne", "nevada": "nv", "ohio": "oh",
    "oklahoma": "ok", "oregon": "or", "pennsylvania": "pa", "tennessee": "tn", "texas": "tx",
    "utah": "ut", "vermont": "vt", "virginia": "va", "washington": "wa", "wisconsin": "wi",
    "wyoming": "wy",
    "new york": "ny", "new jersey": "nj", "new mexico": "nm", "new hampshire": "nh",
    "north carolina": "nc", "south carolina": "sc", "north dakota": "nd", "south dakota": "sd",
    "west virginia": "wv", "rhode island": "ri",
}  # fmt: skip
# Verbs that are also column names somewhere ("make" of a vehicle).
FILLER_VERBS = frozenset({"make", "made", "use", "used", "hold", "own", "carry", "book"})
_NEGATIONS = ("not", "no longer", "non", "in", "un")


@dataclass
class Resolved:
    entities: list[tuple[int, str, str]] = field(default_factory=list)  # (token, table, why)
    filters: list[tuple[int, Filter]] = field(default_factory=list)  # (token, filter)
    columns: list[tuple[int, ColumnRef]] = field(default_factory=list)  # mentioned columns
    via: list[Relationship] = field(default_factory=list)  # joins a role word fixes
    consumed: set[str] = field(default_factory=set)  # words a reading took in (negations)
    notes: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)

    def tables(self) -> list[str]:
        seen = [t for _, t, _ in sorted(self.entities)]
        seen += [c.table for _, f in self.filters for c in f.columns[:1]]
        return list(dict.fromkeys(seen))


def _truthy(value: str | None) -> bool:
    return (value or "true").strip().lower() in ("true", "1", "yes")


def _negated_before(terms: QuestionTerms, position: int) -> bool:
    before = " ".join(t.norm for t in terms.tokens[max(0, position - 2) : position])
    return before.endswith(("not", "no longer", "non", "never"))


def _negation_words(terms: QuestionTerms, position: int) -> set[str]:
    """The words of a negation a filter has taken in ("no longer active")."""
    before = [t.norm for t in terms.tokens[max(0, position - 2) : position]]
    if before[-2:] == ["no", "longer"]:
        return {"no", "longer"}
    return {before[-1]} if before and before[-1] in ("not", "non", "never") else set()


def _choose(term: Term, layer: SemanticLayer, context: set[str]) -> Resolution | None:
    ranked = sorted(
        (r for r in term.resolutions if all(t in layer.tables for t in r.tables)),
        key=lambda r: ("primary", "secondary", "fallback").index(r.rank),
    )
    for resolution in ranked:
        if context & set(resolution.tables):
            return resolution
    return ranked[0] if ranked else None


def _on_context_table(
    resolution: Resolution, layer: SemanticLayer, context: set[str]
) -> Resolution:
    """A term about a column many tables share ("active": isActive) applies to the table
    the question is about when none of its resolutions names that table."""
    if resolution.match_type != "boolean" or len(resolution.columns) != 1:
        return resolution
    if not context or context & set(resolution.tables):
        return resolution
    name = resolution.columns[0].rpartition(".")[2]
    owners = sorted(t for t in context if name in layer.tables[t].columns)
    if len(owners) != 1:
        return resolution
    return replace(resolution, tables=(owners[0],), columns=(f"{owners[0]}.{name}",))


def _column_refs(resolution: Resolution) -> list[ColumnRef]:
    refs = []
    for column in resolution.columns:
        table, _, name = column.rpartition(".")
        refs.append(ColumnRef(table or resolution.tables[0], name))
    return refs


def _term_filter(term: Term, resolution: Resolution, negated: bool) -> Filter | None:
    columns = tuple(_column_refs(resolution))
    why = f"{term.name}: {resolution.rank} resolution, {resolution.match_type}"
    if resolution.match_type == "structural" or not columns:
        return None
    if resolution.match_type in ("text_search", "semantic"):
        pattern = (resolution.value or term.name).lower()
        return Filter(columns, "not_like" if negated else "like", pattern, why)
    if resolution.match_type == "boolean":
        value = _truthy(resolution.value) != negated
        return Filter(columns[:1], "=", value, why)
    nullness = (resolution.value or "").strip().upper()
    if nullness in ("IS NULL", "IS NOT NULL"):  # "left the company": terminationDate is set
        return Filter(
            columns[:1],
            "is_null" if (nullness == "IS NULL") != negated else "is_not_null",
            None,
            why,
        )
    return Filter(columns[:1], "!=" if negated else "=", resolution.value, why)


def resolve(terms: QuestionTerms, layer: SemanticLayer, values: ValueIndex) -> Resolved:
    out = Resolved()
    # Pass 1: tables named outright give the context the ambiguous words are read in.
    context: set[str] = set()
    for mention in terms.mentions:
        if mention.best.kind == "table":
            context.add(mention.best.table)
        elif mention.best.kind == "term" and mention.best.term:
            for r in mention.best.term.resolutions:
                if r.match_type == "structural" and r.rank == "primary":
                    context.update(t for t in r.tables if t in layer.tables)
    for name, _ in terms.names:
        context.update(t for t, _, v in values.values if v.lower() == name.lower())
    for mention in terms.mentions:
        _resolve_mention(mention, terms, layer, context, out)
    for word in terms.unknown:
        _resolve_head_noun(word, terms, layer, context | set(out.tables()), out)
    for code in terms.codes:
        _resolve_code(code, terms, values, out)
    for name, end in terms.names:
        _resolve_name(name, end, terms, layer, values, context | set(out.tables()), out)
    return out


def _resolve_mention(
    mention: Mention, terms: QuestionTerms, layer: SemanticLayer, context: set[str], out: Resolved
) -> None:
    entry = mention.best
    negated = _negated_before(terms, mention.position)
    if negated:
        out.consumed |= _negation_words(terms, mention.position)
    if entry.kind == "term" and entry.term:
        resolution = _choose(entry.term, layer, context - set(_term_tables(entry.term)) or context)
        if resolution is None:
            out.unresolved.append(mention.text)
            return
        resolution = _on_context_table(resolution, layer, context)
        found = _term_filter(entry.term, resolution, negated)
        if found is None:
            for table in resolution.tables:
                out.entities.append((mention.position, table, f"term {entry.term.name!r}"))
        else:
            out.filters.append((mention.position, found))
        out.notes.append(f"{mention.text!r} -> {found.reason if found else resolution.tables}")
        return
    if entry.kind == "table":
        out.entities.append((mention.position, entry.table, f"named: {mention.text!r}"))
        return
    roles = [e for e in mention.entries if e.kind == "role" and e.value in context]
    if len(roles) == 1:
        _resolve_role(mention, roles[0], layer, out)
        return
    entries = tuple(e for e in mention.entries if e.kind != "role")
    if not entries:
        out.unresolved.append(mention.text)
        return
    chosen = _in_context(entries, context, layer)
    if chosen.kind == "column" and mention.text.lower() in FILLER_VERBS:
        return  # "which manufacturers make forklifts": a verb, not vehicle.make
    if _is_filter(chosen, layer) and context and _far(chosen.table, context, layer):
        # "inspections passed" is not employeeTraining.isPassed, two joins away.
        out.unresolved.append(mention.text)
        return
    if chosen.kind == "value":
        ref = ColumnRef(chosen.table, chosen.column)
        op = "!=" if negated else "="
        out.filters.append((mention.position, Filter((ref,), op, chosen.value, f"value of {ref}")))
        out.notes.append(f"{mention.text!r} -> {ref} = {chosen.value!r}")
        return
    ref = ColumnRef(chosen.table, chosen.column)
    column = layer.tables[chosen.table].columns.get(chosen.column)
    if column is not None and column.data_type == "boolean":
        value = not negated
        adjective = phrase(chosen.column).removeprefix("is ")
        if mention.text.lower().replace(" ", "") in (f"in{adjective}", f"un{adjective}"):
            value = not value  # "inactive" against isActive
        out.filters.append((mention.position, Filter((ref,), "=", value, f"flag {ref}")))
        return
    out.columns.append((mention.position, ref))


def _resolve_role(mention: Mention, entry: Entry, layer: SemanticLayer, out: Resolved) -> None:
    owner, column = entry.value, entry.column
    why = f"the {mention.text!r} of {owner} ({owner}.{column})"
    out.entities.append((mention.position, entry.table, why))
    out.via.extend(
        r for r in layer.relationships if r.from_table == owner and r.from_column == column
    )
    out.notes.append(f"{mention.text!r} -> {entry.table} through {owner}.{column}")


def _resolve_head_noun(
    word: str, terms: QuestionTerms, layer: SemanticLayer, context: set[str], out: Resolved
) -> None:
    """ "work orders of each type", "safety checks of each template": a word that ends a
    table's name means that table when the question's other tables single it out, either
    by name (workOrder + type) or as the nearest through the joins."""
    if len(word) < 4:
        return
    for stem in (word[:-2], word[:-1]) if word.endswith("ed") else ():
        if stem in layer.tables and not out.entities:  # "the amount invoiced": invoice
            position = next(i for i, t in enumerate(terms.tokens) if t.norm == word)
            out.entities.append((position, stem, f"{word!r}: {stem} rows"))
            return
    candidates = [t for t in layer.tables if phrase(t).split()[-1:] == [word]]
    # "the site contact on work order X" is workOrder.siteContactName, not another table.
    in_columns = any(word in phrase(c).split() for t in context for c in layer.tables[t].columns)
    if not candidates or in_columns:
        return
    by_name = [t for t in candidates if any(phrase(t) == f"{phrase(c)} {word}" for c in context)]
    chosen = by_name if len(by_name) == 1 else _nearest(candidates, context, layer)
    if len(chosen) != 1:
        return
    position = next(i for i, t in enumerate(terms.tokens) if t.norm == word)
    out.entities.append((position, chosen[0], f"{word!r}: the {chosen[0]} of the question"))
    out.consumed.add(word)
    out.notes.append(f"{word!r} -> {chosen[0]}")


def _is_filter(entry: Entry, layer: SemanticLayer) -> bool:
    if entry.kind == "value":
        return True
    column = layer.tables[entry.table].columns.get(entry.column)
    return entry.kind == "column" and column is not None and column.data_type == "boolean"


def _far(table: str, context: set[str], layer: SemanticLayer) -> bool:
    """More than one join from every table the question involves."""
    threshold, hops = settings.SQL_CONFIDENCE_THRESHOLD, settings.SQL_MAX_JOIN_HOPS
    for other in context:
        path = shortest_path(layer, table, other, threshold, hops)
        if table == other or (path is not None and len(path) <= 2):
            return False
    return True


def _nearest(candidates: list[str], context: set[str], layer: SemanticLayer) -> list[str]:
    """The candidates at the smallest join distance from the context (all ties)."""
    if not context:
        return candidates
    threshold, hops = settings.SQL_CONFIDENCE_THRESHOLD, settings.SQL_MAX_JOIN_HOPS
    distance = {
        table: min(
            (
                len(path)
                for c in context
                if (path := shortest_path(layer, table, c, threshold, hops)) is not None
            ),
            default=99,
        )
        for table in candidates
    }
    best = min(distance.values())
    return [t for t, d in distance.items() if d == best and d < 99]


def _term_tables(term: Term) -> list[str]:
    return [t for r in term.resolutions for t in r.tables]


def _in_context(entries: tuple[Entry, ...], context: set[str], layer: SemanticLayer) -> Entry:
    """The meaning in a table the question involves, else in the table nearest to one:
    "templates completed" reads the status of service (a hop from serviceTemplate)."""
    for entry in entries:
        if entry.table in context:
            return entry
    best = [e for e in entries if e.kind == entries[0].kind]
    if len(best) == 1 or not context:
        return entries[0]

    threshold, hops = settings.SQL_CONFIDENCE_THRESHOLD, settings.SQL_MAX_JOIN_HOPS

    def distance(entry: Entry) -> int:
        lengths = [
            len(path)
            for table in context
            if (path := shortest_path(layer, entry.table, table, threshold, hops)) is not None
        ]
        return min(lengths, default=99)

    return min(best, key=distance)


def _resolve_code(code: str, terms: QuestionTerms, values: ValueIndex, out: Resolved) -> None:
    columns = values.code_columns(code)
    if len(columns) != 1:
        out.unresolved.append(code)
        return
    table, column = columns[0]
    ref = ColumnRef(table, column)
    position = next(i for i, t in enumerate(terms.tokens) if t.text == code)
    out.filters.append((position, Filter((ref,), "=", code, f"code {code} is a {ref}")))
    out.entities.append((position, table, f"identified by {code}"))


def _resolve_name(
    name: str,
    end: int,
    terms: QuestionTerms,
    layer: SemanticLayer,
    values: ValueIndex,
    context: set[str],
    out: Resolved,
) -> None:
    """A proper name is a label value; prefer a table the question names next to it."""
    wanted = name.lower()
    codes = {wanted, US_STATES.get(wanted, wanted)}
    matches = [(t, c, v) for t, c, v in values.values if v.lower().rstrip(".") in codes]
    if not matches:
        # "Grove crane", "the Cranes category": the name may be followed by its table
        matches = [
            (t, c, v) for t, c, v in values.values if v.lower().rstrip("s") == wanted.rstrip("s")
        ]
    if not matches:
        out.unresolved.append(name)
        return
    next_table = _table_after(terms, end)
    matches.sort(key=lambda m: (m[0] != next_table, m[0] not in context))
    table, column, value = matches[0]
    ref = ColumnRef(table, column)
    out.filters.append((end - 1, Filter((ref,), "=", value, f"{name!r} is a {ref}")))
    out.notes.append(f"{name!r} -> {ref} = {value!r}")


def _table_after(terms: QuestionTerms, end: int) -> str | None:
    for mention in terms.mentions:
        if mention.position == end and mention.best.kind == "table":
            return mention.best.table
    return None
