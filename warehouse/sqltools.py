"""Turn a query written as a user would (MySQL dialect, logical table names) into one the
agent can run: tables that have a secure view are read through it, and the SQL is
transpiled to the target engine's dialect.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from core.databases.urls import EngineName

from .security import SECURE_VIEWS

SOURCE_DIALECT = "mysql"
_BY_LOWER = {name.lower(): view for name, view in SECURE_VIEWS.items()}


def to_secure_views(sql: str) -> str:
    """Replace logical table names with their secure views, keeping the names as aliases
    so `employee.firstName` still resolves: `FROM employee` -> `FROM secure_employee AS
    employee`. Names a CTE defines are left alone."""
    tree = sqlglot.parse_one(sql, read=SOURCE_DIALECT)
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    for table in list(tree.find_all(exp.Table)):
        name = table.name.lower()
        if name in ctes or name not in _BY_LOWER:
            continue
        alias = table.alias or table.name
        table.set("this", exp.to_identifier(_BY_LOWER[name].view))
        table.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    return tree.sql(dialect=SOURCE_DIALECT)


def transpile(sql: str, engine: EngineName) -> str:
    """MySQL-dialect SQL for `engine`. On PostgreSQL every identifier is quoted, since the
    warehouse's camelCase names would otherwise fold to lower case."""
    if engine == "mysql":
        return sql
    return sqlglot.transpile(sql, read=SOURCE_DIALECT, write="postgres", identify=True)[0]


def for_agent(sql: str, engine: EngineName) -> str:
    """A logical-name MySQL query, rewritten to secure views and transpiled for `engine`."""
    return transpile(to_secure_views(sql), engine)
