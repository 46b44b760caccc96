"""What the rows are measured by: a share of them, the days of a span, an amount (sum,
average, minimum, maximum of a number column) or how many there are."""

import re
from dataclasses import replace

from registries.services import NEVER_BRIDGE_ROLES, SemanticLayer
from sqlagent.plan import NUMERIC, CannotAnswer, ColumnRef, QueryPlan
from sqlagent.question_terms import HIGHEST, LOWEST, QuestionTerms
from sqlagent.resolution import Resolved
from sqlagent.table_selection.understood import counted_and_measured
from sqlagent.vocabulary import own_total, phrase

AGGREGATE_WORDS = frozenset({"total", "sum", "average", "count", "number", "mean", "amount"})
_AMOUNTS = ("sum", "avg", "min", "max")


def measure(
    plan: QueryPlan, terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer
) -> None:
    if terms.shape.ratio:
        _share(plan, resolved)
        plan.in_percent = terms.shape.percent
    elif resolved.span:
        _span(plan, terms, resolved)
    else:
        _amount(plan, terms, resolved, layer)


def _share(plan: QueryPlan, resolved: Resolved) -> None:
    """ "what percentage of completed inspections passed": the last condition named is the
    share's; the others choose the rows it is a share of."""
    plan.aggregate = "ratio"
    if not resolved.filters:
        raise CannotAnswer("a share needs a condition whose share is asked")
    plan.share_of = max(resolved.filters, key=lambda f: f[0])[1]
    if plan.share_of not in plan.filters:  # it chose a table, not a row condition
        raise CannotAnswer("cannot tell which condition the share is of")
    plan.filters.remove(plan.share_of)


def _span(plan: QueryPlan, terms: QuestionTerms, resolved: Resolved) -> None:
    """ "on average, how many days between ...": the days are the measure."""
    assert resolved.span is not None
    plan.span = resolved.span
    plan.require(plan.span[0].table, f"holds {plan.span[0]} and {plan.span[1]}")
    if terms.shape.aggregate in _AMOUNTS:
        plan.aggregate = terms.shape.aggregate


_BEFORE_A_THING = frozenset({"average", "mean", "total", "sum", "maximum", "minimum",
                             *HIGHEST, *LOWEST})  # fmt: skip


def _own_totals(terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer) -> list[ColumnRef]:
    """ "the average invoice": an aggregate said of a thing with one total column of its
    own is of that column (invoice.total)."""
    found = []
    for pos, table, _ in resolved.entities:
        if (
            pos
            and terms.tokens[pos - 1].norm in _BEFORE_A_THING
            and (total := own_total(layer, table))
        ):
            found.append(ColumnRef(table, total))
    return list(dict.fromkeys(found))


def amount_columns(
    terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer
) -> list[ColumnRef]:
    """Numeric columns the question names; "total" names invoice.total only when no other
    amount is named ("total overtime hours" sums hours)."""
    found = [
        (terms.tokens[pos].norm in AGGREGATE_WORDS, ref)
        for pos, ref in resolved.columns
        if layer.tables[ref.table].columns[ref.column].data_type in NUMERIC
    ]
    named = [ref for generic, ref in found if not generic]
    return named or [ref for _, ref in found]


def _columns_named(
    tables: list[str], question_words: set[str], layer: SemanticLayer
) -> list[ColumnRef]:
    return [
        ColumnRef(name, column.name)
        for name in tables
        for column in layer.tables[name].columns.values()
        if column.data_type in NUMERIC
        and not column.primary_key
        and not column.name.endswith("Id")
        and phrase(column.name) in question_words
    ]


def _neighbours(tables: list[str], layer: SemanticLayer) -> list[str]:
    """The tables one relationship away from the most of `tables` (workTime touches both
    employee and workTimeType), among those that may stand between them."""
    touching: dict[str, set[str]] = {}
    for rel in layer.relationships:
        for table, other in ((rel.from_table, rel.to_table), (rel.to_table, rel.from_table)):
            near = table in tables and other not in tables and other in layer.tables
            if near and layer.tables[other].role not in NEVER_BRIDGE_ROLES:
                touching.setdefault(other, set()).add(table)
    most = max((len(v) for v in touching.values()), default=0)
    return sorted(t for t, v in touching.items() if len(v) == most)


def _amount(
    plan: QueryPlan, terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer
) -> None:
    shape = terms.shape
    numeric = _measures(plan, terms, resolved, layer)
    q = terms.text
    if shape.aggregate == "sum" and _total_is_compared(terms, resolved):
        shape = replace(shape, aggregate=None)  # "invoices with a total over $10,000"
    ranked = plan.group_table and re.search(r"\b(most|least)\b", q)
    wants_amount = (
        shape.aggregate in _AMOUNTS
        or "how much" in q
        or (
            numeric
            and (
                ranked or re.search(r"\bhow (many|much) \w+ (were|was|did)\b|\bhours\b", terms.text)
            )
        )
    )
    if wants_amount and not numeric:
        numeric = _own_totals(terms, resolved, layer)
    if wants_amount and numeric:
        plan.aggregate = shape.aggregate if shape.aggregate in _AMOUNTS else "sum"
        plan.measure = numeric[0]
        plan.counted_too = counted_and_measured(terms)
        plan.require(numeric[0].table, f"holds {numeric[0]}")
    elif shape.aggregate in _AMOUNTS or "how much" in q:
        raise CannotAnswer(f"found nothing to {shape.aggregate or 'sum'} in the question")
    elif shape.aggregate == "count" or plan.group_table or plan.group_column:
        plan.aggregate = "count"


def versus_average(
    plan: QueryPlan, terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer
) -> None:
    """ "above the overall average": each group's amount, or each row's, against the
    average over the same rows."""
    op = terms.shape.versus_average
    if op is None:
        return
    if plan.measure is None:
        numeric = _measures(plan, terms, resolved, layer)
        if not numeric:
            raise CannotAnswer("cannot tell which amount is compared with its average")
        plan.measure = numeric[0]
        plan.require(numeric[0].table, f"holds {numeric[0]}")
    grouped = plan.group_table or plan.group_column
    if grouped and plan.aggregate not in _AMOUNTS:
        raise CannotAnswer("cannot tell which amount of each group is compared")
    plan.versus_average = op


def _total_is_compared(terms: QuestionTerms, resolved: Resolved) -> bool:
    """The one "total" of the question names the column a bound or an average compares,
    not a sum."""
    said = [i for i, t in enumerate(terms.tokens) if t.norm in ("total", "sum", "much")]
    bounded = {pos for pos, found in resolved.filters if found.op in ("<", "<=", ">", ">=")}
    if terms.shape.versus_average:  # "a total above the average": the column compared
        bounded |= {pos for pos, _ in resolved.columns}
    return len(said) == 1 and said[0] in bounded


def _measures(
    plan: QueryPlan, terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer
) -> list[ColumnRef]:
    """The number columns that could be the measure, the likeliest first."""
    numeric = amount_columns(terms, resolved, layer)
    # "total overtime hours": "overtime hours" was read as a term, yet the hours column of
    # a table involved, named by a question word, is the measure, before any "total".
    question_words = {t.norm for t in terms.tokens} - AGGREGATE_WORDS
    named = _columns_named(plan.tables, question_words, layer)
    if not named:
        nearby = _columns_named(_neighbours(plan.tables, layer), question_words, layer)
        named = nearby if len(nearby) == 1 else []
    generic = [ref for pos, ref in resolved.columns if terms.tokens[pos].norm in AGGREGATE_WORDS]
    # "total reimbursable expenses": the one amount of the rows totalled, before invoice.total.
    own = [
        ColumnRef(plan.anchor, c.name)
        for c in layer.tables[plan.anchor].columns.values()
        if c.data_type == "decimal"
    ]
    # "how much was received": the one amount of the rows asked about.
    own = own if len(own) == 1 and (generic or "how much" in terms.text) else []
    return (
        [r for r in numeric if r not in generic]
        + named
        + own
        + [r for r in numeric if r in generic]
    )
