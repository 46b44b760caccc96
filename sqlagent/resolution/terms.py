"""Domain terms: a term resolves through its resolutions in rank order (primary, then
secondary, then fallback); the first whose tables the question already involves wins, so
"active customers" reads customer.isActive although the term's primary is employee.isActive.
Match types: text_search and semantic become case-insensitive LIKE over the columns,
boolean and exact become equality, structural only brings tables in."""

from dataclasses import replace

import networkx as nx
from django.conf import settings

from registries.services import Resolution, SemanticLayer, Term
from sqlagent.join_paths import join_graph
from sqlagent.plan import ColumnRef, Filter
from sqlagent.resolution.resolved import Resolved, Said
from sqlagent.vocabulary import phrase


def resolve_term(
    said: Said,
    term: Term,
    layer: SemanticLayer,
    context: set[str],
    out: Resolved,
    *,
    catalogue: bool,
) -> None:
    """A mention whose best meaning is a domain term: a filter, or the tables it names."""
    mention = said.mention
    if found := _value_of_head(said, term, layer):
        out.filters.append((mention.position, found))
        out.notes.append(f"{mention.text!r} -> {found.reason}")
        return
    own = context - set(_term_tables(term)) or context
    resolution = _choose(term, layer, own, catalogue)
    if resolution is None:
        out.unresolved.append(mention.text)
        return
    headed = _on_head(resolution, said.head, layer)
    resolution = headed or _on_context_table(resolution, layer, context)
    resolution = _narrowed(resolution, mention.text)
    found = _term_filter(term, resolution, said.negated)
    if found is None:
        for table in resolution.tables:
            out.entities.append((mention.position, table, f"term {term.name!r}"))
    else:
        out.filters.append((mention.position, found))
    out.notes.append(f"{mention.text!r} -> {found.reason if found else resolution.tables}")


def _term_tables(term: Term) -> list[str]:
    return [t for r in term.resolutions for t in r.tables]


def _truthy(value: str | None) -> bool:
    return (value or "true").strip().lower() in ("true", "1", "yes")


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


def _on_head(resolution: Resolution, head: str | None, layer: SemanticLayer) -> Resolution | None:
    """ "active customer locations": a flag said just before a thing is that thing's flag.
    None when the words after it settle nothing (the question's tables decide then)."""
    if head is None or resolution.match_type != "boolean" or len(resolution.columns) != 1:
        return None
    name = resolution.columns[0].rpartition(".")[2]
    if head in resolution.tables:
        return resolution
    if name not in layer.tables[head].columns:
        return None
    return replace(resolution, tables=(head,), columns=(f"{head}.{name}",))


def _value_of_head(said: Said, term: Term, layer: SemanticLayer) -> Filter | None:
    """ "an active contract": a term said just before a thing that has no column of the
    term's but stores the word as a value ('active' in customerContract.status) is that
    value of the thing, not the term's flag on another table."""
    head = said.head
    if head is None or any(head in r.tables for r in term.resolutions):
        return None
    flags = {c.rpartition(".")[2] for r in term.resolutions for c in r.columns}
    if flags & set(layer.tables[head].columns):
        return None  # the thing has the term's own column: `_on_head` applies it
    values = [e for e in said.mention.entries if e.kind == "value" and e.table == head]
    if len(values) != 1:
        return None
    value = values[0]
    why = f"{term.name}: a value of {head}.{value.column}"
    return Filter((ColumnRef(head, value.column),), "!=" if said.negated else "=", value.value, why)


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
