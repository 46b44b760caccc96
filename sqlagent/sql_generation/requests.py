"""The three requests to the LLM: SQL for a question, a correction of SQL that failed, and
the SQL of an empty result with looser text filters."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from openai import OpenAIError

from core.providers import llm
from registries.services import SemanticLayer
from sqlagent import prompts
from sqlagent.answer import Attempt, Turn
from sqlagent.plan import CannotAnswer, QueryPlan
from sqlagent.sql_generation.plan_hints import plan_text
from sqlagent.sql_generation.prompt_parts import (
    dialect_name,
    history_text,
    logical_text,
    relationships_text,
    schema_text,
    shown_sql,
)
from sqlagent.sql_generation.replies import NO_QUERY, extract_sql, parse_generated, same_sql
from sqlagent.sql_generation.tables import tables_for_correction
from sqlagent.sql_generation.warehouse_values import values_text
from sqlagent.validation import SQLValidationError

MAX_ATTEMPTS_SHOWN = 3


@dataclass(frozen=True)
class Generated:
    sql: str
    usage: dict[str, int]  # prompt_tokens, completion_tokens (0 when unknown)


class LLMUnavailable(CannotAnswer):
    """The LLM is configured but did not answer (connection, timeout, refusal by the API)."""


def generate_sql(
    *,
    question: str,
    layer: SemanticLayer,
    tables: list[str],
    plan: QueryPlan | None,
    history: Sequence[Turn],
    links: str = "",
    examples: str = "",
) -> Generated:
    """`links`: the schema-linked reading of the question, where there is one; `examples`:
    related verified queries."""
    tables = [t for t in tables if t in layer.tables]
    if not tables:
        raise CannotAnswer("no table of the database matches the question")
    prompt = prompts.GENERATE.format(
        dialect=dialect_name(layer),
        question=question,
        context="\n".join(
            part  # each part ends its last line; a blank line goes between parts
            for part in (
                schema_text(layer, tables, settings.SQL_MAX_COLUMNS_IN_SCHEMA, plan),
                relationships_text(layer, tables, plan),
                plan_text(plan, question, layer),
                links,
                examples,
                values_text(layer, tables),
                history_text(history, layer),
            )
            if part
        ),
        rules=prompts.RULES,
    )
    generated = _ask(prompt)
    if generated.sql.strip().upper() == NO_QUERY:
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
            lines.append(f"- {shown_sql(attempt.sql, layer)}")
            lines.append(f"  error: {logical_text(attempt.error or '', layer)}")
        history = "\n".join(lines) + "\n"
    prompt = prompts.CORRECT.format(
        **_rework_parts(question, layer, tables, sql),
        error=logical_text(error, layer),
        attempts=history,
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
    prompt = prompts.LOOSEN.format(**_rework_parts(question, layer, tables, sql))
    try:
        generated = _ask(prompt)
    except LLMUnavailable:
        return None
    if generated.sql.strip().upper() == NO_QUERY or same_sql(generated.sql, sql, layer):
        return None
    return generated


def _rework_parts(
    question: str, layer: SemanticLayer, tables: list[str], sql: str
) -> dict[str, str]:
    """What a correction and a loosening prompt both show: the SQL and the tables it reads."""
    return {
        "dialect": dialect_name(layer),
        "question": question,
        "sql": shown_sql(sql, layer),
        "schema": schema_text(layer, tables, settings.SQL_MAX_COLUMNS_IN_CORRECTION, None),
        "relationships": relationships_text(layer, tables, None),
        "rules": prompts.RULES,
    }


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
