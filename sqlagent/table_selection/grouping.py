"""What the rows are grouped by: a table or a column the question says ("per payment
method", "for each branch") or implies ("which customers have the most work orders"), a
month or a year, and a bound on each group's count ("more than 40 work orders")."""

import re
from functools import lru_cache

from registries.services import SemanticLayer
from sqlagent.join_paths import related
from sqlagent.plan import CannotAnswer, ColumnRef, QueryPlan
from sqlagent.question_terms import HIGHEST, LOWEST, QuestionTerms
from sqlagent.resolution import Resolved
from sqlagent.resolution.mentions import PERIODS
from sqlagent.table_selection.anchor import filter_tables
from sqlagent.table_selection.date_range import date_column
from sqlagent.table_selection.measure import amount_columns
from sqlagent.vocabulary import phrase

# Grouped by a table's rows, or by a column's values; (None, None) is no grouping.
Grouping = tuple[str | None, ColumnRef | None]


def group_by(
    terms: QuestionTerms,
    resolved: Resolved,
    layer: SemanticLayer,
    entities: list[tuple[int, str]],
) -> Grouping:
    shape = terms.shape
    q = terms.text
    ranks = "|".join(("most", "least", "best", "worst", "fewest", "top", *HIGHEST, *LOWEST))
    superlative = re.match(r"^(which|what|who)\b", q) and re.search(rf"\b({ranks})\b", q)
    amounts = amount_columns(terms, resolved, layer)
    by_amount = superlative or re.search(r"\b(most|least|top)\b", q)
    if shape.group_by and not (by_amount and _names_amount(shape.group_by, amounts)):
        return _said_group(terms, resolved, layer, entities)
    mentioned = entities + filter_tables(resolved) + [(p, c.table) for p, c in resolved.columns]
    heads = [(p, t) for p, t in mentioned if p not in resolved.modifiers] or mentioned
    involved = list(dict.fromkeys(t for _, t in sorted(heads)))
    if resolved.bounds:  # "customers with more than 40 work orders": each customer's count
        counted = resolved.bounds[0][1]
        return next((t for t in involved if t != counted), None), None
    if by_amount and amounts and len(involved) >= 2:
        return involved[0], None  # "which parts were used most, by quantity"
    if superlative and len(involved) >= 2:
        return involved[0], None
    # "which job types have an average rating above the overall average"; an owner counts
    # too: "which customers' average invoice is above the average"
    every = list(dict.fromkeys(t for _, t in sorted(mentioned)))
    ranked = involved if len(involved) >= 2 else every
    if shape.versus_average and shape.aggregate in ("avg", "sum") and len(ranked) >= 2:
        return ranked[0], None
    return None, None


def _names_amount(said: str, amounts: list[ColumnRef]) -> bool:
    """ "by total invoiced", "by revenue": the words after "by" name an amount to rank by."""
    words = phrase(said).split()
    return any(words[: len(n)] == n for n in (phrase(c.column).split() for c in amounts))


def _said_group(
    terms: QuestionTerms,
    resolved: Resolved,
    layer: SemanticLayer,
    entities: list[tuple[int, str]],
) -> Grouping:
    """The groups the words after "per", "each" or "by" name."""
    said = terms.shape.group_by
    assert said is not None
    kind = _kind_table(said, layer)  # "per type of job", "for each customer type"
    if kind is not None:
        return kind, None
    target = _group_target(said, layer, entities)
    termed = _table_of_term(target, layer)  # "per application role"
    if termed is not None:
        return termed, None
    qualified = _qualified_columns(layer).get(target)  # "per payment method"
    if qualified is not None:
        return None, qualified
    for _, name in entities:
        named = phrase(name) == target or phrase(name).endswith(target)
        if named and (len(entities) > 1 or terms.shape.aggregate):
            return name, None
    # "customers in each state": the customers' own state, before another table's
    found = _column_of_entities(target, layer, entities)
    if found is not None:
        return found
    for _, ref in resolved.columns:
        if phrase(ref.column) == target:
            return None, ref
    if target in PERIODS:
        return None, None  # by a date's month or year (apply_grouping)
    raise CannotAnswer(f"cannot tell what to group by: {said!r}")


_KIND = re.compile(r"^(?:(type|kind|category) of (?:the |an? )?(.+)|(.+) (type|kind|category))$")


def _kind_table(said: str, layer: SemanticLayer) -> str | None:
    """ "type of job" and "job type": the type table the thing's rows refer to (workOrder's
    workOrderTypeId), or that their type refers to ("equipment category": asset ->
    assetType -> assetCategory), found by the schema's relationships."""
    found = _KIND.match(phrase(said))
    if found is None:
        return None
    kind = found.group(1) or found.group(4)
    thing = found.group(2) or found.group(3)
    table = _table_of_term(thing, layer) or _table_phrases(layer).get(thing)
    if table is None:
        return None
    # the nearest along the references: asset -> assetType -> assetCategory
    frontier = {table}
    for _ in range(2):
        frontier = {
            r.to_table for r in layer.relationships if r.from_table in frontier and r.enabled
        }
        kinds = {t for t in frontier if phrase(t).endswith(kind)}
        if kinds:
            return kinds.pop() if len(kinds) == 1 else None
    return None


def _table_of_term(target: str, layer: SemanticLayer) -> str | None:
    """The table of a term (or synonym) that the words name, by its structural reading."""
    for term in layer.terms:
        if target in {phrase(n) for n in (term.name, *term.synonyms)}:
            structural = [r for r in term.resolutions if r.match_type == "structural"]
            if structural and structural[0].tables[0] in layer.tables:
                return structural[0].tables[0]
    return None


def _column_of_entities(
    target: str, layer: SemanticLayer, entities: list[tuple[int, str]]
) -> Grouping | None:
    """A column of a table named that the words name, or the table a key of one points to;
    else the one column of those tables whose name ends with them ("state": billingState)."""
    ending = []
    for name in [t for _, t in entities]:
        for column in layer.tables[name].columns:
            if phrase(column) == target and not column.endswith("Id"):
                return None, ColumnRef(name, column)
            if column.endswith("Id") and target in phrase(column[:-2]):
                referenced = _referenced(layer, name, column)
                if referenced:
                    return referenced, None
            if phrase(column).endswith(f" {target}") and not column.endswith("Id"):
                ending.append(ColumnRef(name, column))
    return (None, ending[0]) if len(ending) == 1 else None


def apply_grouping(
    plan: QueryPlan,
    grouping: Grouping,
    terms: QuestionTerms,
    resolved: Resolved,
    layer: SemanticLayer,
) -> None:
    group_table, group_column = grouping
    if group_table and terms.shape.top_n:
        group_table, group_column = _ranked_column(terms, resolved, group_table)
    plan.group_table, plan.group_column = group_table, group_column
    period = re.search(r"\b(?:which|each|per|by|every) (month|year)\b", terms.text)
    if period and not (group_table or group_column):
        # "in which month of 2025 were the most work orders scheduled"
        plan.group_period = period.group(1)
        plan.group_column = date_column(plan, terms, layer)
    if group_table:
        plan.require(group_table, "grouped by")
    elif group_column:
        plan.require(group_column.table, "grouped by")


def _ranked_column(terms: QuestionTerms, resolved: Resolved, group_table: str) -> Grouping:
    """ "Show the top 5 question texts": the values of that column are what is ranked, not
    the rows that hold them."""
    tokens = terms.tokens
    top = [i for v, i in terms.numbers if v == terms.shape.top_n and tokens[i - 1].norm == "top"]
    if not top:
        return group_table, None
    named = [
        ref
        for pos, ref in resolved.columns
        if ref.table == group_table and top[0] < pos <= top[0] + 3
    ]
    if len(named) != 1:
        return group_table, None
    return None, named[0]


def bound(
    plan: QueryPlan, terms: QuestionTerms, resolved: Resolved, entities: list[tuple[int, str]]
) -> None:
    """ "customers ... with more than 40 work orders": a bound on each group's count."""
    if not resolved.bounds:
        return
    position, table, op, value = resolved.bounds[0]
    grouped = plan.group_table or plan.group_column
    if len(resolved.bounds) > 1 or table != plan.anchor or not grouped:
        raise CannotAnswer("cannot tell which rows the comparison counts")
    if plan.aggregate != "count":
        raise CannotAnswer("a bound on a count is compiled only over counted rows")
    plan.having = (op, value)
    # "How many customers have more than 40 work orders": the groups are counted.
    named_at = [pos for pos, t in entities + filter_tables(resolved) if t == plan.group_table]
    plan.count_groups = terms.shape.aggregate == "count" and min(named_at, default=99) < position


@lru_cache(maxsize=16)
def _table_phrases(layer: SemanticLayer) -> dict[str, str]:
    """ "work order type" -> workOrderType, once per layer."""
    return {phrase(t): t for t in layer.tables}


@lru_cache(maxsize=16)
def _qualified_columns(layer: SemanticLayer) -> dict[str, ColumnRef]:
    """ "payment method" -> payment.method, for every column but keys; once per layer."""
    return {
        f"{phrase(name)} {phrase(column)}": ColumnRef(name, column)
        for name, table in layer.tables.items()
        for column in table.columns
        if not column.endswith("Id")
    }


def _group_target(words_after: str, layer: SemanticLayer, entities: list[tuple[int, str]]) -> str:
    """The longest start of the words after "per"/"each" that names a table or column."""
    tokens = phrase(words_after).split()
    names = {phrase(t) for t in layer.tables} | {
        phrase(c) for _, t in entities for c in layer.tables[t].columns
    }
    names |= set(_qualified_columns(layer))
    tables = _table_phrases(layer)
    for n in range(len(tokens), 0, -1):
        candidate = " ".join(tokens[:n])
        if candidate in names:
            # "per customer industry": the last noun of a compound is the group.
            rest = " ".join(tokens[n:])
            compound = candidate in tables and rest in tables
            if compound and related(tables[candidate], tables[rest], layer):
                return rest
            return candidate
    return " ".join(tokens)


def _referenced(layer: SemanticLayer, table: str, column: str) -> str | None:
    for rel in layer.relationships:
        if rel.from_table == table and rel.from_column == column:
            return rel.to_table
    return None
