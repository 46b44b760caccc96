"""Rows that must not be: the anchor's rows with no row of another table ("dorms that do
not have any amenity") or with none meeting a condition ("patients not using
Procrastin-X"), and values of a column no row meeting a condition holds ("publishers that
did not publish a book in 1989"), as NOT IN subqueries."""

from sqlglot import exp

from registries.services import Relationship, SemanticLayer
from sqlagent.join_paths import NoJoinPath, plan_joins
from sqlagent.linking.intent import Apart, Condition, Intent
from sqlagent.linking.reading_base import Unreadable
from sqlagent.linking.sql_parts import (
    Names,
    aliased,
    compare,
    condition_sql,
    joined_from,
    single_key,
)


def missing(
    intent: Intent, layer: SemanticLayer, names: Names, inside: list[Condition]
) -> exp.Expression:
    """The anchor's key NOT IN the missing table's column that refers to it (among its rows
    that meet the conditions on it: "tracks with no race in class GT")."""
    assert intent.missing is not None
    holder, joined = _route(intent, layer, inside)
    inner_key = exp.column(holder.from_column, table="m", quoted=True)
    inner = exp.select(inner_key).from_(aliased(holder.from_table, "m"))
    inner = inner.where(inner_key.copy().is_(exp.null()).not_())
    held = "m"
    if joined is not None and inside:  # the missing rows themselves, as "x"
        held = "x"
        on = exp.column(joined.from_column, table="m", quoted=True).eq(
            exp.column(joined.to_column, table="x", quoted=True)
        )
        inner = inner.join(aliased(intent.missing, "x"), on=on)
    for condition in inside:
        assert condition.element.column is not None
        column = exp.column(condition.element.column, table=held, quoted=True)
        inner = inner.where(compare(column, condition.op, condition.value, condition.second))
    anchor_key = exp.column(holder.to_column, table=names.alias[intent.anchor], quoted=True)
    return exp.Not(this=exp.In(this=anchor_key, query=exp.Subquery(this=inner)))


def _route(
    intent: Intent, layer: SemanticLayer, inside: list[Condition]
) -> tuple[Relationship, Relationship | None]:
    """The relationship whose column holds the anchor's keys, and how the missing rows join
    its table when they are not its rows: the missing table's own reference to the anchor;
    else, where nothing else reads the missing table, the table pairing them ("dorms that
    do not have any amenity": `Has_amenity`; "trains that pass no station in London")."""
    direct = [
        r
        for r in layer.relationships
        if r.from_table == intent.missing and r.to_table == intent.anchor
        and intent.missing_by in (None, r.from_column)
    ]  # fmt: skip
    if direct:
        return direct[0], None
    said = said_of(intent, intent.missing or "", besides=inside)
    found = None if said else _bridge(intent, layer)
    if found is None:
        raise Unreadable(f"{intent.missing} does not refer to {intent.anchor}")
    return found


def negations_apart(intent: Intent, layer: SemanticLayer) -> None:
    """ "patients not using Procrastin-X": a negated value of a table the anchor's rows
    have many of is no row of theirs having it, not a row having another value. So is a
    value said after the missing rows' own word ("patients never prescribed Thesisin": no
    prescription of Thesisin, not no prescription and Thesisin)."""
    if not single_key(layer, intent.anchor) or intent.any_of:
        return  # one of conditions joined by "or" is no condition of its own
    for condition in list(intent.conditions):
        table = condition.element.table
        if table == intent.anchor or condition.op not in ("!=", "="):
            continue
        try:
            plan = plan_joins(layer, [intent.anchor, table])
        except NoJoinPath:
            continue
        negated = condition.op == "!=" and any(step.fans_out for step in plan.joins)
        beyond = condition.op == "=" and table != intent.missing and intent.missing in plan.tables
        if negated or beyond:
            intent.conditions.remove(condition)
            intent.none_with.append(condition)
    if any(c.op == "=" for c in intent.none_with):
        intent.missing = None  # what is missing is rows with that value, said above
    apart = {c.element.table for c in intent.none_with}
    intent.tables = [t for t in intent.tables if t not in apart or said_of(intent, t)]


def none_with(
    intent: Intent, layer: SemanticLayer, names: Names, condition: Condition
) -> exp.Expression:
    """The anchor's key NOT IN the keys of its rows joined to a row with the value
    `condition` names (a negated one turned round)."""
    key = single_key(layer, intent.anchor)
    assert key is not None
    inner_names = Names(plan_joins(layer, [intent.anchor, condition.element.table]), "n")
    inner = joined_from(inner_names).select(exp.column(key, table="n1", quoted=True))
    column = inner_names.column(condition.element)
    inner = inner.where(compare(column, "=", condition.value, condition.second))
    anchor_key = exp.column(key, table=names.alias[intent.anchor], quoted=True)
    return exp.Not(this=exp.In(this=anchor_key, query=exp.Subquery(this=inner)))


def only_apart(intent: Intent) -> None:
    """Tables only the rows set apart are of are joined inside their subquery, not out."""
    if intent.apart is None:
        return
    apart = set(intent.apart.tables) - {intent.anchor}
    intent.tables = [t for t in intent.tables if t not in apart or said_of(intent, t)]


def values_apart(apart: Apart, layer: SemanticLayer, names: Names) -> exp.Expression:
    """The column's value NOT IN the values of the rows that meet the conditions (each
    value once outside, as EXCEPT gives them)."""
    try:
        joins = plan_joins(layer, [apart.column.table, *apart.tables])
    except NoJoinPath as error:
        raise Unreadable(f"the tables it names are not related: {error}") from error
    inner_names = Names(joins, "v")
    column = inner_names.column(apart.column)
    inner = joined_from(inner_names).select(column)
    inner = inner.where(column.copy().is_(exp.null()).not_())
    for condition in apart.conditions:
        inner = inner.where(condition_sql(condition, inner_names))
    return exp.Not(this=exp.In(this=names.column(apart.column), query=exp.Subquery(this=inner)))


def said_of(intent: Intent, table: str, besides: list[Condition] | None = None) -> bool:
    """Whether a part of the query other than the missing rows (and the conditions
    `besides`, theirs) reads `table`'s columns."""
    orders = [o.element for o in (intent.order, intent.then) if o is not None]
    elements = [o.element for o in intent.outputs] + orders + [intent.group]
    conditions = [c for c in [*intent.conditions, *intent.both] if c not in (besides or [])]
    elements += [c.element for c in conditions]
    return any(e is not None and e.table == table for e in elements)


def _bridge(intent: Intent, layer: SemanticLayer) -> tuple[Relationship, Relationship] | None:
    """The one table that pairs rows of the anchor with rows of the missing table
    (`Has_amenity` between `Dorm` and `Dorm_amenity`): its relationships to the anchor and
    to the missing table."""
    missing, anchor = intent.missing, intent.anchor
    pairs = {r.from_table: r for r in layer.relationships if r.to_table == missing}
    found = [r for r in layer.relationships if r.from_table in pairs and r.to_table == anchor]
    return (found[0], pairs[found[0].from_table]) if len(found) == 1 else None
