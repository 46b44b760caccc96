"""Steps 3 and 4: choose the table the question is about, the tables its filters need, the
shape (count, sum, group, top-N, order) and the join paths that connect them.

When the words do not settle a choice (which date column "in 2025" means, what to group
by) the step raises CannotAnswer with the reason instead of guessing. One module per
choice: `understood` (what is declined outright), `anchor`, `grouping`, `measure`,
`columns` (asked for by name), `date_range` and `ordering`; the joins come from
`sqlagent.join_paths`.
"""

from registries.services import SemanticLayer
from sqlagent.join_paths import NoJoinPath, plan_joins, unnamed_shared_parents
from sqlagent.plan import Absence, CannotAnswer, Filter, QueryPlan
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution import Resolved
from sqlagent.resolution.resolved import by_position
from sqlagent.table_selection.anchor import find_anchor
from sqlagent.table_selection.columns import add_asked_columns
from sqlagent.table_selection.date_range import apply_date_range
from sqlagent.table_selection.grouping import apply_grouping, bound, group_by
from sqlagent.table_selection.measure import measure, versus_average
from sqlagent.table_selection.ordering import order
from sqlagent.table_selection.understood import check_understood

__all__ = ["check_understood", "select_tables"]


def select_tables(terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer) -> QueryPlan:
    check_understood(terms, resolved, layer)
    absent = {table for _, table in resolved.absent}
    entities = [
        (pos, table) for pos, table, _ in by_position(resolved.entities) if table not in absent
    ]
    grouping = group_by(terms, resolved, layer, entities)
    anchor, anchor_at = find_anchor(resolved, entities, grouping[0])
    plan = QueryPlan(anchor=anchor)
    inside = _require_named(plan, resolved, absent)
    apply_grouping(plan, grouping, terms, resolved, layer)
    measure(plan, terms, resolved, layer)
    _unit_not_groups(plan)
    _groups_of_one(plan, layer)
    versus_average(plan, terms, resolved, layer)
    add_asked_columns(plan, terms, resolved, layer, anchor_at)
    bound(plan, terms, resolved, entities)
    apply_date_range(plan, terms, layer, resolved, inside)
    order(plan, terms, layer)
    _values_only(plan, terms)
    _join(plan, resolved, inside, layer)
    return plan


def _values_only(plan: QueryPlan, terms: QuestionTerms) -> None:
    """ "What different payment methods are there?": the asked columns' values, each once,
    not the rows that hold them."""
    if terms.shape.distinct and not plan.aggregate and plan.columns and not plan.limit:
        plan.values_only = True
        if plan.order_by not in plan.columns:
            plan.order_by = None


def _unit_not_groups(plan: QueryPlan) -> None:
    """ "the average miles a crew travels per dispatch": an amount per row of the table
    that holds it is the unit it is averaged over, not groups (each would hold one row)."""
    amount = plan.aggregate in ("avg", "sum", "min", "max") and plan.group_column is None
    if amount and plan.measure is not None and plan.group_table == plan.measure.table:
        plan.group_table = None


def _groups_of_one(plan: QueryPlan, layer: SemanticLayer) -> None:
    """Rows of a table that each belong to one counted row ("what hazard ... most often" read
    as answers flagged a hazard, counting their checks): every group counts one, so the
    ranking says nothing."""
    grouped, counted = plan.group_table, plan.anchor
    if plan.aggregate != "count" or grouped is None or grouped == counted:
        return
    if any(r.from_table == grouped and r.to_table == counted for r in layer.relationships):
        raise CannotAnswer(f"each {grouped} row belongs to one {counted}: no count to compare")


def _require_named(plan: QueryPlan, resolved: Resolved, absent: set[str]) -> list[Filter]:
    """The tables the words name and the filters on them; returns the conditions on the
    rows that must not exist, which stay out of the plan's own filters."""
    plan.require(plan.anchor, "the rows the question is about")
    plan.notes.extend(resolved.notes)
    for _, table, why in resolved.entities:
        if table not in absent:
            plan.require(table, why)
    inside: list[Filter] = []
    for _, found in resolved.filters:
        if found.columns[0].table in absent:
            inside.append(found)
            continue
        plan.filters.append(found)
        plan.require(found.columns[0].table, found.reason)
    for table, why in resolved.bridges:
        plan.require(table, why)
    return inside


def _join(plan: QueryPlan, resolved: Resolved, inside: list[Filter], layer: SemanticLayer) -> None:
    try:
        plan.via = list(resolved.via)
        plan.joins = plan_joins(layer, plan.tables, via=plan.via)
        if unsaid := unnamed_shared_parents(plan.joins, plan.tables, layer):
            raise CannotAnswer(
                f"the tables it needs meet only through {unsaid[0]} rows it does not name"
            )
        if resolved.absent:
            plan.absent = [_absence(plan.anchor, [t for _, t in resolved.absent], inside, layer)]
    except NoJoinPath as error:
        raise CannotAnswer(str(error)) from error
    for table, why in plan.joins.reasons.items():
        plan.reasons.setdefault(table, why)


def _absence(anchor: str, tables: list[str], inside: list[Filter], layer: SemanticLayer) -> Absence:
    """The joins from the anchor out to the rows that must not exist."""
    if anchor in tables:
        raise CannotAnswer(f"cannot tell which {anchor} rows must be missing")
    link, *joins = plan_joins(layer, [anchor, *tables]).joins
    if any(step.left_table == anchor for step in joins):
        raise CannotAnswer(f"cannot tell how the missing {', '.join(tables)} rows meet {anchor}")
    return Absence(link, tuple(joins), tuple(inside))
