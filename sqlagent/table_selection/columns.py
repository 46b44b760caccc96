"""The columns a question asks for by name, with the columns that complete them (an
address with its city and state) and the key when it asks for the id."""

from registries.services import SemanticLayer
from sqlagent.plan import ColumnRef, QueryPlan
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution import Resolved
from sqlagent.resolution.resolved import mention_lengths
from sqlagent.sql_compiler import label_columns
from sqlagent.table_selection.which_too import tables_asked_beside
from sqlagent.vocabulary import phrase


def add_asked_columns(
    plan: QueryPlan,
    terms: QuestionTerms,
    resolved: Resolved,
    layer: SemanticLayer,
    anchor_at: int,
) -> None:
    if not plan.aggregate:
        for position, ref in resolved.columns:
            for asked in _asked(ref, position < anchor_at, plan.anchor, layer):
                plan.columns.append(asked)
                plan.require(asked.table, f"holds {asked}, which the question asks for")
        if plan.columns:
            for table in _listed_with_columns(terms, resolved, plan.anchor):
                plan.columns += [ColumnRef(table, c) for c in label_columns(layer.tables[table])]
        for table in tables_asked_beside(terms, resolved):
            if table != plan.anchor:
                plan.beside += [ColumnRef(table, c) for c in label_columns(layer.tables[table])]
                plan.require(table, "asked for beside each row ('and which ...')")
    elif plan.group_table:  # "Show the part name and id": columns of the groups
        plan.columns += [ref for _, ref in resolved.columns if ref.table == plan.group_table]
    _asked_key(plan, terms, layer)


def _listed_with_columns(terms: QuestionTerms, resolved: Resolved, anchor: str) -> list[str]:
    """ "with their employee number, role and branch": a table listed among the columns
    asked for is asked for too, by its labels."""
    lengths = mention_lengths(terms)
    said = sorted(
        [(p, t, False) for p, t, _ in resolved.entities]
        + [(p, r.table, True) for p, r in resolved.columns]
    )
    tokens, question = terms.tokens, terms.question
    listed: list[str] = []
    run: list[tuple[int, str, bool]] = []
    for item in said:
        if run:
            last = run[-1][0] + lengths.get(run[-1][0], 1) - 1
            end = tokens[last].start + len(tokens[last].text)
            between = question[end : tokens[item[0]].start].strip(" ,").removeprefix("and")
            if between.strip(" ,") not in ("", "their", "its", "the"):
                run = []
        run.append(item)
        if any(column for *_, column in run):
            listed += [t for _, t, column in run if not column and t != anchor]
    return list(dict.fromkeys(listed))


def _asked(
    ref: ColumnRef, before_anchor: bool, anchor: str, layer: SemanticLayer
) -> list[ColumnRef]:
    """A column the question asks for, with the columns that complete it (an address with
    its city and state). "The names and e-mail addresses of Sterling Power Holdings'
    contacts": columns asked before the rows they belong to are those rows' columns."""
    if before_anchor and ref.table != anchor:
        table = layer.tables[anchor]
        said = phrase(ref.column)
        own = [c for c in table.columns if not c.endswith("Id") and phrase(c) == said]
        own = own or [
            c for c in table.columns if not c.endswith("Id") and phrase(c).startswith(f"{said} ")
        ]
        if len(own) == 1:
            ref = ColumnRef(anchor, own[0])
        elif said == "name" and table.label_columns:
            return []  # a person's name: the labels every list shows
    return [ref, *_address_parts(ref, layer)]


def _asked_key(plan: QueryPlan, terms: QuestionTerms, layer: SemanticLayer) -> None:
    """ "the name and id": the key of the rows listed, or of the groups."""
    if "id" not in terms.unknown:
        return
    owner = plan.group_table or (None if plan.aggregate else plan.anchor)
    key = layer.tables[owner].primary_key if owner else None
    if owner and key:
        plan.columns.append(ColumnRef(owner, key))


def _address_parts(ref: ColumnRef, layer: SemanticLayer) -> list[ColumnRef]:
    """ "address" is the street line; city, state and postal code complete it."""
    if not ref.column.lower().endswith("address") or "mail" in ref.column.lower():
        return []
    prefix = ref.column[: -len("address")].lower()
    parts = {f"{prefix}{p}" for p in ("city", "state", "postalcode", "zip", "zipcode", "country")}
    return [ColumnRef(ref.table, c) for c in layer.tables[ref.table].columns if c.lower() in parts]
