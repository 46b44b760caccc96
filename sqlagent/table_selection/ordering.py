"""The order of the rows and how many are kept: by the aggregate for groups ("the most"),
by a date ("the oldest"), by label ("alphabetically"), a top-N."""

import re

from registries.services import SemanticLayer, Table
from sqlagent.plan import DATES, CannotAnswer, ColumnRef, QueryPlan
from sqlagent.question_terms import QuestionTerms
from sqlagent.table_selection.date_range import AUDIT


def order(plan: QueryPlan, terms: QuestionTerms, layer: SemanticLayer) -> None:
    shape = terms.shape
    q = terms.text
    if plan.aggregate and (plan.group_table or plan.group_column):
        superlative = re.search(r"\b(most|least|fewest)\b", q)
        if shape.descending is not None or shape.top_n or superlative:
            least = superlative and superlative.group(1) != "most"
            plan.descending = shape.descending is not False and not least
            plan.limit = shape.top_n or (1 if re.search(r"\b(most|least)\b", q) else None)
        return
    if plan.aggregate:
        return
    if re.search(r"\b(most|least|fewest|highest|lowest)\b", q) and not re.search(
        r"\bmost recent\b", q
    ):
        # "Which templates were used most?" with nothing to count: no guess at an order.
        raise CannotAnswer("cannot tell what the rows are ranked by")
    if re.search(r"\b(oldest|earliest|newest|latest|most recent)\b", q):
        _by_age(plan, q, layer)
        plan.limit = shape.top_n or 1
        return
    if shape.alphabetical:
        plan.order_by = ColumnRef(plan.anchor, _label_columns(layer.tables[plan.anchor])[0])
    if shape.top_n:
        plan.limit = shape.top_n


def _by_age(plan: QueryPlan, q: str, layer: SemanticLayer) -> None:
    """ "the oldest Grove crane": by the year it was built, else by its own date."""
    plan.descending = bool(re.search(r"\b(newest|latest|most recent)\b", q))
    table = layer.tables[plan.anchor]
    dated = [c for c in table.columns.values() if c.data_type in DATES and c.name not in AUDIT]
    years = [c for c in table.columns.values() if "year" in c.name.lower()]
    if not (years or dated):
        raise CannotAnswer("cannot tell what makes one row older than another")
    plan.order_by = ColumnRef(plan.anchor, (years or dated)[0].name)


def _label_columns(table: Table) -> tuple[str, ...]:
    if table.label_columns:
        return table.label_columns
    return tuple(c for c in table.columns if c.lower() in ("name", "title", "code")) or ("id",)
