"""Pre-validation of the SQL that is about to run, after the secure-view rewrite.

The whole syntax tree must be one read: no DML, DDL, SET, INTO, locking clauses, session
variables or unknown functions (file and remote readers such as LOAD_FILE, pg_read_file
and dblink are unknown functions here). Every table must be executable for the agent and
every column must exist where it is used. Each problem names what is wrong and where the
right thing really is.
"""

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError
from sqlglot.optimizer.scope import Scope, traverse_scope

from registries.services import SemanticLayer
from sqlagent.schema_view import ExecutableSchema

# Nodes that have no place in a read, wherever they appear in the tree.
FORBIDDEN_NODES: dict[type[exp.Expression], str] = {
    exp.Insert: "INSERT",
    exp.Update: "UPDATE",
    exp.Delete: "DELETE",
    exp.Merge: "MERGE",
    exp.Create: "CREATE",
    exp.Drop: "DROP",
    exp.Alter: "ALTER",
    exp.TruncateTable: "TRUNCATE",
    exp.Command: "a command",
    exp.Set: "SET",
    exp.Into: "INTO",
    exp.Lock: "a locking clause",
    exp.Copy: "COPY",
    exp.Use: "USE",
    exp.Transaction: "a transaction statement",
    exp.Commit: "COMMIT",
    exp.Rollback: "ROLLBACK",
    exp.Parameter: "a session variable",
    exp.SessionParameter: "a system variable",
    exp.Placeholder: "a placeholder",
}
READ_ROOTS = (exp.Select, exp.Union, exp.Intersect, exp.Except, exp.Subquery)

# Functions sqlglot does not model are refused unless listed here: that is how
# LOAD_FILE, pg_read_file, dblink, set_config, current_setting and SLEEP stay out.
ALLOWED_ANONYMOUS = frozenset(
    {"DATEDIFF", "TIMESTAMPDIFF", "DAYNAME", "MONTHNAME", "WEEK", "YEARWEEK", "QUARTER",
     "DATE_PART", "AGE", "ISNULL", "IFNULL", "FIELD", "LPAD", "RPAD", "LOCATE", "INSTR",
     "CHAR_LENGTH", "CHARACTER_LENGTH", "POSITION", "TO_CHAR", "STRFTIME", "LAST_DAY"}
)  # fmt: skip
# Known sqlglot functions that read files or other systems in some dialect.
FORBIDDEN_FUNCTION_WORDS = ("READ", "FILE", "LOAD", "EXTERNAL", "SLEEP")


@dataclass(frozen=True)
class Issue:
    code: str  # syntax, not_read, forbidden, unknown_table, unknown_column, ambiguous_column
    message: str

    def __str__(self) -> str:
        return self.message


class SQLValidationError(Exception):
    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        super().__init__("; ".join(issue.message for issue in issues))


def parse_single_read(sql: str, dialect: str) -> exp.Expression:
    """Parse `sql` as exactly one read statement, or raise SQLValidationError."""
    try:
        parsed = sqlglot.parse(sql, read=dialect)
        statements = [s for s in parsed if isinstance(s, exp.Expression)]
    except (ParseError, TokenError) as error:
        raise SQLValidationError([Issue("syntax", f"SQL does not parse: {error}")]) from error
    statements = [s for s in statements if not isinstance(s, exp.Semicolon)]
    if len(statements) != 1:
        raise SQLValidationError(
            [Issue("not_read", f"expected one statement, found {len(statements)}")]
        )
    statement = statements[0]
    issues = list(_forbidden(statement))
    if not isinstance(statement, READ_ROOTS):
        issues.insert(0, Issue("not_read", f"only SELECT is allowed, not {statement.key.upper()}"))
    if issues:
        raise SQLValidationError(issues)
    return statement


def validate_sql(sql: str, *, layer: SemanticLayer, schema: ExecutableSchema) -> exp.Expression:
    """Return the parsed statement when it is safe to run, else raise SQLValidationError."""
    statement = parse_single_read(sql, layer.dialect)
    issues = [*_table_issues(statement, schema), *_column_issues(statement, schema)]
    if issues:
        raise SQLValidationError(issues)
    return statement


def _forbidden(statement: exp.Expression) -> Iterable[Issue]:
    for node in statement.walk():
        for kind, label in FORBIDDEN_NODES.items():
            if isinstance(node, kind):
                yield Issue("forbidden", f"{label} is not allowed: {_snippet(node)}")
        if isinstance(node, exp.Anonymous):
            name = str(node.name).upper()
            if name not in ALLOWED_ANONYMOUS:
                yield Issue("forbidden", f"function {node.name}() is not allowed")
        elif isinstance(node, exp.Func):
            name = type(node).__name__.upper()
            if any(word in name for word in FORBIDDEN_FUNCTION_WORDS):
                yield Issue("forbidden", f"function {node.sql_name()}() is not allowed")


def _table_issues(statement: exp.Expression, schema: ExecutableSchema) -> Iterable[Issue]:
    cte_names = {cte.alias_or_name for cte in statement.find_all(exp.CTE)}
    for table in statement.find_all(exp.Table):
        name = table.name
        if not name or name in cte_names:
            continue
        if table.args.get("db") or table.args.get("catalog"):
            # Another schema or database is a way around the secure views: refused outright.
            yield Issue("forbidden", f"table {table.sql()} is outside the warehouse schema")
        elif name in schema.hidden:
            yield Issue(
                "unknown_table",
                f"table {name} holds encrypted personal data; read it through "
                f"{schema.hidden[name]}",
            )
        elif name not in schema.tables:
            close = difflib.get_close_matches(name, list(schema.tables), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            yield Issue("unknown_table", f"table {name} does not exist{hint}")


def _column_issues(statement: exp.Expression, schema: ExecutableSchema) -> Iterable[Issue]:
    for scope in traverse_scope(statement):
        sources = _scope_tables(scope, schema)
        for column in scope.columns:
            name = column.name
            if not name or name == "*" or column.find_ancestor(exp.Select) is not scope.expression:
                continue  # a subquery's own column: checked in the subquery's scope
            qualifier = column.table
            if qualifier:
                if qualifier not in sources:
                    if qualifier in scope.sources:
                        continue  # a derived table or CTE: its columns come from its SELECT
                    yield Issue(
                        "unknown_table", f"{column.sql()} refers to {qualifier}, not in FROM/JOIN"
                    )
                    continue
                table = sources[qualifier]
                if not schema.has_column(table, name):
                    yield Issue("unknown_column", schema.column_error(table, name))
            elif sources and len(sources) == len(scope.selected_sources):
                issue = _unqualified_issue(scope, sources, name, schema)
                if issue is not None:
                    yield issue


def _unqualified_issue(
    scope: Scope, sources: dict[str, str], name: str, schema: ExecutableSchema
) -> Issue | None:
    owners = [a for a, table in sources.items() if schema.has_column(table, name)]
    if _is_output_alias(scope, name):
        return None
    if not owners and _outer_column(scope, name, schema):
        return None  # a correlated subquery's reference to the query around it
    if not owners:
        tables = ", ".join(sorted(set(sources.values())))
        return Issue("unknown_column", schema.column_error(tables, name))
    if len(owners) > 1:
        return Issue(
            "ambiguous_column",
            f"column {name} is ambiguous: it is in {', '.join(sorted(owners))}; qualify it",
        )
    return None


def _outer_column(scope: Scope, name: str, schema: ExecutableSchema) -> bool:
    outer = scope.parent
    while outer is not None:
        if any(schema.has_column(t, name) for t in _scope_tables(outer, schema).values()):
            return True
        outer = outer.parent
    return False


def _scope_tables(scope: Scope, schema: ExecutableSchema) -> dict[str, str]:
    """alias -> table name, for the scope's sources that are real executable tables."""
    tables: dict[str, str] = {}
    for alias, (_, source) in scope.selected_sources.items():
        if isinstance(source, exp.Table) and source.name in schema.tables:
            tables[alias] = source.name
    return tables


def _is_output_alias(scope: Scope, name: str) -> bool:
    select = scope.expression
    if not isinstance(select, exp.Select):
        return False
    return any(isinstance(e, exp.Alias) and e.alias == name for e in select.expressions)


def _snippet(node: exp.Expression, limit: int = 60) -> str:
    text = node.sql()
    return text if len(text) <= limit else text[: limit - 1] + "…"
