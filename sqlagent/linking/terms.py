"""The domain terms people confirmed in the admin, read by the linked planner as names:
"jobs" and "tickets" are the work orders, "techs" the employees flagged as technicians,
"out of service" is asset.status 'out_of_service'. Terms only suggested by bootstrap are not
read: they are guesses from the same names the schema words come from."""

from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache

from registries.services import Resolution, SemanticLayer, Term
from sqlagent.linking.schema_words import (
    Name,
    SchemaWords,
    indexed,
    name_words,
    schema_words,
    value_key,
)


@lru_cache(maxsize=32)
def linking_words(layer: SemanticLayer) -> SchemaWords:
    """The schema's words with the confirmed terms' added."""
    plain = schema_words(layer)
    said = _term_names(layer)
    elements = [
        replace(e, names=e.names + tuple(said[(e.table, e.column)]))
        if (e.table, e.column) in said else e
        for e in plain.elements
    ]  # fmt: skip
    return replace(
        indexed(elements),
        term_values=_term_values(layer),
        refers=plain.refers,
        referring=plain.referring,
    )


def _confirmed(layer: SemanticLayer) -> Iterator[tuple[Term, Resolution]]:
    """Each term a person confirmed, with its first way to be read."""
    for term in layer.terms:
        primary = [r for r in term.resolutions if r.rank == "primary"]
        if not term.suggested and primary:
            yield term, primary[0]


def _term_names(layer: SemanticLayer) -> dict[tuple[str, str | None], list[Name]]:
    """The domain terms people confirmed, as names of what they mean: "jobs" and "tickets"
    are the work orders, "techs" the employees flagged as technicians."""
    said: dict[tuple[str, str | None], list[Name]] = {}
    for term, how in _confirmed(layer):
        if how.match_type == "structural" and len(how.tables) == 1 and not how.columns:
            where: tuple[str, str | None] = (how.tables[0], None)
        elif how.match_type == "boolean" and len(how.columns) == 1 and how.value == "true":
            table, column = how.columns[0].split(".", 1)
            where = (table, column)
        else:
            continue
        for phrase in (term.name, *term.synonyms):
            named = name_words(phrase)
            if named:
                said.setdefault(where, []).append((named, 1.0))
    return said


def _term_values(layer: SemanticLayer) -> dict[str, tuple[tuple[str, str, str], ...]]:
    found: dict[str, list[tuple[str, str, str]]] = {}
    for term, how in _confirmed(layer):
        if how.match_type != "exact" or len(how.columns) != 1 or how.value is None:
            continue
        if how.value.upper() in ("IS NULL", "IS NOT NULL"):
            continue
        table, column = how.columns[0].split(".", 1)
        for phrase in (term.name, *term.synonyms):
            found.setdefault(value_key(phrase), []).append((table, column, how.value))
    return {k: tuple(v) for k, v in found.items() if k}
