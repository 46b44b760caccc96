"""Step 9: a failed statement is corrected from its error, then validated and run again.

Deterministic repairs come first, for the mistakes whose fix is certain: a column written
on the wrong one of the joined tables, a near-miss column or table name. When an LLM is
configured it gets the rest, with the error, the SQL, only the relevant tables and the
history of attempts. Unsafe statements never reach this step: they are refused.
"""

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from sqlglot import exp

from registries.services import SemanticLayer
from sqlagent import sql_generation
from sqlagent.answer import Attempt
from sqlagent.plan import QueryPlan


@dataclass(frozen=True)
class Repaired:
    statement: exp.Expression
    repaired_by: str  # "deterministic" or "llm"
    changes: tuple[str, ...] = ()


def correct(
    statement: exp.Expression,
    *,
    error: str,
    question: str,
    layer: SemanticLayer,
    plan: QueryPlan | None,
    attempts: Sequence[Attempt],
    use_llm: bool,
) -> Repaired | None:
    fixed = repair(statement, layer)
    if fixed is not None:
        return fixed
    if not use_llm:
        return None
    generated = sql_generation.correct_sql(
        question=question,
        layer=layer,
        tables=sql_generation.tables_for_correction(statement, plan, layer),
        sql=attempts[-1].sql,
        error=error,
        attempts=attempts,
    )
    return Repaired(sql_generation.parse_generated(generated.sql, layer), "llm")


def repair(statement: exp.Expression, layer: SemanticLayer) -> Repaired | None:
    """Fix what has one right answer; None when nothing certain was found."""
    fixed = statement.copy()
    changes = [*_rename_tables(fixed, layer), *_move_columns(fixed, layer)]
    return Repaired(fixed, "deterministic", tuple(changes)) if changes else None


def _rename_tables(statement: exp.Expression, layer: SemanticLayer) -> list[str]:
    changes = []
    ctes = {cte.alias_or_name for cte in statement.find_all(exp.CTE)}
    for table in statement.find_all(exp.Table):
        if table.name in layer.tables or table.name in ctes or not table.name:
            continue
        close = difflib.get_close_matches(table.name, list(layer.tables), n=2, cutoff=0.85)
        if len(close) == 1:
            if not table.alias:
                table.set("alias", exp.TableAlias(this=exp.to_identifier(table.name)))
            changes.append(f"table {table.name} -> {close[0]}")
            table.set("this", exp.to_identifier(close[0]))
    return changes


def _move_columns(statement: exp.Expression, layer: SemanticLayer) -> list[str]:
    """A qualified column missing from its table goes to the one joined table that has it,
    or to the one near-miss name in its own table."""
    changes = []
    for select in statement.find_all(exp.Select):
        aliases = {
            t.alias_or_name: t.name
            for t in select.find_all(exp.Table)
            if t.name in layer.tables and t.find_ancestor(exp.Select) is select
        }
        for column in select.find_all(exp.Column):
            table = aliases.get(column.table)
            if table is None or column.name in layer.tables[table].columns:
                continue
            owners = [a for a, t in aliases.items() if column.name in layer.tables[t].columns]
            if len(owners) == 1:
                changes.append(f"{column.table}.{column.name} -> {owners[0]}.{column.name}")
                column.set("table", exp.to_identifier(owners[0]))
                continue
            names = list(layer.tables[table].columns)
            close = difflib.get_close_matches(column.name, names, n=2, cutoff=0.85)
            if len(close) == 1:
                changes.append(f"{column.table}.{column.name} -> {column.table}.{close[0]}")
                column.set("this", exp.to_identifier(close[0]))
    return changes
