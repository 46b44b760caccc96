"""Clauses that change what is asked: "may a Crane Technician book" (what a configuration
table allows), "and which of them count as overtime" (a flag shown for every row)."""

import re

from registries.services import SemanticLayer
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution.resolved import Resolved

_MAY = frozenset({"may", "can", "allowed", "permitted"})
_WHICH_OF_THEM = re.compile(r"\band (?:which|who) (?:of them|of these|of those|ones)\b")


def resolve_permission(terms: QuestionTerms, layer: SemanticLayer, out: Resolved) -> None:
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


def resolve_shown_flags(terms: QuestionTerms, out: Resolved) -> None:
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
