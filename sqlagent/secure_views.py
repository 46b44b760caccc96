"""Deterministic rewrite of logical table names to the secure views that decrypt them.

The generator (person, LLM or compiler) writes `employee`; what runs is `secure_employee`.
An unaliased table keeps its logical name as alias so that `employee.firstName` still
resolves. Base tables of personal data never reach execution: validation refuses them.
"""

from sqlglot import exp

from registries.services import SemanticLayer


def rewrite_secure_views(statement: exp.Expression, layer: SemanticLayer) -> exp.Expression:
    rewritten = statement.copy()
    cte_names = {cte.alias_or_name for cte in rewritten.find_all(exp.CTE)}
    for table in rewritten.find_all(exp.Table):
        name = table.name
        if name in cte_names or table.args.get("db"):
            continue
        logical = layer.tables.get(name)
        if logical is None or not logical.secure_view:
            continue
        if not table.alias:
            table.set("alias", exp.TableAlias(this=exp.to_identifier(name)))
        table.set("this", exp.to_identifier(logical.secure_view))
    return rewritten
