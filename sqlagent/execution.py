"""Step 8: run validated SQL as the warehouse's read-only agent login, in a session whose
key and row scope come from the asking user, with a statement timeout and a row limit.

A data source other than the demo warehouse (a database being evaluated) is read through
its own URL in a read-only session: the validation before this step is what keeps it safe,
the read-only session is a second lock.
"""

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from sqlglot import exp

from core.databases.agent_login import AgentLoginCanWrite
from core.databases.connect import connect_agent, database_for
from core.databases.scope import Scope
from core.databases.urls import WarehouseUrl


@dataclass(frozen=True)
class ExecutionResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool  # more rows existed than MAX_QUERY_ROWS
    elapsed_ms: float


class ExecutionError(Exception):
    """The database refused the statement; the message is the database's own."""


class WarehouseUnavailable(Exception):
    """The database cannot be reached: a service is down, not a fault of the question."""


def with_row_limit(statement: exp.Expression, max_rows: int) -> exp.Expression:
    """Ask for one row more than shown, to know whether the result was cut."""
    if isinstance(statement, exp.Query) and not isinstance(statement, exp.Select):
        return exp.select("*").from_(statement.subquery("limited")).limit(max_rows + 1)
    assert isinstance(statement, exp.Select)
    limit = statement.args.get("limit")
    current = limit.expression if limit else None
    if isinstance(current, exp.Literal) and current.is_int and int(current.this) <= max_rows:
        return statement
    return statement.limit(max_rows + 1)


def open_connection(url: str, *, agent: bool, scope: Scope) -> Any:
    """The agent's login with key and scope, or a read-only session on another source."""
    try:
        return _connect(url, agent=agent, scope=scope)
    except AgentLoginCanWrite as error:
        raise WarehouseUnavailable(f"the database is not used: {error}") from error
    except Exception as error:  # each driver has its own error classes
        raise WarehouseUnavailable(f"the database is not reachable: {error}") from error


def _connect(url: str, *, agent: bool, scope: Scope) -> Any:
    if agent:
        return connect_agent(
            url,
            user=settings.WAREHOUSE_AGENT_USER,
            password=settings.WAREHOUSE_AGENT_PASSWORD,
            aes_key=settings.WAREHOUSE_AES_KEY,
            scope=scope,
        )
    target = WarehouseUrl.parse(url)
    conn = database_for(target).connect(target)
    with conn.cursor() as cursor:
        if target.engine == "mysql":
            cursor.execute("SET SESSION TRANSACTION READ ONLY")
        else:
            cursor.execute("SET default_transaction_read_only = on")
    return conn


def _set_timeout(cursor: Any, engine: str, timeout_ms: int) -> None:
    if engine == "postgres":
        cursor.execute(f"SET statement_timeout = {int(timeout_ms)}")
    else:
        # MariaDB counts seconds in max_statement_time; MySQL milliseconds in another name.
        try:
            cursor.execute(f"SET SESSION max_statement_time = {timeout_ms / 1000:.3f}")
        except Exception:
            cursor.execute(f"SET SESSION max_execution_time = {int(timeout_ms)}")


def execute_read(
    sql: str,
    *,
    url: str,
    agent: bool,
    scope: Scope | None = None,
    max_rows: int | None = None,
    timeout_ms: int | None = None,
) -> ExecutionResult:
    max_rows = settings.MAX_QUERY_ROWS if max_rows is None else max_rows
    timeout_ms = settings.SQL_STATEMENT_TIMEOUT_MS if timeout_ms is None else timeout_ms
    engine = WarehouseUrl.parse(url).engine
    started = time.perf_counter()
    conn = open_connection(url, agent=agent, scope=scope or Scope())
    try:
        with conn.cursor() as cursor:
            _set_timeout(cursor, engine, timeout_ms)
            try:
                cursor.execute(sql)
            except Exception as error:  # each driver has its own error classes
                raise ExecutionError(str(error)) from error
            columns = [d[0] for d in cursor.description or []]
            rows = [tuple(row) for row in cursor.fetchmany(max_rows + 1)]
    finally:
        conn.close()
    return ExecutionResult(
        columns=columns,
        rows=rows[:max_rows],
        truncated=len(rows) > max_rows,
        elapsed_ms=round((time.perf_counter() - started) * 1000, 1),
    )
