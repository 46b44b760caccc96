"""Reading the LLM's reply: its SQL, parsed as exactly one read statement or refused with
SQLValidationError, never run otherwise."""

import re

from sqlglot import exp
from sqlglot.errors import SqlglotError

from registries.services import SemanticLayer
from sqlagent.sql_generation.prompt_parts import logical_text
from sqlagent.validation import Issue, SQLValidationError, parse_single_read

_FENCE = re.compile(r"```[ \t]*([A-Za-z]*)[ \t]*\n?(.*?)```", re.S)
# A line that starts a query: "With this query..." is prose, "WITH recent AS (" is SQL.
_SQL_START = re.compile(
    r"^[ \t]*(SELECT\b|WITH\s+(RECURSIVE\s+)?\S+\s+AS\b|\(\s*SELECT\b)", re.I | re.M
)
NO_QUERY = "NONE"  # what the prompts ask for when no read answers the question


def extract_sql(reply: str) -> str:
    """The SQL of a reply: its first SQL code block, else the text from the first line that
    starts a query (leading prose dropped). Nothing after the start is dropped, so a
    stacked statement stays in and is refused when parsed."""
    text = reply.strip()
    blocks = _FENCE.findall(text)
    if blocks:
        sql_blocks = [body for lang, body in blocks if lang.lower() in ("", "sql", "mysql",
                      "mariadb", "postgres", "postgresql")]  # fmt: skip
        return (sql_blocks or [body for _, body in blocks])[0].strip()
    start = _SQL_START.search(text)
    if start and start.start() > 0:
        text = text[start.start() :]
    return text.removeprefix("```sql").removeprefix("```").removesuffix("```").strip()


def parse_generated(sql: str, layer: SemanticLayer) -> exp.Expression:
    """Exactly one read statement, without comments, or SQLValidationError."""
    text = extract_sql(sql)
    if not text or text.upper() == NO_QUERY:
        raise SQLValidationError([Issue("syntax", "the reply holds no SQL statement")])
    try:
        statement = parse_single_read(text, layer.dialect)
    except SqlglotError as error:  # a tokenizer error (an unclosed quote) is no ParseError
        raise SQLValidationError([Issue("syntax", f"SQL does not parse: {error}")]) from error
    for node in statement.walk():
        node.pop_comments()  # comments never travel on to the database
    return statement


def same_sql(a: str, b: str, layer: SemanticLayer) -> bool:
    try:
        first, second = parse_generated(a, layer), parse_generated(logical_text(b, layer), layer)
    except SQLValidationError:
        return False
    return first.sql(dialect=layer.dialect) == second.sql(dialect=layer.dialect)
