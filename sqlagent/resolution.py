"""Step 2: map what the question says to tables, columns and filters.

A domain term resolves through its resolutions in rank order (primary, then secondary,
then fallback); the first whose tables the question already involves wins, so "active
customers" reads customer.isActive although the term's primary is employee.isActive.
Match types: text_search and semantic become case-insensitive LIKE over the columns,
boolean and exact become equality, structural only brings tables in.
"""

import re
from dataclasses import dataclass, field, replace

import networkx as nx
from django.conf import settings

from registries.semantic_layer import Relationship, Resolution, SemanticLayer, Term
from sqlagent.dates import DATE_VERBS
from sqlagent.join_paths import join_graph, shortest_path
from sqlagent.plan import ColumnRef, Filter
from sqlagent.question_terms import Comparison, Mention, QuestionTerms
from sqlagent.value_index import ValueIndex
from sqlagent.vocabulary import UNITS, Entry, phrase, unit_of

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
NUMERIC = ("integer", "decimal")
DATES = ("date", "datetime")
# Words that complete a verb ("signed off", "checked out") and add nothing to it.
_PARTICLES = frozenset({"off", "out", "up"})
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
    # Positions of things that only qualify another ("Sterling Power Holdings' contacts",
    # "the oldest Grove crane"): never the rows the question is about.
    modifiers: set[int] = field(default_factory=set)
    bounds: list[tuple[int, str, str, float]] = field(default_factory=list)  # counts: (token,
    # table counted, op, value) from "more than 40 work orders"
    absent: list[tuple[int, str]] = field(default_factory=list)  # "no work time": (token, table)
    compared: set[int] = field(default_factory=set)  # numbers whose comparison was placed
    span: tuple[ColumnRef, ColumnRef] | None = None  # "days between the start and the end"
    bridges: list[tuple[str, str]] = field(default_factory=list)  # (table, why) the words add
    flags_shown: bool = False  # "... and which of them count as overtime": one question

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


def _choose(
    term: Term, layer: SemanticLayer, context: set[str], catalogue: bool = False
) -> Resolution | None:
    ranked = sorted(
        (r for r in term.resolutions if all(t in layer.tables for t in r.tables)),
        key=lambda r: ("primary", "secondary", "fallback").index(r.rank),
    )
    for resolution in ranked:
        if context & set(resolution.tables):
            return resolution
    if not ranked:
        return None
    if catalogue and not _in_catalogue(ranked[0], layer):
        return _catalogue_class(ranked, layer, context) or ranked[0]
    return ranked[0]


def _catalogue_of(layer: SemanticLayer, tables: frozenset[str]) -> set[str]:
    """The reference tables joined to all of `tables` through reference tables only."""
    graph = join_graph(layer, settings.SQL_CONFIDENCE_THRESHOLD)
    references = [t for t, meta in layer.tables.items() if meta.role == "reference"]
    view = graph.subgraph(references)
    reached = [nx.node_connected_component(view, t) for t in tables if t in view]
    if not reached or len(reached) != len(tables):
        return set()
    return set.intersection(*reached)


def _in_catalogue(resolution: Resolution, layer: SemanticLayer) -> bool:
    return bool(resolution.tables) and all(
        layer.tables[t].role == "reference" for t in resolution.tables
    )


def _catalogue_class(
    ranked: list[Resolution], layer: SemanticLayer, context: set[str]
) -> Resolution | None:
    """ "Which manufacturers make forklifts": asked of catalogue (reference) tables alone, a
    kind of thing is its class in the catalogue, not the units customers own; of several
    classes, the broadest (the one the others point to: assetType -> assetCategory). The
    catalogue is what the tables asked of reach through reference tables alone."""
    catalogue = _catalogue_of(layer, frozenset(context))
    kinds = [
        r
        for r in ranked
        if r.match_type in ("text_search", "semantic") and set(r.tables) <= catalogue
    ]
    broadest = [
        r
        for r in kinds
        if any(
            rel.to_table in r.tables and rel.from_table in other.tables
            for other in kinds
            if other is not r
            for rel in layer.relationships
        )
    ]
    chosen = broadest or kinds
    return chosen[-1] if chosen else None


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


def _on_head(resolution: Resolution, head: str | None, layer: SemanticLayer) -> Resolution:
    """ "active customer locations": a flag said just before a thing is that thing's flag."""
    if head is None or resolution.match_type != "boolean" or len(resolution.columns) != 1:
        return resolution
    name = resolution.columns[0].rpartition(".")[2]
    if head in resolution.tables or name not in layer.tables[head].columns:
        return resolution
    return replace(resolution, tables=(head,), columns=(f"{head}.{name}",))


def _narrowed(resolution: Resolution, said: str) -> Resolution:
    """ "mobile cranes" is a narrower search than the term's "crane": a text search takes
    the words of a synonym that holds the term's own words and more."""
    if resolution.match_type not in ("text_search", "semantic") or not resolution.value:
        return resolution
    own, words_said = phrase(resolution.value).split(), said.split()
    # The term's words end the synonym: "mobile crane" narrows "crane"; "overtime hours"
    # names something else (hours) than "overtime".
    if len(words_said) > len(own) and words_said[-len(own) :] == own:
        return replace(resolution, value=said)
    return resolution


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
    # Only catalogue tables named ("which manufacturers"): kinds are read in the catalogue.
    catalogue = bool(context) and all(layer.tables[t].role == "reference" for t in context)
    for name, _ in terms.names:
        context.update(t for t, _, v in values.values if v.lower() == name.lower())
    for mention in terms.mentions:
        _resolve_mention(mention, terms, layer, context, out, catalogue=catalogue)
    for word in terms.unknown:
        _resolve_head_noun(word, terms, layer, context | set(out.tables()), out)
    for code in terms.codes:
        _resolve_code(code, terms, values, out)
    for name, end in terms.names:
        _resolve_name(name, end, terms, layer, values, context | set(out.tables()), out)
    _resolve_possessives(terms, out)
    for comparison in terms.comparisons:
        _resolve_comparison(comparison, terms, layer, out)
    _resolve_absent(terms, out)
    _resolve_span(terms, layer, out)
    _resolve_not_yet(terms, layer, out)
    _resolve_permission(terms, layer, out)
    _resolve_shown_flags(terms, out)
    return out


def _resolve_mention(
    mention: Mention,
    terms: QuestionTerms,
    layer: SemanticLayer,
    context: set[str],
    out: Resolved,
    *,
    catalogue: bool = False,
) -> None:
    entry = mention.best
    negated = _negated_before(terms, mention.position)
    if negated:
        out.consumed |= _negation_words(terms, mention.position)
    if entry.kind == "term" and entry.term:
        own = context - set(_term_tables(entry.term)) or context
        resolution = _choose(entry.term, layer, own, catalogue)
        if resolution is None:
            out.unresolved.append(mention.text)
            return
        resolution = _on_head(resolution, _head_table(mention, terms, layer), layer)
        resolution = _on_context_table(resolution, layer, context)
        resolution = _narrowed(resolution, mention.text)
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
    if entry.kind == "group":
        out.columns += [(mention.position, ColumnRef(entry.table, c)) for c in entry.columns]
        out.notes.append(f"{mention.text!r} -> {entry.table}.{', '.join(entry.columns)}")
        return
    roles = [e for e in mention.entries if e.kind == "role" and e.value in context]
    if len(roles) == 1:
        _resolve_role(mention, roles[0], layer, out)
        return
    entries = tuple(e for e in mention.entries if e.kind != "role")
    if not entries:
        out.unresolved.append(mention.text)
        return
    # "active employees", "completed inspections": a word before a thing is said of it.
    head = _head_table(mention, terms, layer)
    said_of = [e for e in entries if e.table == head]
    chosen = said_of[0] if said_of else _in_context(entries, context, layer)
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


def _head_table(mention: Mention, terms: QuestionTerms, layer: SemanticLayer) -> str | None:
    """The table named right after a mention, by its name or a term for it."""
    for other in terms.mentions:
        if other.position != mention.position + mention.length:
            continue
        if other.best.kind == "table":
            return other.best.table
        if other.best.kind == "term" and other.best.term:
            for r in other.best.term.resolutions:
                if r.match_type == "structural" and r.rank == "primary" and len(r.tables) == 1:
                    return r.tables[0] if r.tables[0] in layer.tables else None
    return None


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
    if len(word) < 4 or _resolve_doer(word, terms, layer, context, out):
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


def _resolve_doer(
    word: str, terms: QuestionTerms, layer: SemanticLayer, context: set[str], out: Resolved
) -> bool:
    """ "Who signed off work order X": the people asked for are the rows that record the
    act, the table of the question's table named for the verb's noun (workOrderSignature)."""
    position = next(i for i, t in enumerate(terms.tokens) if t.norm == word)
    if position == 0 or terms.tokens[position - 1].norm != "who" or not word.endswith("ed"):
        return False
    stems = [s for s in (word[:-2], word[:-1]) if len(s) >= 4]
    found = {
        t
        for t in layer.tables
        for c in context
        for stem in stems
        if (name := phrase(t)).startswith(f"{phrase(c)} ")
        and name.split()[-1].startswith(stem)
        and len(name.split()) == len(phrase(c).split()) + 1
    }
    if len(found) != 1:
        return False
    table = found.pop()
    out.entities.append((position, table, f"{word!r}: the {table} rows record who did it"))
    out.consumed.add(word)
    after = terms.tokens[position + 1].norm if position + 1 < len(terms.tokens) else ""
    if after in _PARTICLES:  # "signed off"
        out.consumed.add(after)
    out.notes.append(f"{word!r} -> {table}")
    return True


def _resolve_possessives(terms: QuestionTerms, out: Resolved) -> None:
    """ "Sterling Power Holdings' contacts", "the customer's locations", "the oldest Grove
    crane": the owner and the name before a thing only say which of those things."""
    tokens = terms.tokens
    starts = {m.position for m in terms.mentions if m.best.kind in ("table", "term")}
    starts |= {pos for pos, _, _ in out.entities}
    for _, end in terms.names:
        if tokens[end - 1].possessive or end in starts:
            out.modifiers.add(end - 1)
    for mention in terms.mentions:
        if tokens[mention.position + mention.length - 1].possessive:
            out.modifiers.add(mention.position)
    # "installation work orders", "forklift inspections": a condition on another table
    # said just before a thing qualifies that thing.
    heads = {pos: table for pos, table, _ in out.entities}
    lengths = {m.position: m.length for m in terms.mentions}
    for pos, found in out.filters:
        head = heads.get(pos + lengths.get(pos, 1))
        if head is not None and head != found.columns[0].table:
            out.modifiers.add(pos)


def _resolve_comparison(
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
        tables = out.tables()
        if len(tables) != 1:
            return
        named = [
            (past, ColumnRef(tables[0], c.name))
            for c in layer.tables[tables[0]].columns.values()
            if c.data_type in NUMERIC and after in (unit_of(c.name), phrase(c.name))
        ]
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


def _counted_after(i: int, terms: QuestionTerms, out: Resolved) -> tuple[int, str] | None:
    """The rows a number counts: the thing named right after it (from token `i`), past the
    conditions that qualify it ("more than 40 emergency work orders")."""
    lengths = {m.position: m.length for m in terms.mentions}
    conditions = {pos for pos, _ in out.filters}
    entities = {pos: table for pos, table, _ in out.entities}
    while i < len(terms.tokens):
        if i in entities:
            return i, entities[i]
        if i not in conditions:
            return None
        i += lengths.get(i, 1)
    return None


def _resolve_absent(terms: QuestionTerms, out: Resolved) -> None:
    """ "technicians with no work time", "customers without invoices", "never logged work
    time", "branches with no active technicians": rows of the table named after the
    negation, or of the one table its conditions are on, must not exist."""
    norms = [t.norm for t in terms.tokens]
    lengths = {m.position: m.length for m in terms.mentions}
    entities = {pos: t for pos, t, _ in out.entities}
    conditions = {pos: f.columns[0].table for pos, f in out.filters}
    found = []
    for i, word in enumerate(norms):
        if word not in ("no", "without", "never") or word in out.consumed:
            continue
        if i + 1 < len(norms) and norms[i + 1] in ("longer", "more", "less", "fewer"):
            continue
        reach = 3 if word == "never" else 2  # "never logged any work time"
        after = sorted(pos for pos in entities if i < pos <= i + reach + 1)
        if after:
            # "no customer signature": a compound whose head is not read: not placed
            if after[0] + lengths.get(after[0], 1) not in entities:
                found.append(
                    (i, after[0], sorted({t for p, t, _ in out.entities if p == after[0]}))
                )
            continue
        qualified = _conditions_after(i + 1, norms, lengths, conditions)
        if len(set(qualified.values())) == 1:  # "no active technicians": employee rows
            found.append((i, min(qualified), sorted(set(qualified.values()))))
    if len(found) != 1:
        return  # two negations, or none placed: the words stay unexplained and it declines
    i, position, tables = found[0]
    out.absent += [(position, table) for table in tables]
    out.consumed.add(norms[i])
    out.notes.append(f"{norms[i]!r}: no {' or '.join(tables)} rows")


def _conditions_after(
    i: int, norms: list[str], lengths: dict[int, int], conditions: dict[int, str]
) -> dict[int, str]:
    """The conditions said one after another from token `i` on (past "any", "a")."""
    found: dict[int, str] = {}
    while i < len(norms):
        if norms[i] in ("any", "a", "an"):
            i += 1
        elif i in conditions:
            found[i] = conditions[i]
            i += lengths.get(i, 1)
        else:
            break
    return found


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


def _resolve_span(terms: QuestionTerms, layer: SemanticLayer, out: Resolved) -> None:
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


def _resolve_not_yet(terms: QuestionTerms, layer: SemanticLayer, out: Resolved) -> None:
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


_MAY = frozenset({"may", "can", "allowed", "permitted"})


def _resolve_permission(terms: QuestionTerms, layer: SemanticLayer, out: Resolved) -> None:
    """ "Which work time types may a Crane Technician book": what may be done is what a
    configuration table allows, the one that links two of the question's tables."""
    said = _MAY & {t.norm for t in terms.tokens}
    tables = set(out.tables())
    if not said or len(tables) < 2:
        return
    links: dict[str, set[str]] = {}
    for rel in layer.relationships:
        source = layer.tables.get(rel.from_table)
        if rel.to_table in tables and source is not None and source.role == "configuration":
            links.setdefault(rel.from_table, set()).add(rel.to_table)
    allowing = [t for t, linked in links.items() if len(linked) >= 2]
    if len(allowing) != 1:
        return
    why = f"{allowing[0]}: what is allowed ({', '.join(sorted(said))})"
    out.bridges.append((allowing[0], why))
    out.consumed |= said
    out.notes.append(why)


_WHICH_OF_THEM = re.compile(r"\band (?:which|who) (?:of them|of these|of those|ones)\b")


def _resolve_shown_flags(terms: QuestionTerms, out: Resolved) -> None:
    """ "What work time types are there and which of them count as overtime": every row
    with its overtime flag shown, one question rather than two."""
    said = _WHICH_OF_THEM.search(terms.question.lower())
    if said is None:
        return
    later = [(p, f) for p, f in out.filters if terms.tokens[p].start > said.start()]
    flags = [(p, f) for p, f in later if f.op == "=" and isinstance(f.value, bool)]
    named_later = any(terms.tokens[p].start > said.start() for p, _, _ in out.entities)
    if not flags or len(flags) != len(later) or len(flags) > 1 or named_later:
        return
    out.filters = [item for item in out.filters if item not in flags]
    out.columns += [(p, f.columns[0]) for p, f in flags]
    out.flags_shown = True
    out.notes.append(f"{flags[0][1].columns[0]} shown for every row")


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
