"""Is a verified query's SQL one safe read of known tables and columns that the database
runs? Checked when it is saved, and again whenever the registry changes."""

from sqlglot import exp

from registries.services import SemanticLayer
from sqlagent.execution import ExecutionError, execute_read
from sqlagent.schema_view import executable_schema
from sqlagent.secure_views import rewrite_secure_views
from sqlagent.validation import SQLValidationError, parse_single_read, validate_sql


class VerifiedSqlError(ValueError):
    """What is wrong with the SQL, in words a person can act on."""


def parse_verified(sql: str, layer: SemanticLayer) -> exp.Expression:
    """The statement as written (over the logical tables), checked against the registry."""
    try:
        statement = parse_single_read(sql, layer.dialect)
        secured = rewrite_secure_views(statement, layer)
        validate_sql(
            secured.sql(dialect=layer.dialect), layer=layer, schema=executable_schema(layer)
        )
    except SQLValidationError as error:
        raise VerifiedSqlError(str(error)) from error
    return statement


def check_runs(statement: exp.Expression, layer: SemanticLayer, *, url: str, agent: bool) -> None:
    """The database plans and runs it (LIMIT 0: no rows are read)."""
    secured = rewrite_secure_views(statement, layer)
    if isinstance(secured, exp.Select):
        probe = secured.limit(0)
    else:
        assert isinstance(secured, exp.Query)
        probe = exp.select("*").from_(secured.subquery("checked")).limit(0)
    try:
        execute_read(probe.sql(dialect=layer.dialect, identify=True), url=url, agent=agent)
    except ExecutionError as error:
        raise VerifiedSqlError(f"the database refused it: {error}") from error
