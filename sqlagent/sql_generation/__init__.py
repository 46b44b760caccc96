"""Step 5 with an LLM: SQL from a focused prompt, and the LLM's side of steps 9 (correction)
and the loosening after an empty result.

A prompt carries the question, the schema of the selected tables only (logical names: the
secure-view rewrite comes after), the relationships among them, the plan's reading of the
question when there is one, the conversation so far and the rules. It carries the schema,
not the data: warehouse cell values are left out unless SQL_SEND_VALUES_TO_LLM is on. A
filter value stays in the prompt when the question or the registry already says it.

Whatever comes back is parsed as exactly one read (`parse_generated`); anything else
raises SQLValidationError and the agent refuses it without running it.

Modules: `requests` (the three requests), `tables` (which tables a prompt shows),
`prompt_parts` (schema, relationships, earlier SQL), `plan_hints` (the plan's reading),
`warehouse_values` (values, when allowed) and `replies` (reading what comes back).
"""

from sqlagent.sql_generation.replies import extract_sql, parse_generated
from sqlagent.sql_generation.requests import (
    Generated,
    LLMUnavailable,
    correct_sql,
    generate_sql,
    loosen_sql,
)
from sqlagent.sql_generation.tables import tables_for_correction, tables_in_context

__all__ = [
    "Generated",
    "LLMUnavailable",
    "correct_sql",
    "extract_sql",
    "generate_sql",
    "loosen_sql",
    "parse_generated",
    "tables_for_correction",
    "tables_in_context",
]
