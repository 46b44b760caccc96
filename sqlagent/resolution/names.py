"""Codes and proper names are values of the data ("WO-001234", "Grove", "Arizona"); a name
or an owner said before a thing only says which of those things ("Sterling Power
Holdings' contacts")."""

from registries.services import SemanticLayer
from sqlagent.join_paths import related
from sqlagent.linking.schema_words import value_key
from sqlagent.places import US_STATES
from sqlagent.plan import ColumnRef, Filter
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution.context import join_distance
from sqlagent.resolution.resolved import Resolved, mention_lengths
from sqlagent.value_index import ValueIndex


def resolve_code(code: str, terms: QuestionTerms, values: ValueIndex, out: Resolved) -> None:
    columns = values.code_columns(code)
    if len(columns) != 1:
        out.unresolved.append(code)
        return
    table, column = columns[0]
    ref = ColumnRef(table, column)
    position = next(i for i, t in enumerate(terms.tokens) if t.text == code)
    out.filters.append((position, Filter((ref,), "=", code, f"code {code} is a {ref}")))
    out.entities.append((position, table, f"identified by {code}"))


def resolve_name(
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
        # "Lockout/Tagout", "Oil & Gas": the same words, the stored punctuation aside
        key = value_key(wanted)
        matches = [(t, c, v) for t, c, v in values.values if key and value_key(v) == key]
    if not matches:
        out.unresolved.append(name)
        return
    next_table = _table_after(terms, end)
    # The tables words name beat the context, which holds every table the name is in; of
    # those, the one named last before it ("customer sites in Phoenix": the sites).
    said = {t: p for p, t, _ in sorted(out.entities) if p < end}
    # else the table nearest the one named after it ("Installation work order": its type),
    # or to the tables and columns said ("rated level 5 in Hydraulics": a skill, beside
    # `employeeSkill.level`, not an inspection's section)
    around = set(said) | {ref.table for _, ref in out.columns}
    near = {next_table} if next_table else (around or context)
    distance = {t: join_distance(t, near, layer) if near else 0 for t, _, _ in matches}
    matches.sort(
        key=lambda m: (m[0] != next_table, -said.get(m[0], -1), m[0] not in context, distance[m[0]])
    )
    table, column, value = matches[0]
    ref = ColumnRef(table, column)
    out.filters.append((end - 1, Filter((ref,), "=", value, f"{name!r} is a {ref}")))
    out.notes.append(f"{name!r} -> {ref} = {value!r}")


def _table_after(terms: QuestionTerms, end: int) -> str | None:
    """The table named right after a name, by its name or a term for it."""
    for mention in terms.mentions:
        if mention.position != end:
            continue
        if mention.best.kind == "table":
            return mention.best.table
        if mention.best.kind == "term" and mention.best.term:
            structural = [
                r
                for r in mention.best.term.resolutions
                if r.rank == "primary" and r.match_type == "structural" and len(r.tables) == 1
            ]
            return structural[0].tables[0] if structural else None
    return None


def resolve_possessives(terms: QuestionTerms, out: Resolved, layer: SemanticLayer) -> None:
    """ "Sterling Power Holdings' contacts", "the customer's locations", "the oldest Grove
    crane", "customer assets": the owner and the name before a thing only say which of
    those things."""
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
    lengths = mention_lengths(terms)
    for pos, found in out.filters:
        head = heads.get(pos + lengths.get(pos, 1))
        if head is not None and head != found.columns[0].table:
            out.modifiers.add(pos)
    # "customer sites", "customer assets": in English the last noun of a compound is the
    # thing; a table named just before a table that refers to it (or that it refers to)
    # says whose.
    for pos, table in heads.items():
        head = heads.get(pos + lengths.get(pos, 1))
        if head is not None and head != table and related(table, head, layer):
            out.modifiers.add(pos)
