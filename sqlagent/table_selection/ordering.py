"""The order of the rows and how many are kept: by the aggregate for groups ("the most"),
by a number column named with a superlative ("the highest hourly rate"), by a date ("the
oldest"), by label ("alphabetically"), a top-N."""

import re

from registries.services import SemanticLayer, Table
from sqlagent.plan import DATES, NUMERIC, CannotAnswer, ColumnRef, QueryPlan
from sqlagent.question_terms import HIGHEST, LOWEST, QuestionTerms
from sqlagent.table_selection.date_range import AUDIT
from sqlagent.vocabulary import own_total


def order(plan: QueryPlan, terms: QuestionTerms, layer: SemanticLayer) -> None:
    shape = terms.shape
    q = terms.text
    if plan.aggregate and (plan.group_table or plan.group_column):
        superlative = re.search(r"\b(most|least|fewest)\b", q) or _SUPERLATIVE.search(q)
        if shape.descending is not None or shape.top_n or superlative:
            least = superlative and superlative.group(1) not in ("most", *HIGHEST)
            plan.descending = shape.descending is not False and not least
            plan.limit = shape.top_n or (1 if superlative else None)
        return
    if plan.aggregate:
        return
    if _by_number(plan, terms, layer):
        return
    ranked = re.search(r"\b(most|least|fewest)\b", q) or _SUPERLATIVE.search(q)
    if ranked and not re.search(r"\bmost recent\b", q):
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


_SUPERLATIVE = re.compile(rf"\b({'|'.join(HIGHEST + LOWEST)})\b")


def _by_number(plan: QueryPlan, terms: QuestionTerms, layer: SemanticLayer) -> bool:
    """ "the highest hourly rate", "the 3 employees with the lowest hourly rate": the rows
    ranked by the one number column the question names (else the rows' own amount), the
    first ones kept."""
    said = _SUPERLATIVE.search(terms.text)
    if said and len({w in HIGHEST for w in _SUPERLATIVE.findall(terms.text)}) > 1:
        raise CannotAnswer("the highest and the lowest at once are not compiled without an LLM")
    numbers = [
        c for c in plan.columns if layer.tables[c.table].columns[c.column].data_type in NUMERIC
    ]
    if said is not None and not numbers and (total := own_total(layer, plan.anchor)):
        numbers = [ColumnRef(plan.anchor, total)]  # "the largest payment": by its amount
    if said is None or len(numbers) != 1:
        return False
    plan.order_by, plan.descending = numbers[0], said.group(1) in HIGHEST
    plan.limit = terms.shape.top_n or 1
    return True


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
