"""An empty result is tried once more with looser text filters before "none found".

"Westgate Power" finds nothing as an exact name but something as a part of one. Only text
filters loosen: an exact match becomes a case-insensitive part match, and a part match of
several words matches each word on its own. Numbers, dates and flags mean what they say
and stay. The answer says which filters were loosened.
"""

import copy
from dataclasses import dataclass, replace

from sqlglot import exp

from registries.services import SemanticLayer
from sqlagent import sql_generation
from sqlagent.plan import Filter, QueryPlan
from sqlagent.sql_compiler import compile_plan


@dataclass(frozen=True)
class Looser:
    statement: exp.Expression
    changes: list[str]


def loosen(
    *, question: str, layer: SemanticLayer, plan: QueryPlan | None, sql: str, generator: str
) -> Looser | None:
    if generator == "compiler" and plan is not None:
        return _loosen_plan(plan, layer)
    if generator == "llm":
        generated = sql_generation.loosen_sql(question=question, layer=layer, sql=sql, plan=plan)
        if generated is None:
            return None
        statement = sql_generation.parse_generated(generated.sql, layer)
        return Looser(statement, ["the filters were loosened after an empty result"])
    return None


def _loosen_plan(plan: QueryPlan, layer: SemanticLayer) -> Looser | None:
    looser = copy.copy(plan)
    looser.filters = []
    changes: list[str] = []
    for found in plan.filters:
        wider = _wider(found, layer)
        looser.filters.extend(wider)
        if wider != [found]:
            changes.append(f"{found.reason or found.columns[0]}: matched loosely")
    if not changes:
        return None
    return Looser(compile_plan(looser, layer), changes)


def _wider(found: Filter, layer: SemanticLayer) -> list[Filter]:
    if not isinstance(found.value, str) or not all(
        _is_text(c.table, c.column, layer) for c in found.columns
    ):
        return [found]
    if found.op == "=":
        return [replace(found, op="like", value=found.value.lower())]
    if found.op == "like":
        parts = [w for w in found.value.split() if len(w) > 2]
        if len(parts) > 1:
            return [replace(found, value=part.lower()) for part in parts]
    return [found]


def _is_text(table: str, column: str, layer: SemanticLayer) -> bool:
    found = layer.tables[table].columns.get(column)
    return bool(found and found.data_type in ("text", "string", "varchar", "char"))
