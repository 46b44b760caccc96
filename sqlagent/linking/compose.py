"""An `Intent` as one SQL statement (a sqlglot tree): its tables joined along the shortest
paths of the relationship graph, then the columns, conditions, grouping, ordering, limit,
the rows that must be missing (NOT IN) and the pairs of values that must both hold
(INTERSECT)."""

from collections import Counter, defaultdict

from sqlglot import exp

from registries.services import Relationship, SemanticLayer, Table
from sqlagent.fan_out import Edges, repeats, unique
from sqlagent.join_paths import JoinPlan, NoJoinPath, plan_joins, unnamed_shared_parents
from sqlagent.linking.absent import (
    missing,
    negations_apart,
    none_with,
    only_apart,
    values_apart,
)
from sqlagent.linking.display import as_configured
from sqlagent.linking.intent import Condition, Intent, Output
from sqlagent.linking.reader import Unreadable
from sqlagent.linking.schema_words import Element
from sqlagent.linking.sql_parts import (
    Names,
    aliased,
    compare,
    condition_sql,
    joined_from,
    single_key,
)


class Unrelated(Unreadable):
    """The tables a reading names cannot be joined."""


class UnsaidParent(Unreadable):
    """The tables a reading names meet only through rows of a table it does not name."""


_AGGREGATES = {"sum": exp.Sum, "avg": exp.Avg, "min": exp.Min, "max": exp.Max}
_PARTS = {"year": exp.Year, "month": exp.Month}


def compose(intent: Intent, layer: SemanticLayer) -> exp.Expression:
    """The reading as SQL. Its rows are shown as the registry configures them; the reading
    itself (what the confidence weighs) keeps the columns the question asked for."""
    asked = list(intent.outputs)
    if not as_configured(intent, layer):
        return _compose(intent, layer)
    try:
        return _compose(intent, layer)
    finally:
        intent.outputs = asked


def _compose(intent: Intent, layer: SemanticLayer) -> exp.Expression:
    if not intent.tables:
        raise Unreadable("it names no table to read")
    _count_referrers(intent, layer)
    negations_apart(intent, layer)
    only_apart(intent)
    try:
        joins = plan_joins(layer, intent.tables, via=_named_keys(intent, layer))
    except NoJoinPath as error:
        raise Unrelated(f"the tables it names are not related: {error}") from error
    names = Names(joins)
    _no_unsaid_parent(intent, layer, joins)
    if intent.both and all(o.aggregate for o in intent.outputs):
        _each_value_counted(intent)
    if not intent.both:
        return _select(intent, layer, joins, names, intent.conditions)
    # Each half shows the rows, not the column the two conditions differ on, nor another
    # column of the rows paired with them ("dorms with both a TV Lounge and a Study Room
    # as amenities": not the amenity's id, which differs between the halves).
    paired = {c.element for c in intent.both}
    apart = {e.table for e in paired} - {intent.anchor}
    shown = [
        o
        for o in intent.outputs
        if o.element not in paired and (o.element is None or o.element.table not in apart)
    ] or intent.outputs
    intent.outputs = shown
    halves = [
        _select(intent, layer, joins, names, [*intent.conditions, condition])
        for condition in intent.both
    ]
    statement: exp.Expression = halves[0]
    for half in halves[1:]:
        statement = exp.intersect(statement, half, distinct=True)
    return statement


def _each_value_counted(intent: Intent) -> None:
    """ "How many artists are male and how many are female?": a total for each value said,
    not the totals that both values share (an INTERSECT of two counts)."""
    columns = {c.element for c in intent.both}
    if len(columns) != 1 or any(c.op != "=" for c in intent.both) or intent.group is not None:
        raise Unreadable("it asks for totals of two kinds of rows at once")
    column = columns.pop()
    values = [c.value for c in intent.both]
    intent.conditions.append(Condition(column, "in", values, at=intent.both[0].at))
    intent.group, intent.both = column, []
    intent.outputs = [Output(column), *intent.outputs]


def _no_unsaid_parent(intent: Intent, layer: SemanticLayer, joins: JoinPlan) -> None:
    """ "incidents ... OSHA": an incident's employee holding an OSHA certificate relates
    rows that merely share a parent the question does not name."""
    if unsaid := unnamed_shared_parents(joins, intent.tables, layer):
        raise UnsaidParent(
            f"the tables it names meet only through {unsaid[0]} rows it does not name"
        )


def _count_referrers(intent: Intent, layer: SemanticLayer) -> None:
    """ "Which allergy is the most common?" of `Allergy_Type` alone: grouped by what tells
    its rows apart, every group is one row. What is counted are the rows that refer to it
    (`Has_Allergy`), where one table does."""
    counts = (intent.order is not None and intent.order.aggregate == "count") or (
        intent.having is not None and intent.having_of is None
    )
    alone = intent.tables == [intent.anchor] and intent.counted in (None, intent.anchor)
    if not counts or not alone:
        return
    table = layer.tables[intent.anchor]
    grouped = [intent.group] if intent.group else [o.element for o in intent.outputs if o.element]
    if not grouped or not all(e and _tells_apart(e, table) for e in grouped):
        return
    referrers = {
        r.from_table
        for r in layer.relationships
        if r.enabled and r.to_table == intent.anchor and r.from_table != intent.anchor
    }
    if len(referrers) == 1:
        intent.counted = referrers.pop()
        intent.tables.append(intent.counted)


def _tells_apart(element: Element, table: Table) -> bool:
    """A key, a unique column, or the table's name for its rows (`Claim_Status_Name`)."""
    column = table.columns.get(element.column or "")
    if element.table != table.name or column is None:
        return False
    named = element.column in table.label_columns and {"name", "title"} & set(element.names[0][0])
    return column.primary_key or column.unique or bool(named)


def _named_keys(intent: Intent, layer: SemanticLayer) -> list[Relationship]:
    """The relationships whose referring column the question names ("students who have
    treasurer votes": Voting_record.Treasurer_Vote, not the first key to Student)."""
    named = {(e.table, e.column) for e in intent.joined_by}
    named |= {(c.element.table, c.element.column) for c in [*intent.conditions, *intent.both]}
    named |= {(o.element.table, o.element.column) for o in intent.outputs if o.element}
    return [
        rel
        for rel in layer.relationships
        if (rel.from_table, rel.from_column) in named and rel.to_table in intent.tables
    ]


def _select(
    intent: Intent,
    layer: SemanticLayer,
    joins: JoinPlan,
    names: Names,
    conditions: list[Condition],
) -> exp.Select:
    select = joined_from(names)
    outputs = [_output(o, names, _count(intent, layer, names)) for o in intent.outputs]
    if intent.star:
        outputs = [exp.Star()] + [o for o in outputs if isinstance(o, exp.AggFunc)]
    select = select.select(*outputs)
    if intent.distinct:
        select = select.distinct()
    inside = [c for c in conditions if c.element.table == intent.missing]
    where = _joined([c for c in conditions if c not in inside], intent.any_of, names)
    if intent.missing:
        where.append(missing(intent, layer, names, inside))
    where += [none_with(intent, layer, names, c) for c in intent.none_with]
    if intent.apart is not None:
        where.append(values_apart(intent.apart, layer, names))
    grouped = _grouping(intent, layer, names)
    totals = not grouped and any(_aggregated(o) for o in outputs)
    extreme = _at_extreme(intent, names) if totals or _of_another(intent, grouped) else None
    if extreme is not None:  # the totals, or the rows, of the rows at the extreme
        where.append(extreme)
    ordered = intent.order is not None and extreme is None
    limit = intent.limit if extreme is None else None
    if where:
        select = select.where(exp.and_(*where))
    rows = ordered or (limit or 0) > 1
    if rows and totals:
        # one row of totals has no order: the reading missed what the rows are per
        raise Unreadable("it asks for one total of all the rows, and for rows in an order")
    if grouped:
        select = select.group_by(*grouped)
    if intent.having is not None:
        op, value, second = intent.having
        count = _count(intent, layer, names)
        compared = _output(intent.having_of, names, count) if intent.having_of else count
        select = select.having(compare(compared, op, value, second))
    if ordered:
        select = _ordered(select, intent, layer, names, (outputs, grouped))
    if limit:
        select = select.limit(limit)
    return select


def _ordered(
    select: exp.Select,
    intent: Intent,
    layer: SemanticLayer,
    names: Names,
    shape: tuple[list[exp.Expr], list[exp.Expr]],
) -> exp.Select:
    """The rows in the asked order, the order's column shown where it may be, and ties
    broken alike every time when only some rows are kept."""
    outputs, grouped = shape
    ordering = _ordering(intent, names, outputs, _count(intent, layer, names))
    select = select.order_by(ordering)
    if _shows_its_order(ordering, outputs, grouped):
        select = select.select(ordering.this.copy())
    if intent.then is not None and intent.then.element is not None:
        then = names.column(intent.then.element)
        select = select.order_by(exp.Ordered(this=then, desc=intent.then.descending), append=True)
    tie = _tiebreak(intent, layer, names, outputs, grouped)
    if intent.limit and tie is not None and tie.sql() != ordering.this.sql():
        select = select.order_by(tie, append=True)
    return select


def _at_extreme(intent: Intent, names: Names) -> exp.Expr | None:
    """ "the average age of students living in the dorm with the largest capacity": one
    total, over the rows whose column is at its extreme (MAX or MIN in its table)."""
    order = intent.order
    element = order.element if order is not None else None
    if (
        order is None
        or element is None
        or element.column is None
        or order.aggregate
        or order.as_number
        or intent.then is not None
        or intent.having is not None
        or intent.limit != 1  # a superlative: "the dorm with the largest capacity"
    ):
        return None
    inner = exp.column(element.column, table="x", quoted=True)
    extreme = (exp.Max if order.descending else exp.Min)(this=inner)
    top = exp.Subquery(this=exp.select(extreme).from_(aliased(element.table, "x")))
    return exp.EQ(this=names.column(element), expression=top)


def _of_another(intent: Intent, grouped: list[exp.Expr]) -> bool:
    """ "the cities in the county with the most police officers": the superlative picks a
    row of another table than the rows shown, and they are all of that row's, not one."""
    order = intent.order
    if grouped or order is None or order.element is None or intent.picked is None:
        return False
    shown = {o.element.table for o in intent.outputs if o.element is not None}
    return bool(shown) and intent.picked not in shown and not intent.star


def _aggregated(output: exp.Expr) -> bool:
    return isinstance(output, exp.AggFunc) or output.find(exp.AggFunc) is not None


def _count(intent: Intent, layer: SemanticLayer, names: Names) -> exp.Count:
    """COUNT(*), or the rows of the table the question counts when that is not the one the
    rows are grouped by ("each camera lens and the number of photos": the photos, each
    once, not the lenses a join repeats)."""
    counted = intent.counted if intent.counted != intent.anchor else None
    if _counts_its_anchor(intent) and len(names.alias) > 1:
        counted = intent.anchor  # joined: "papers by authors of Penn" each once, not per author
    elif counted is None and intent.group is not None and intent.group.table == intent.anchor:
        # Per row of the anchor the count is of the rows it joins ("each product and the
        # number of times it was ordered": its order lines), never of itself (always 1).
        counted = _finest(layer, names.joins)
    if counted and counted in names.alias:
        key = single_key(layer, counted)
        if key:
            column = exp.column(key, table=names.alias[counted], quoted=True)
            return exp.Count(this=exp.Distinct(expressions=[column]))
        joined = _joined_column(counted, names.joins)
        if joined:  # never NULL in the join's rows: COUNT of it counts them
            return exp.Count(this=exp.column(joined, table=names.alias[counted], quoted=True))
    return exp.Count(this=exp.Star())


def _joined_column(table: str, joins: JoinPlan) -> str | None:
    for step in joins.joins:
        if step.left_table == table:
            return step.left_column
        if step.right_table == table:
            return step.right_column
    return None


def _finest(layer: SemanticLayer, joins: JoinPlan) -> str | None:
    """The joined table whose rows the joins do not repeat: the rows of the join, one
    each. None when no table is such (two tables that both fan out)."""
    edges: Edges = defaultdict(list)
    for s in joins.joins:
        edges[s.left_table].append(
            (s.right_table, not unique(layer, s.right_table, s.right_column))
        )
        edges[s.right_table].append((s.left_table, not unique(layer, s.left_table, s.left_column)))
    finest = [t for t in joins.tables[1:] if not repeats(t, edges)]
    return finest[0] if len(finest) == 1 else None


def _counts_its_anchor(intent: Intent) -> bool:
    """One count of the rows asked about, not a count per group: a join must not repeat
    them. (Per group, the rows counted are the other side's: "the most common genre of
    tracks" counts tracks.)"""
    per_group = intent.group is not None or intent.having is not None or intent.order is not None
    per_group |= any(o.element is not None and not o.aggregate for o in intent.outputs)
    return intent.counted in (None, intent.anchor) and not per_group


def _output(output: Output, names: Names, count: exp.Count) -> exp.Expr:
    if output.element is None or output.element.column is None:
        return count.copy()
    column = names.column(output.element)
    if output.part:
        return _PARTS[output.part](this=column)
    if output.aggregate == "count":
        return exp.Count(this=exp.Distinct(expressions=[column]) if output.distinct else column)
    if output.aggregate in _AGGREGATES:
        return _AGGREGATES[output.aggregate](this=column)
    return column


def _joined(conditions: list[Condition], any_of: bool, names: Names) -> list[exp.Expr]:
    """The conditions to AND. Joined by "or", the values of one column are alternatives
    and the rest still holds ("over 18, allergic to food or animals"); when every
    condition is on a column of its own, they are all alternatives ("on credit hold or
    owing more than 500")."""
    where = [condition_sql(c, names) for c in conditions]
    if not any_of or len(where) < 2:
        return where
    counts = Counter(str(c.element) for c in conditions)
    if max(counts.values()) == 1:
        return [exp.or_(*where)]
    either = [w for c, w in zip(conditions, where, strict=True) if counts[str(c.element)] > 1]
    rest = [w for c, w in zip(conditions, where, strict=True) if counts[str(c.element)] == 1]
    return [exp.or_(*either), *rest]


def _grouping(intent: Intent, layer: SemanticLayer, names: Names) -> list[exp.Expr]:
    if intent.group is not None and intent.group.column:
        column = names.column(intent.group)
        grouped: list[exp.Expr] = [_PARTS[intent.period](this=column) if intent.period else column]
        if any(o.aggregate for o in intent.outputs):
            # "for each country and airline name": the columns shown beside a count are
            # groups too, each shown value its own row.
            besides = [o.element for o in intent.outputs if o.element and not o.aggregate]
            grouped += [names.column(e) for e in dict.fromkeys(besides) if e != intent.group]
        return grouped
    plain = [o.element for o in intent.outputs if o.element is not None and not o.aggregate]
    if plain and any(o.aggregate for o in intent.outputs):
        # "each status code and the number of bookings": the columns shown with a count
        # are what it is counted by.
        return [names.column(e) for e in dict.fromkeys(plain)]
    counted = intent.having is not None or (
        intent.order is not None and intent.order.aggregate in ("count", *_AGGREGATES)
    )
    if not counted:
        return []
    shown: list[exp.Expr] = [
        names.column(o.element) for o in intent.outputs if o.element and not o.aggregate
    ]
    if intent.counted in (None, intent.anchor) and shown:
        return shown  # "countries with at least two perpetrators": rows counted per country
    # Each anchor row is a group: its key, and the columns shown for it.
    key = layer.tables[intent.anchor].primary_key
    if key is None and not shown:
        raise Unreadable(f"{intent.anchor} has no key to count its rows by")
    anchor = [exp.column(key, table=names.alias[intent.anchor], quoted=True)] if key else []
    return list({column.sql(): column for column in anchor + shown}.values())


def _shows_its_order(
    ordering: exp.Ordered, outputs: list[exp.Expr], grouped: list[exp.Expr]
) -> bool:
    """Rows ordered by a column they do not show show it too: the reader can check the
    order ("the three highest mountains": their heights), and PostgreSQL requires it of
    DISTINCT rows. Not beside a count or a grouping, where it would change the rows."""
    column = ordering.this
    if isinstance(column, exp.Sum | exp.Avg | exp.Min | exp.Max):  # "top 5 by total amount"
        return all(o.sql() != column.sql() for o in outputs)
    plain = column.this if isinstance(column, exp.Cast) else column  # numbers held as text
    if not isinstance(plain, exp.Column) or grouped:
        return False
    if any(isinstance(o, exp.Star) or _aggregated(o) for o in outputs):
        return False
    return all(o.sql() != column.sql() for o in outputs)


def _tiebreak(
    intent: Intent,
    layer: SemanticLayer,
    names: Names,
    outputs: list[exp.Expr],
    grouped: list[exp.Expr],
) -> exp.Expr | None:
    """What orders rows the ordering ties, so that "the artist with the fewest songs" is
    the same artist every time it is asked: the first group, the first column of DISTINCT
    rows (the only ones they may be ordered by), else the anchor's key."""
    if grouped:
        return grouped[0].copy()
    if intent.distinct:
        return outputs[0].copy() if outputs and isinstance(outputs[0], exp.Column) else None
    key = layer.tables[intent.anchor].primary_key
    return exp.column(key, table=names.alias[intent.anchor], quoted=True) if key else None


def _ordering(
    intent: Intent, names: Names, outputs: list[exp.Expr], count: exp.Count
) -> exp.Ordered:
    order = intent.order
    assert order is not None
    target: exp.Expr
    if order.aggregate == "count":
        target = count
    elif order.aggregate in _AGGREGATES and order.element is not None:
        target = _AGGREGATES[order.aggregate](this=names.column(order.element))
    elif order.aggregate in ("output", "shown") or order.element is None:
        if isinstance(outputs[0], exp.Star):
            raise Unreadable("it asks for every column in an order without saying of which")
        target = _ordered_output(outputs, by_measure=order.aggregate == "shown").copy()
    else:
        target = names.column(order.element)
        if order.as_number:
            target = exp.cast(target, exp.DataType.Type.DOUBLE)
    return exp.Ordered(this=target, desc=order.descending)


def _ordered_output(outputs: list[exp.Expr], *, by_measure: bool) -> exp.Expr:
    """What an order that names no key sorts by: the first output, or with `by_measure`
    the measure shown beside labels (a count or total), which is what the rows differ in."""
    if by_measure:
        measures = [o for o in outputs if isinstance(o.unalias(), exp.AggFunc)]
        if measures and len(measures) < len(outputs):
            return measures[0]
    return outputs[0]
