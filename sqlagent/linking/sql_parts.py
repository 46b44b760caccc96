"""The pieces every statement of the linked planner is built from: its tables under their
aliases, joined, and a column compared with a value."""

from typing import Any

from sqlglot import exp

from registries.services import SemanticLayer
from sqlagent.join_paths import JoinPlan
from sqlagent.linking.intent import Condition
from sqlagent.linking.schema_words import Element


class Names:
    def __init__(self, joins: JoinPlan, prefix: str = "t") -> None:
        self.joins = joins
        self.alias = {table: f"{prefix}{n}" for n, table in enumerate(joins.tables, start=1)}

    def column(self, element: Element) -> exp.Column:
        assert element.column is not None
        return exp.column(element.column, table=self.alias[element.table], quoted=True)


def aliased(name: str, alias: str) -> exp.Table:
    return exp.Table(
        this=exp.to_identifier(name, quoted=True),
        alias=exp.TableAlias(this=exp.to_identifier(alias)),
    )


def joined_from(names: Names) -> exp.Select:
    """FROM the plan's first table, joined to the others, each under its alias."""
    joins = names.joins
    select = exp.Select().from_(aliased(joins.tables[0], names.alias[joins.tables[0]]))
    for step in joins.joins:
        on = exp.EQ(
            this=exp.column(step.left_column, table=names.alias[step.left_table], quoted=True),
            expression=exp.column(
                step.right_column, table=names.alias[step.right_table], quoted=True
            ),
        )
        select = select.join(aliased(step.right_table, names.alias[step.right_table]), on=on)
    return select


def literal(value: Any) -> exp.Expr:
    return exp.convert(value if isinstance(value, bool | int | float) else str(value))


def compare(target: exp.Expr, op: str, value: Any, second: Any = None) -> exp.Expr:
    said = literal(value)
    if op == "between":  # numbers, or the dates of a year
        upper = said if second is None else literal(second)
        return exp.Between(this=target, low=said, high=upper)
    if op == "in":
        return exp.In(this=target, expressions=[literal(v) for v in value])
    if op == "unlike":
        return exp.Not(this=exp.Like(this=target, expression=exp.Literal.string(f"%{value}%")))
    if op in ("like", "starts", "ends"):
        pattern = {"like": "%{}%", "starts": "{}%", "ends": "%{}"}[op].format(value)
        return exp.Like(this=target, expression=exp.Literal.string(pattern))
    kinds = {"=": exp.EQ, "!=": exp.NEQ, ">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE}
    return kinds[op](this=target, expression=said)


def single_key(layer: SemanticLayer, table: str) -> str | None:
    """The column that tells the table's rows apart; None for a key of several columns
    (one of them alone counts `Customer_ID`s, not a customer's policies)."""
    return layer.tables[table].single_key


def condition_sql(condition: Condition, names: Names) -> exp.Expr:
    column = names.column(condition.element)
    if condition.against == "avg":
        element = condition.element
        assert element.column is not None
        inner = exp.select(exp.Avg(this=exp.column(element.column, table="a", quoted=True)))
        average = exp.Subquery(this=inner.from_(aliased(element.table, "a")))
        kinds = {">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE}
        return kinds.get(condition.op, exp.EQ)(this=column, expression=average)
    return compare(column, condition.op, condition.value, condition.second)
