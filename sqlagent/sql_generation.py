"""Step 5 with an LLM: SQL from a focused prompt, and the LLM's side of steps 9 (correction)
and the loosening after an empty result.

A prompt carries the question, the schema of the selected tables only (logical names: the
secure-view rewrite comes after), the relationships among them, the plan's reading of the
question when there is one, the conversation so far and the rules. It carries the schema,
not the data: warehouse cell values are left out unless SQL_SEND_VALUES_TO_LLM is on. A
filter value stays in the prompt when the question or the registry already says it.

Whatever comes back is parsed as exactly one read (`parse_generated`); anything else
raises SQLValidationError and the agent refuses it without running it.
"""

import contextlib
import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from openai import OpenAIError
from sqlglot import exp
from sqlglot.errors import SqlglotError

from core.providers import llm
from registries.models import DataSource
from registries.semantic_layer import Column, SemanticLayer
from sqlagent import prompts
from sqlagent.answer import Attempt, Turn
from sqlagent.data_scope import NOTHING
from sqlagent.execution import ExecutionError, execute_read
from sqlagent.join_paths import NoJoinPath, plan_joins
from sqlagent.plan import CannotAnswer, Filter, QueryPlan
from sqlagent.resolution import Resolved
from sqlagent.sql_compiler import display_columns, label_columns
from sqlagent.validation import Issue, SQLValidationError, parse_single_read
from sqlagent.value_index import value_index
from sqlagent.vocabulary import words

# Question words that say nothing about which table is meant.
_QUESTION_WORDS = frozenset(
    """the a an of for to in on at and or with by is are was were be do does did have has
    had there what which who whom whose how many much list show me give all our we their
    its that this these those each per every most least top total number count sum average
    than more less ignore rule drop delete table select from where""".split()  # noqa: SIM905
)
_FENCE = re.compile(r"```[ \t]*([A-Za-z]*)[ \t]*\n?(.*?)```", re.S)
# A line that starts a query: "With this query..." is prose, "WITH recent AS (" is SQL.
_SQL_START = re.compile(
    r"^[ \t]*(SELECT\b|WITH\s+(RECURSIVE\s+)?\S+\s+AS\b|\(\s*SELECT\b)", re.I | re.M
)
_NO_QUERY = "NONE"
MAX_VALUES_PER_COLUMN = 20
MAX_ATTEMPTS_SHOWN = 3


@dataclass(frozen=True)
class Generated:
    sql: str
    usage: dict[str, int]  # prompt_tokens, completion_tokens (0 when unknown)


class LLMUnavailable(CannotAnswer):
    """The LLM is configured but did not answer (connection, timeout, refusal by the API)."""


# --- which tables a prompt shows ------------------------------------------------------


def tables_in_context(
    plan: QueryPlan | None, resolved: Resolved, layer: SemanticLayer, *, question: str = ""
) -> list[str]:
    """The plan's tables with their bridges; else the resolved tables joined up; else the
    tables whose names and terms best match the question's words."""
    limit = settings.SQL_MAX_TABLES_IN_CONTEXT
    if plan is not None:
        return _plan_tables(plan)[:limit]
    named = [*resolved.tables(), *(ref.table for _, ref in resolved.columns)]
    named = [t for t in dict.fromkeys(named) if t in layer.tables]
    if not named:
        asked = question or " ".join(resolved.unresolved)
        return _best_matching(asked, layer, min(limit, settings.SQL_MAX_FALLBACK_TABLES))
    if len(named) > 1:
        # Without a path the LLM still sees each table, and no invented join.
        with contextlib.suppress(NoJoinPath):
            named = list(plan_joins(layer, named).tables)
    return named[:limit]


def tables_for_correction(
    statement: exp.Expression, plan: QueryPlan | None, layer: SemanticLayer
) -> list[str]:
    """The tables the failing SQL names (secure views mapped back to their logical names,
    a misspelt name to its one near match) and the plan's tables."""
    logical = _logical_names(layer)
    ctes = {cte.alias_or_name for cte in statement.find_all(exp.CTE)}
    named: list[str] = []
    for table in statement.find_all(exp.Table):
        name = logical.get(table.name, table.name)
        if name in layer.tables:
            named.append(name)
        elif name and name not in ctes:
            named += difflib.get_close_matches(name, list(layer.tables), n=1, cutoff=0.8)
    if plan is not None:
        named += _plan_tables(plan)
    return list(dict.fromkeys(named))[: settings.SQL_MAX_TABLES_IN_CONTEXT]


def _plan_tables(plan: QueryPlan) -> list[str]:
    joined = list(plan.joins.tables) if plan.joins else []
    return list(dict.fromkeys([*joined, *plan.tables]))


def _best_matching(question: str, layer: SemanticLayer, limit: int) -> list[str]:
    asked = set(words(question)) - _QUESTION_WORDS
    if not asked:
        return []
    scores: dict[str, float] = {}
    for name, table in layer.tables.items():
        score = 3.0 * len(asked & set(words(name)))
        column_words = {w for c in table.columns for w in words(c)} - {"id"}
        score += min(2.0, 0.5 * len(asked & column_words))
        if score:
            scores[name] = score
    for term in layer.terms:
        said = asked & {w for text in (term.name, *term.synonyms) for w in words(text)}
        for resolution in term.resolutions[:1]:  # the primary reading only
            for name in resolution.tables:
                if said and name in layer.tables:
                    scores[name] = scores.get(name, 0.0) + 2.0 * len(said)
    ranked = sorted(scores, key=lambda n: (-scores[n], layer.tables[n].role != "instance", n))
    return ranked[:limit]


# --- the three requests -----------------------------------------------------------------


def generate_sql(
    *,
    question: str,
    layer: SemanticLayer,
    tables: list[str],
    plan: QueryPlan | None,
    history: Sequence[Turn],
) -> Generated:
    tables = [t for t in tables if t in layer.tables]
    if not tables:
        raise CannotAnswer("no table of the database matches the question")
    prompt = prompts.GENERATE.format(
        dialect=_dialect(layer),
        question=question,
        context="\n".join(
            part  # each part ends its last line; a blank line goes between parts
            for part in (
                _schema(layer, tables, settings.SQL_MAX_COLUMNS_IN_SCHEMA, plan),
                _relationships(layer, tables, plan),
                _plan_text(plan, question, layer),
                _values_text(layer, tables),
                _history_text(history, layer),
            )
            if part
        ),
        rules=prompts.RULES,
    )
    generated = _ask(prompt)
    if generated.sql.strip().upper() == _NO_QUERY:
        raise CannotAnswer("the language model found no read that answers the question")
    return generated


def correct_sql(
    *,
    question: str,
    layer: SemanticLayer,
    tables: list[str],
    sql: str,
    error: str,
    attempts: Sequence[Attempt],
) -> Generated:
    tables = [t for t in tables if t in layer.tables]
    earlier = [a for a in attempts[:-1] if a.error][-MAX_ATTEMPTS_SHOWN:]  # the last is `sql`
    history = ""
    if earlier:
        lines = ["Earlier attempts that also failed:"]
        for attempt in earlier:
            lines.append(f"- {_clip(_logical_text(attempt.sql, layer))}")
            lines.append(f"  error: {_logical_text(attempt.error or '', layer)}")
        history = "\n".join(lines) + "\n"
    prompt = prompts.CORRECT.format(
        dialect=_dialect(layer),
        question=question,
        sql=_clip(_logical_text(sql, layer)),
        error=_logical_text(error, layer),
        attempts=history,
        schema=_schema(layer, tables, settings.SQL_MAX_COLUMNS_IN_CORRECTION, None),
        relationships=_relationships(layer, tables, None),
        rules=prompts.RULES,
    )
    return _ask(prompt)


def loosen_sql(
    *, question: str, layer: SemanticLayer, sql: str, plan: QueryPlan | None
) -> Generated | None:
    """The empty-result query with looser text filters; None when there is nothing to loosen
    or the LLM does not answer (the empty answer then stands)."""
    try:
        statement = parse_generated(sql, layer)
    except SQLValidationError:
        return None
    tables = tables_for_correction(statement, plan, layer)
    prompt = prompts.LOOSEN.format(
        dialect=_dialect(layer),
        question=question,
        sql=_clip(_logical_text(sql, layer)),
        schema=_schema(layer, tables, settings.SQL_MAX_COLUMNS_IN_CORRECTION, None),
        relationships=_relationships(layer, tables, None),
        rules=prompts.RULES,
    )
    try:
        generated = _ask(prompt)
    except LLMUnavailable:
        return None
    if generated.sql.strip().upper() == _NO_QUERY or _same_sql(generated.sql, sql, layer):
        return None
    return generated


def _ask(prompt: str) -> Generated:
    try:
        completion = llm.complete(
            [{"role": "system", "content": prompts.SYSTEM}, {"role": "user", "content": prompt}]
        )
    except (OpenAIError, llm.LLMNotConfigured) as error:
        raise LLMUnavailable(f"the language model did not answer: {error}") from error
    usage = {
        "prompt_tokens": int(completion.usage.get("prompt_tokens", 0)),
        "completion_tokens": int(completion.usage.get("completion_tokens", 0)),
    }
    return Generated(sql=extract_sql(completion.text), usage=usage)


# --- reading the reply ------------------------------------------------------------------


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
    if not text or text.upper() == _NO_QUERY:
        raise SQLValidationError([Issue("syntax", "the reply holds no SQL statement")])
    try:
        statement = parse_single_read(text, layer.dialect)
    except SqlglotError as error:  # a tokenizer error (an unclosed quote) is no ParseError
        raise SQLValidationError([Issue("syntax", f"SQL does not parse: {error}")]) from error
    for node in statement.walk():
        node.pop_comments()  # comments never travel on to the database
    return statement


def _same_sql(a: str, b: str, layer: SemanticLayer) -> bool:
    try:
        first, second = parse_generated(a, layer), parse_generated(_logical_text(b, layer), layer)
    except SQLValidationError:
        return False
    return first.sql(dialect=layer.dialect) == second.sql(dialect=layer.dialect)


# --- prompt parts -----------------------------------------------------------------------


def _dialect(layer: SemanticLayer) -> str:
    return prompts.DIALECTS.get(layer.dialect, layer.dialect)


def _schema(
    layer: SemanticLayer, tables: list[str], max_columns: int, plan: QueryPlan | None
) -> str:
    lines = ["Tables (only these exist for this question):"]
    wanted = _plan_columns(plan)
    linked = {
        (end_table, end_column)
        for rel in _relationships_among(layer, tables)
        for end_table, end_column in (
            (rel.from_table, rel.from_column),
            (rel.to_table, rel.to_column),
        )
    }
    for name in tables:
        table = layer.tables[name]
        lines.append(f"- {name}" + (f": {table.description}" if table.description else ""))
        columns = _ordered_columns(name, layer, wanted | linked)
        shown = columns[:max_columns]
        listed = ", ".join(_column_text(c) for c in shown)
        hidden = len(columns) - len(shown)
        lines.append(f"  columns: {listed}" + (f" (+{hidden} more not shown)" if hidden else ""))
        lines.append(f"  display columns: {', '.join(display_columns(table))}")
        lines.append(f"  label columns: {', '.join(label_columns(table))}")
    return "\n".join(lines) + "\n"


def _ordered_columns(name: str, layer: SemanticLayer, wanted: set[tuple[str, str]]) -> list[Column]:
    """Keys, display and label columns, then the columns joins and the plan use, then the rest."""
    table = layer.tables[name]
    first = {table.primary_key, *display_columns(table), *label_columns(table)}
    rank = {
        c: (0 if c in first else 1 if (name, c) in wanted else 2, i)
        for i, c in enumerate(table.columns)
    }
    return [table.columns[c] for c in sorted(table.columns, key=lambda c: rank[c])]


def _column_text(column: Column) -> str:
    return f"{column.name} {column.data_type}" + (" primary key" if column.primary_key else "")


def _relationships_among(layer: SemanticLayer, tables: list[str]) -> list[Any]:
    chosen = set(tables)
    threshold = settings.SQL_CONFIDENCE_THRESHOLD
    found = [
        rel
        for rel in layer.relationships
        if rel.enabled
        and rel.confidence >= threshold
        and rel.from_table in chosen
        and rel.to_table in chosen
    ]
    found.sort(key=lambda r: (-r.confidence, r.from_table, r.from_column))
    return found


def _relationships(layer: SemanticLayer, tables: list[str], plan: QueryPlan | None) -> str:
    lines: list[str] = []
    if plan is not None and plan.joins is not None:
        for step in plan.joins.joins:
            lines.append(
                f"{step.left_table}.{step.left_column} = {step.right_table}.{step.right_column}"
                " (join path of the plan)"
            )
    for rel in _relationships_among(layer, tables):
        text = f"{rel.from_table}.{rel.from_column} = {rel.to_table}.{rel.to_column}"
        if not any(line.startswith(text) or _reversed(line, rel) for line in lines):
            lines.append(f"{text} ({rel.cardinality.replace('_', ' ')})")
    lines = lines[: settings.SQL_MAX_RELATIONSHIPS_IN_PROMPT]
    if not lines:
        return "Relationships: none among these tables.\n"
    return "Relationships (join only on these):\n" + "\n".join(f"- {x}" for x in lines) + "\n"


def _reversed(line: str, rel: Any) -> bool:
    return line.startswith(f"{rel.to_table}.{rel.to_column} = {rel.from_table}.{rel.from_column}")


def _plan_columns(plan: QueryPlan | None) -> set[tuple[str, str]]:
    if plan is None:
        return set()
    refs = [c for f in plan.filters for c in f.columns] + list(plan.columns)
    refs += [r for r in (plan.measure, plan.group_column, plan.order_by) if r is not None]
    return {(r.table, r.column) for r in refs}


def _plan_text(plan: QueryPlan | None, question: str, layer: SemanticLayer) -> str:
    """The deterministic reading of the question, as hints the SQL should follow."""
    if plan is None:
        return ""
    lines = [f"The rows the question is about: {plan.anchor}"]
    known = _registry_words(layer)
    dates = [f for f in plan.filters if f.reason.startswith(("from ", "until "))]
    others = [f for f in plan.filters if f not in dates]
    if others:
        lines.append("Filters the question implies:")
        lines += [f"- {_filter_text(f, question, known)}" for f in others]
    if dates:
        lines.append("Date range: " + " and ".join(_filter_text(f, question, known) for f in dates))
    if plan.aggregate:
        measured = f" of {plan.measure}" if plan.measure else ""
        lines.append(f"Aggregate: {plan.aggregate.upper()}{measured}")
    if plan.group_table:
        lines.append(f"Group by: each {plan.group_table} (show its label columns)")
    elif plan.group_column:
        lines.append(f"Group by: {plan.group_column}")
    if plan.having:
        op, value = plan.having
        counted = "how many groups pass" if plan.count_groups else "each group that passes"
        lines.append(f"Keep groups whose count {op} {value:g} (HAVING); show {counted}")
    for absence in plan.absent:
        link = absence.link
        missing = " and ".join(_filter_text(f, question, known) for f in absence.filters)
        where = f" where {missing}" if missing else ""
        lines.append(
            f"Rows that must not exist: {link.left_table}.{link.left_column} NOT IN the "
            f"{link.right_table}.{link.right_column} values of {link.right_table}{where}"
        )
    if plan.span:
        first, second = plan.span
        lines.append(f"Days from {first} to {second} (a date difference in days)")
    if plan.columns:
        lines.append("Columns asked for: " + ", ".join(str(c) for c in plan.columns))
    if plan.order_by or (plan.aggregate and plan.limit):
        key = str(plan.order_by) if plan.order_by else "the aggregate"
        lines.append(f"Order by: {key} {'descending' if plan.descending else 'ascending'}")
    if plan.limit:
        lines.append(f"Limit: {plan.limit}")
    return "Reading of the question:\n" + "\n".join(lines) + "\n"


def _filter_text(found: Filter, question: str, known: frozenset[str]) -> str:
    columns = " or ".join(str(c) for c in found.columns)
    value = _value_text(found.value, question, known)
    if found.op in ("like", "not_like"):
        negation = "does not contain" if found.op == "not_like" else "contains"
        return f"{columns} {negation} {value} (case-insensitive)"
    if found.op in ("is_null", "is_not_null"):
        return f"{columns} {'IS NULL' if found.op == 'is_null' else 'IS NOT NULL'}"
    return f"{columns} {found.op} {value}"


def _value_text(value: Any, question: str, known: frozenset[str]) -> str:
    """A filter's value, unless it is a warehouse value the question does not itself say."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float | Decimal):
        return str(value)
    if isinstance(value, date | datetime):
        return f"'{value.isoformat()}'"
    text = str(value)
    said = text.lower() in question.lower() or text.lower() in known
    if said or settings.SQL_SEND_VALUES_TO_LLM:
        return "'" + text.replace("'", "''") + "'"
    return "the value the question names (spelled as in the question)"


def _registry_words(layer: SemanticLayer) -> frozenset[str]:
    """Strings the registry itself holds (term names, synonyms, resolution values)."""
    found = {t.name.lower() for t in layer.terms}
    found |= {s.lower() for t in layer.terms for s in t.synonyms}
    found |= {r.value.lower() for t in layer.terms for r in t.resolutions if r.value}
    return frozenset(found)


def _history_text(history: Sequence[Turn], layer: SemanticLayer) -> str:
    if not history:
        return ""
    lines = ["Conversation so far (earlier questions and their SQL):"]
    for turn in history:
        lines.append(f"- Q: {turn.question}")
        if turn.sql:
            lines.append(f"  SQL: {_clip(_logical_text(turn.sql, layer))}")
    return "\n".join(lines) + "\n"


def _clip(sql: str) -> str:
    limit = settings.SQL_MAX_SQL_HISTORY_LENGTH
    return sql if len(sql) <= limit else sql[: limit - 1] + "…"


def _logical_names(layer: SemanticLayer) -> dict[str, str]:
    return {t.secure_view: name for name, t in layer.tables.items() if t.secure_view}


def _logical_text(text: str, layer: SemanticLayer) -> str:
    """Secure-view names back to the logical names the prompt speaks in."""
    logical = _logical_names(layer)
    if not logical:
        return text
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, logical)) + r")\b")
    return pattern.sub(lambda m: logical[m.group(1)], text)


# --- warehouse values, only when a setting allows them ----------------------------------


def _values_text(layer: SemanticLayer, tables: list[str]) -> str:
    if not settings.SQL_SEND_VALUES_TO_LLM:
        return ""
    url = DataSource.objects.get(name=layer.data_source).resolved_url()
    agent = any(t.secure_view for t in layer.tables.values())
    chosen = set(tables)
    by_column: dict[str, list[str]] = {}
    for table, column, value in value_index(layer, url, agent=agent).values:
        if table in chosen:
            by_column.setdefault(f"{table}.{column}", []).append(value)
    lines = [
        f"- {column}: " + ", ".join(repr(v) for v in sorted(values)[:MAX_VALUES_PER_COLUMN])
        for column, values in sorted(by_column.items())
    ]
    lines += _sample_rows(layer, tables, url, agent)
    return "Values in the data:\n" + "\n".join(lines) + "\n" if lines else ""


def _sample_rows(layer: SemanticLayer, tables: Iterable[str], url: str, agent: bool) -> list[str]:
    """A few rows of each table that holds no personal data (SQL_SAMPLE_ROWS)."""
    if settings.SQL_SAMPLE_ROWS <= 0:
        return []
    lines = []
    for name in tables:
        table = layer.tables[name]
        if table.secure_view or table.sensitive_columns:
            continue
        shown = list(display_columns(table))
        query = exp.select(*(exp.column(c, table=name, quoted=True) for c in shown)).from_(
            exp.to_table(name, quoted=True)
        )
        try:
            result = execute_read(
                query.sql(dialect=layer.dialect),
                url=url,
                agent=agent,
                scope=NOTHING,
                max_rows=settings.SQL_SAMPLE_ROWS,
            )
        except ExecutionError:
            continue
        for row in result.rows:
            pairs = ", ".join(f"{c}={v!r}" for c, v in zip(shown, row, strict=False))
            lines.append(f"- sample {name}: {pairs}")
    return lines
