"""Step 5 without an LLM: compile the plan into SQL over logical table names (sqlglot).

SELECT lists display columns, never `*`. A count counts distinct rows of the anchor, and a
sum or average over rows that a to-many join repeats is taken over the distinct rows
first, so totals are never silently multiplied.
"""

from collections.abc import Iterable

from sqlglot import exp

from registries.services import SemanticLayer, Table
from sqlagent.join_paths import JoinStep
from sqlagent.plan import Absence, ColumnRef, Filter, QueryPlan

AGGREGATES: dict[str, type[exp.Expression]] = {
    "count": exp.Count,
    "sum": exp.Sum,
    "avg": exp.Avg,
    "min": exp.Min,
    "max": exp.Max,
}


def column(ref: ColumnRef) -> exp.Column:
    return exp.column(ref.column, table=ref.table, quoted=True)


def label_columns(table: Table) -> tuple[str, ...]:
    if table.label_columns:
        return table.label_columns
    named = tuple(c for c in table.columns if c.lower() in ("name", "title", "code"))
    return named or tuple(c for c in table.columns if c == "id")


def display_columns(table: Table) -> tuple[str, ...]:
    return table.display_columns or label_columns(table)


def _condition(found: Filter) -> exp.Expression:
    if found.op == "any":  # conditions joined by "or"
        return exp.Paren(this=exp.or_(*(_condition(member) for member in found.value)))
    parts: list[exp.Expression] = []
    for ref in found.columns:
        target = column(ref)
        if found.op in ("like", "not_like"):
            like = exp.Like(
                this=exp.Lower(this=target), expression=exp.Literal.string(f"%{found.value}%")
            )
            parts.append(exp.Not(this=like) if found.op == "not_like" else like)
        elif found.op == "is_null":
            parts.append(exp.Is(this=target, expression=exp.Null()))
        elif found.op == "is_not_null":
            parts.append(exp.Not(this=exp.Is(this=target, expression=exp.Null())))
        elif found.op == "in":
            parts.append(exp.In(this=target, expressions=[_literal(v) for v in found.value]))
        else:
            parts.append(_compare(found.op, target, _literal(found.value)))
    if len(parts) == 1:
        return parts[0]
    combined = exp.and_(*parts) if found.op == "not_like" else exp.or_(*parts)
    return exp.Paren(this=combined)


def _compare(op: str, left: exp.Expression, right: exp.Expression) -> exp.Expression:
    kinds: dict[str, type[exp.Expression]] = {
        "=": exp.EQ, "!=": exp.NEQ, ">=": exp.GTE, ">": exp.GT, "<": exp.LT, "<=": exp.LTE,
    }  # fmt: skip
    return kinds[op](this=left, expression=right)


def _literal(value: object) -> exp.Expression:
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, int | float):
        return exp.Literal.number(value)
    return exp.Literal.string(str(value))


def _from_and_joins(plan: QueryPlan, select: exp.Select) -> exp.Select:
    select = select.from_(exp.to_table(plan.anchor, quoted=True))
    assert plan.joins is not None
    return _joined(select, plan.joins.joins)


def _joined(select: exp.Select, steps: Iterable[JoinStep]) -> exp.Select:
    for step in steps:
        on = exp.EQ(
            this=column(ColumnRef(step.right_table, step.right_column)),
            expression=column(ColumnRef(step.left_table, step.left_column)),
        )
        select = select.join(exp.to_table(step.right_table, quoted=True), on=on)
    return select


def _fans_out_from(plan: QueryPlan, table: str) -> bool:
    """Whether some join repeats the rows of `table` (a to-many step away from it)."""
    assert plan.joins is not None
    parents = {step.right_table: step for step in plan.joins.joins}
    # Steps on the path from the anchor to `table` reversed, plus every other step.
    on_path = set()
    node = table
    while node in parents:
        on_path.add(parents[node])
        node = parents[node].left_table
    for step in plan.joins.joins:
        reverse = step in on_path
        if step.fans_out != reverse:  # away from `table`, toward the many side
            return True
    return False


def _absent(absence: Absence, layer: SemanticLayer) -> exp.Expression:
    """The anchor's key is not among those the missing rows would point to. An uncorrelated
    NOT IN reads the same on every engine; NULL keys are left out, as they match nothing."""
    link = absence.link
    pointer = column(ColumnRef(link.right_table, link.right_column))
    inner = exp.select(pointer).from_(exp.to_table(link.right_table, quoted=True))
    inner = _joined(inner, absence.joins)
    present = exp.Not(this=exp.Is(this=pointer.copy(), expression=exp.Null()))
    inner = inner.where(exp.and_(present, *(_condition(f) for f in absence.filters)))
    owner = column(ColumnRef(link.left_table, link.left_column))
    missing = exp.Not(this=owner.isin(query=inner))
    if link.left_column == layer.tables[link.left_table].primary_key:
        return missing
    # "employees without a branch": an empty reference points at no row at all.
    return exp.Paren(this=exp.or_(exp.Is(this=owner.copy(), expression=exp.Null()), missing))


def _days(span: tuple[ColumnRef, ColumnRef]) -> exp.Expression:
    """Whole days from the first date to the second, calendar days on every engine."""
    first, second = (exp.Cast(this=column(ref), to=exp.DataType.build("DATE")) for ref in span)
    return exp.DateDiff(this=second, expression=first, unit=exp.var("DAY"))


def compile_plan(plan: QueryPlan, layer: SemanticLayer) -> exp.Select:
    anchor = layer.tables[plan.anchor]
    key = ColumnRef(plan.anchor, anchor.primary_key or "id")
    where = [_condition(f) for f in plan.filters] + [_absent(a, layer) for a in plan.absent]
    average = _average_of_all(plan, where)
    outputs, group = _groups(plan, layer)
    if average is not None and not group:  # each row against the average of all of them
        assert plan.versus_average is not None and plan.measure is not None
        where.append(_compare(plan.versus_average, column(plan.measure), average))
    if plan.aggregate:
        outputs += _aggregates(plan, key, layer, grouped=bool(group))
    else:
        outputs += _listed(plan, anchor)
    select = _from_and_joins(plan, exp.Select().select(*outputs))
    if where:
        select = select.where(exp.and_(*where))
    if group:
        select = _grouped(select, group, plan, key, layer)
        if average is not None:  # each group's amount against the average of every row
            assert plan.versus_average is not None
            amount = _aggregate(plan, key, layer).this
            select = select.having(_compare(plan.versus_average, amount, average))
    if not plan.aggregate and (plan.values_only or _repeats_anchor(plan)):
        select = select.distinct()
    order = _order(plan, outputs, layer)
    if order:
        select = select.order_by(*order)
    if plan.limit:
        select = select.limit(plan.limit)
    if plan.count_groups:  # "how many customers have more than 40 work orders"
        counted = exp.Alias(this=exp.Count(this=exp.Star()), alias=exp.to_identifier("count"))
        return exp.select(counted).from_(select.subquery("kept"))
    return select


def _average_of_all(plan: QueryPlan, where: list[exp.Expression]) -> exp.Expression | None:
    """The measure's average over the rows the question is about, for "above average"."""
    if plan.versus_average is None or plan.measure is None:
        return None
    average = exp.Avg(this=column(plan.measure))
    inner = _from_and_joins(plan, exp.Select().select(average))
    if where:
        inner = inner.where(exp.and_(*(w.copy() for w in where)))
    return exp.Subquery(this=inner)


def _groups(
    plan: QueryPlan, layer: SemanticLayer
) -> tuple[list[exp.Expression], list[exp.Expression]]:
    """The groups' columns shown, and what the rows are grouped by."""
    outputs: list[exp.Expression] = []
    group: list[exp.Expression] = []
    if plan.group_table:
        table = layer.tables[plan.group_table]
        labels = [ColumnRef(plan.group_table, c) for c in label_columns(table)]
        # "Show the part name and id": the groups' columns the question asks for, too.
        labels += [r for r in plan.columns if r.table == plan.group_table and r not in labels]
        outputs += [column(r) for r in labels]
        keys = [ColumnRef(plan.group_table, table.primary_key)] if table.primary_key else []
        group += [column(r) for r in dict.fromkeys(keys + labels)]
    elif plan.group_column:
        grouped = _grouped_value(plan, plan.group_column)
        outputs.append(grouped)
        group.append(grouped.this if isinstance(grouped, exp.Alias) else grouped)
    return outputs, group


def _aggregates(
    plan: QueryPlan, key: ColumnRef, layer: SemanticLayer, *, grouped: bool
) -> list[exp.Expression]:
    outputs: list[exp.Expression] = []
    if plan.aggregate not in ("count", "ratio") and (plan.counted_too or not grouped):
        # "total of overdue invoices": how many rows the total is over, too.
        count = _count(layer.tables[plan.anchor], key)
        outputs.append(exp.Alias(this=count, alias=exp.to_identifier("count", quoted=True)))
    outputs.append(_aggregate(plan, key, layer))
    return outputs


def _listed(plan: QueryPlan, anchor: Table) -> list[exp.Expression]:
    """The columns of a plain list: the labels and the columns asked for, else the display
    columns; the column ordered by; the days of a span."""
    label_refs = [ColumnRef(plan.anchor, c) for c in label_columns(anchor)]
    asked = list(dict.fromkeys(plan.columns))
    if plan.values_only:
        return [column(r) for r in asked]
    shown = [ColumnRef(plan.anchor, c) for c in display_columns(anchor)]
    refs: list[ColumnRef] = (label_refs + asked if asked else shown) + plan.beside
    if plan.order_by and plan.order_by not in refs:
        refs.append(plan.order_by)
    outputs: list[exp.Expression] = [column(r) for r in dict.fromkeys(refs)]
    if plan.span:  # "how many days between the start and the end of X"
        outputs.append(exp.Alias(this=_days(plan.span), alias=exp.to_identifier("days")))
    return outputs


def _grouped(
    select: exp.Select,
    group: list[exp.Expression],
    plan: QueryPlan,
    key: ColumnRef,
    layer: SemanticLayer,
) -> exp.Select:
    select = select.group_by(*group)
    if plan.having and plan.aggregate:
        op, bound = plan.having
        counted = _aggregate(plan, key, layer).this
        select = select.having(_compare(op, counted, _literal(_number(bound))))
    return select


def _repeats_anchor(plan: QueryPlan) -> bool:
    return bool(plan.joins and plan.joins.joins and _fans_out_from(plan, plan.anchor))


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _count(table: Table, key: ColumnRef) -> exp.Expression:
    """Each row once, by its key; a table without a key is counted row by row."""
    if table.primary_key:
        return exp.Count(this=exp.Distinct(expressions=[column(key)]))
    return exp.Count(this=exp.Star())


def _aggregate(plan: QueryPlan, key: ColumnRef, layer: SemanticLayer) -> exp.Expression:
    assert plan.aggregate is not None
    if plan.aggregate == "ratio":
        assert plan.share_of is not None
        key = _share_key(plan, key, layer)
        matching = exp.Count(
            this=exp.Distinct(
                expressions=[exp.If(this=_condition(plan.share_of), true=column(key))]
            )
        )
        every = exp.Count(this=exp.Distinct(expressions=[column(key)]))
        # "what percentage": 0-100; "what share", "the ratio": a fraction 0-1
        scale, name, places = ("100.0", "percent", 2) if plan.in_percent else ("1.0", "share", 4)
        share = exp.Div(
            this=exp.Mul(this=exp.Literal.number(scale), expression=matching),
            expression=exp.Nullif(this=every, expression=exp.Literal.number(0)),
        )
        rounded = exp.Round(this=share, decimals=exp.Literal.number(places))
        return exp.Alias(this=rounded, alias=exp.to_identifier(name, quoted=True))
    if plan.aggregate == "count":
        name = "count"
        value: exp.Expression = _count(layer.tables[plan.anchor], key)
    elif plan.span is not None:
        name = f"{plan.aggregate}_days"
        value = AGGREGATES[plan.aggregate](this=_days(plan.span))
    else:
        assert plan.measure is not None
        name = f"{plan.aggregate}_{plan.measure.column}"
        value = AGGREGATES[plan.aggregate](this=column(plan.measure))
    if plan.aggregate == "avg":  # an average reads as a figure, not 4.1111
        value = exp.Round(this=value, decimals=exp.Literal.number(2))
    return exp.Alias(this=value, alias=exp.to_identifier(name, quoted=True))


def _share_key(plan: QueryPlan, key: ColumnRef, layer: SemanticLayer) -> ColumnRef:
    """The rows a share is of are those of the table its condition reads ("for each
    category, the percentage of inspections that failed": inspections, not assets)."""
    assert plan.share_of is not None
    tables = plan.share_of.tables
    table = layer.tables[next(iter(tables))] if len(tables) == 1 else None
    if table is None or not table.primary_key or table.name == key.table:
        return key
    return ColumnRef(table.name, table.primary_key)


def _grouped_value(plan: QueryPlan, ref: ColumnRef) -> exp.Expression:
    """The column grouped by, or its month or year ("in which month")."""
    if plan.group_period is None:
        return column(ref)
    period = exp.Month if plan.group_period == "month" else exp.Year
    return exp.Alias(this=period(this=column(ref)), alias=exp.to_identifier(plan.group_period))


def _tie_breakers(table: Table) -> list[exp.Ordered]:
    """Names that identify a row (a name, title or code) break ties; labels that can repeat
    (people's first and last names) give way to the key."""
    labels = label_columns(table)
    named = any(n.lower() in ("name", "title", "code") or table.columns[n].unique for n in labels)
    names = labels if named else (table.primary_key or "id",)
    return [exp.Ordered(this=column(ColumnRef(table.name, n)), nulls_first=True) for n in names]


def _order(
    plan: QueryPlan, outputs: list[exp.Expression], layer: SemanticLayer
) -> list[exp.Ordered]:
    """The order asked for; ties broken by the group's key so a top-N is the same on every
    engine. A plain list is in label order (family name first for people)."""
    if plan.aggregate and (plan.group_table or plan.group_column):
        if not (plan.limit or plan.descending):
            return []
        alias = outputs[-1].alias
        ranked = exp.Ordered(this=exp.column(alias, quoted=True), desc=plan.descending)
        if plan.group_table:
            return [ranked, *_tie_breakers(layer.tables[plan.group_table])]
        assert plan.group_column is not None
        grouped = _grouped_value(plan, plan.group_column)
        key = grouped.this if isinstance(grouped, exp.Alias) else grouped
        return [ranked, exp.Ordered(this=key, nulls_first=True)]
    if plan.order_by:
        ordered = [exp.Ordered(this=column(plan.order_by), desc=plan.descending)]
        key = layer.tables[plan.anchor].primary_key
        if plan.limit and key and plan.order_by.table == plan.anchor:
            # "the oldest Grove crane" of several built in 1996: the first recorded, on
            # every engine.
            ordered.append(exp.Ordered(this=column(ColumnRef(plan.anchor, key))))
        return ordered
    if plan.values_only:
        return [exp.Ordered(this=column(r), nulls_first=True) for r in dict.fromkeys(plan.columns)]
    if plan.aggregate:
        return []
    labels = list(label_columns(layer.tables[plan.anchor]))
    labels.sort(key=lambda name: 0 if "last" in name.lower() or "family" in name.lower() else 1)
    return [
        exp.Ordered(this=column(ColumnRef(plan.anchor, name)), nulls_first=True) for name in labels
    ]
