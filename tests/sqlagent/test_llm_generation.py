"""The agent with an LLM: the real `openai` client against a local OpenAI-compatible server,
through `sqlagent.agent.ask` on the demo warehouse (MariaDB) with its demo registry."""

import re
import socket
from collections.abc import Callable

import pytest
from django.conf import settings as django_settings
from pytest_django.fixtures import Settings

from core.databases.scope import Scope
from core.providers import llm
from registries.semantic_layer_loader import load_semantic_layer
from sqlagent.agent import ask
from sqlagent.answer import SqlAnswer, Turn
from sqlagent.resolution import Resolved
from sqlagent.sql_generation import (
    extract_sql,
    generate_sql,
    parse_generated,
    tables_in_context,
)
from sqlagent.validation import SQLValidationError
from warehouse.testing import agent_connection

from .fake_llm import FakeLLM
from .warehouse_sources import (
    Warehouse,
    agent_login,
    mysql_warehouse,
    test_warehouse_urls,
    warehouse_schemas,
    warehouse_sources,
)

__all__ = [
    "agent_login",
    "mysql_warehouse",
    "test_warehouse_urls",
    "warehouse_schemas",
    "warehouse_sources",
]  # fixtures

CORRECTION = "query failed"  # words only the correction prompt has


def _listed_tables(prompt: str) -> set[str]:
    """The tables whose schema a prompt shows ("- name: description" lines)."""
    section = prompt.split("Tables (only these exist for this question):", 1)[1]
    section = section.split("\nRelationships", 1)[0]
    return set(re.findall(r"^- (\w+)", section, re.M))


def _steps(answer: SqlAnswer) -> list[str]:
    return [event["step"] for event in answer.trace if event["status"] == "end"]


def _active_employees(warehouse: Warehouse) -> int:
    conn = warehouse.owner()
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM `employee` WHERE `isActive` = TRUE")
            row = cursor.fetchone()
            assert row is not None
            return int(row[0])
    finally:
        conn.close()


def _warehouse_text_values(warehouse: Warehouse, tables: set[str]) -> set[str]:
    """Text cells of those tables as the agent reads them (decrypted), distinctive ones only."""
    layer = load_semantic_layer(warehouse.name)
    found: set[str] = set()
    conn = agent_connection(warehouse.url)
    try:
        with conn.cursor() as cursor:
            for name in tables:
                table = layer.tables[name]
                texts = [c for c in table.columns.values() if c.data_type == "text"]
                if not texts:
                    continue
                listed = ", ".join(f"`{c.name}`" for c in texts)
                relation = table.secure_view or name
                cursor.execute(f"SELECT {listed} FROM `{relation}` LIMIT 200")
                for row in cursor.fetchall():
                    found |= {v for v in row if isinstance(v, str) and len(v) >= 6}
    finally:
        conn.close()
    return found


def _says(text: str, value: str) -> bool:
    """`value` as a whole word or phrase of `text` ("completed", not "completedAt")."""
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text) is not None


def _replying(generation: str, correction: str | None = None) -> Callable[[str], str]:
    def answer(prompt: str) -> str:
        if CORRECTION in prompt and correction is not None:
            return correction
        return generation

    return answer


def test_a_generated_query_runs_on_secure_views_and_answers(mysql_warehouse: Warehouse) -> None:
    sql = "SELECT COUNT(*) AS active FROM employee WHERE employee.isActive = TRUE"
    fake = FakeLLM(_replying(f"Here is the query:\n```sql\n{sql}\n```"))
    with fake.configured():
        answer = ask("How many employees are active?", source=mysql_warehouse.name, scope=Scope())
    assert answer.status == "answered", answer.reason
    assert answer.generator == "llm"
    assert answer.rows == [[_active_employees(mysql_warehouse)]]
    assert answer.sql is not None and "`secure_employee`" in answer.sql
    assert len(fake.prompts) == 1
    prompt = fake.prompts[0]
    assert "How many employees are active?" in prompt
    assert _listed_tables(prompt) == {"employee"}  # the schema slice, not 134 tables
    assert "secure_employee" not in prompt  # logical names; the rewrite adds the views
    assert "display columns: id, employeeNumber, firstName, lastName, email" in prompt
    assert "employee.isActive = TRUE" in prompt  # the plan's filter
    assert "MariaDB/MySQL" in prompt
    usage = next(e["detail"]["usage"] for e in answer.trace if e["step"] == "generation"
                 and e["status"] == "end")  # fmt: skip
    assert usage["prompt_tokens"] == len(prompt) // 4 and usage["completion_tokens"] > 0


def test_prompts_carry_the_schema_not_the_data(
    mysql_warehouse: Warehouse, settings: Settings
) -> None:
    question = "List the work orders of customers in Denver with their technicians"
    sql = "SELECT workOrder.id, workOrder.title FROM workOrder"
    fake = FakeLLM(_replying(sql))
    with fake.configured():
        answer = ask(question, source=mysql_warehouse.name, scope=Scope())
    assert answer.generator == "llm"
    prompt = fake.prompts[0]
    tables = _listed_tables(prompt)
    assert {"workOrder", "customer"} <= tables
    values = _warehouse_text_values(mysql_warehouse, tables)
    assert len(values) > 50
    leaked = {v for v in values if _says(prompt, v) and v.lower() not in question.lower()}
    assert not leaked

    settings.SQL_SEND_VALUES_TO_LLM = True  # the sweep above does see values when allowed
    fake = FakeLLM(_replying(sql))
    with fake.configured():
        ask(question, source=mysql_warehouse.name, scope=Scope())
    assert {v for v in values if _says(fake.prompts[0], v)}


def test_conversation_context_reaches_the_prompt(mysql_warehouse: Warehouse) -> None:
    earlier = Turn("How many customers are there?", "SELECT COUNT(*) FROM secure_customer")
    fake = FakeLLM(_replying("SELECT COUNT(*) AS n FROM customer"))
    with fake.configured():
        answer = ask(
            "How many customers are there?",
            source=mysql_warehouse.name,
            scope=Scope(),
            history=[earlier],
        )
    assert answer.status == "answered"
    assert "Q: How many customers are there?" in fake.prompts[0]
    assert "SQL: SELECT COUNT(*) FROM customer" in fake.prompts[0]


def test_a_wrong_column_is_corrected_from_a_focused_prompt(mysql_warehouse: Warehouse) -> None:
    wrong = "SELECT COUNT(employee.payGradeLevel) AS active FROM employee WHERE employee.isActive"
    fixed = "SELECT COUNT(employee.id) AS active FROM employee WHERE employee.isActive = TRUE"
    fake = FakeLLM(_replying(wrong, correction=f"```sql\n{fixed}\n```"))
    with fake.configured():
        answer = ask("How many employees are active?", source=mysql_warehouse.name, scope=Scope())
    assert answer.status == "answered", answer.reason
    assert answer.rows == [[_active_employees(mysql_warehouse)]]
    assert len(answer.attempts) == 2 and answer.attempts[1].repaired_by == "llm"
    assert "payGradeLevel" in (answer.attempts[0].error or "")
    assert _steps(answer).count("execution") == 1  # the wrong SQL never ran
    assert len(fake.prompts) == 2
    correction = fake.prompts[1]
    assert CORRECTION in correction
    assert "column employee.payGradeLevel does not exist in employee" in correction
    assert "payGradeLevel" in correction.split("Failing SQL:", 1)[1]
    assert _listed_tables(correction) == {"employee"}  # only the tables involved
    assert "secure_employee" not in correction


def test_an_answer_that_is_still_wrong_stops_after_the_allowed_attempts(
    mysql_warehouse: Warehouse, settings: Settings
) -> None:
    settings.SQL_CORRECTION_MAX_ATTEMPTS = 2
    wrong = "SELECT COUNT(employee.payGradeLevel) FROM employee"
    fake = FakeLLM(_replying(wrong, correction=wrong))
    with fake.configured():
        answer = ask("How many employees are active?", source=mysql_warehouse.name, scope=Scope())
    assert answer.status == "error"
    assert len(fake.prompts) == 3  # one generation, two corrections
    assert "execution" not in _steps(answer)
    assert "Earlier attempts that also failed" in fake.prompts[2]


UNSAFE = {
    "drop": "DROP TABLE employee",
    "stacked delete": "SELECT 1; DELETE FROM customer",
    "delete after a fenced read": "```sql\nSELECT name FROM customer; DELETE FROM customer\n```",
    "into outfile": "SELECT name FROM customer INTO OUTFILE '/tmp/customers.txt'",
    "load_file": "SELECT LOAD_FILE('/etc/passwd') AS secret",
    "locking read": "SELECT customer.name FROM customer FOR UPDATE",
    "set a variable": "SET @scope_customers = NULL",
    "base table by its schema": (
        "SELECT customer.name FROM customer UNION SELECT e.email FROM {db}.employee AS e"
    ),
}


@pytest.mark.parametrize("case", UNSAFE)
def test_an_unsafe_reply_is_refused_and_never_run(mysql_warehouse: Warehouse, case: str) -> None:
    reply = UNSAFE[case].format(db=mysql_warehouse.url.rsplit("/", 1)[1])
    before = mysql_warehouse.count("employee"), mysql_warehouse.count("customer")
    fake = FakeLLM(_replying(reply, correction=reply))
    with fake.configured():
        answer = ask("List the customers", source=mysql_warehouse.name, scope=Scope())
    assert answer.status == "declined", answer.reason
    assert "execution" not in _steps(answer)
    assert not answer.rows
    assert (mysql_warehouse.count("employee"), mysql_warehouse.count("customer")) == before


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("SELECT 1", "SELECT 1"),
        ("```sql\nSELECT a FROM t\n```\nThis lists a.", "SELECT a FROM t"),
        ("Sure, here it is:\nSELECT a\nFROM t;", "SELECT a\nFROM t;"),
        ("```\nWITH x AS (SELECT 1) SELECT * FROM x\n```", "WITH x AS (SELECT 1) SELECT * FROM x"),
        ("With this query you get it:\nSELECT 1", "SELECT 1"),
        ("Note:\n```text\nplain\n```\n```sql\nSELECT 2\n```", "SELECT 2"),
    ],
)
def test_the_sql_is_read_out_of_the_reply(reply: str, expected: str) -> None:
    assert extract_sql(reply) == expected


def test_parsing_a_reply_drops_comments_and_refuses_what_is_not_one_read(
    mysql_warehouse: Warehouse,
) -> None:
    layer = load_semantic_layer(mysql_warehouse.name)
    statement = parse_generated("SELECT name /*! , LOAD_FILE('x') */ FROM customer -- hi", layer)
    assert statement.sql(dialect="mysql") == "SELECT name FROM customer"
    replies = ("Here you go: DROP TABLE employee", "NONE", "", "SELECT 1;\nDELETE FROM t",
               "SELECT name FROM customer WHERE name = '' OR 1=1; --'")  # fmt: skip
    for reply in replies:
        with pytest.raises(SQLValidationError):
            parse_generated(reply, layer)


def test_an_llm_that_does_not_answer_falls_back_to_the_plan_or_declines(
    mysql_warehouse: Warehouse, settings: Settings
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.OPENAI_BASE_URL = f"http://127.0.0.1:{port}/v1"
    settings.OPENAI_MODEL = "fake-model"
    llm.get_client.cache_clear()
    try:
        planned = ask("How many employees are active?", source=mysql_warehouse.name, scope=Scope())
        unplanned = ask(
            "Show each customer with their latest work order.",
            source=mysql_warehouse.name,
            scope=Scope(),
        )
    finally:
        llm.get_client.cache_clear()
    # With a plan the compiler answers; without one the agent says why it cannot.
    assert planned.status == "answered" and planned.generator == "compiler"
    assert planned.rows == [[mysql_warehouse.count("employee", "isActive = TRUE")]]
    generation = [e for e in planned.trace if e["step"] == "generation" and e["status"] == "end"]
    assert "llm_unavailable" in generation[0]["detail"]
    assert unplanned.status == "declined"
    assert "the language model did not answer" in unplanned.reason
    assert "execution" not in _steps(unplanned)


def test_without_a_plan_the_prompt_shows_the_tables_the_words_match(
    mysql_warehouse: Warehouse,
) -> None:
    layer = load_semantic_layer(mysql_warehouse.name)
    tables = tables_in_context(
        None, Resolved(), layer, question="Which invoices were paid after their due date?"
    )
    assert tables[0] == "invoice" and "payment" in tables
    assert len(tables) <= django_settings.SQL_MAX_FALLBACK_TABLES
    assert tables_in_context(None, Resolved(), layer, question="the and of") == []


def test_an_empty_result_is_asked_once_more_with_looser_filters(
    mysql_warehouse: Warehouse,
) -> None:
    conn = agent_connection(mysql_warehouse.url)
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT `name` FROM `secure_customer` ORDER BY `id` LIMIT 1")
            row = cursor.fetchone()
            assert row is not None
            full_name = str(row[0])
    finally:
        conn.close()
    part = full_name.split()[0]
    exact = f"SELECT customer.id, customer.name FROM customer WHERE customer.name = '{part}'"
    loose = (
        "SELECT customer.id, customer.name FROM customer "
        f"WHERE LOWER(customer.name) LIKE '%{part.lower()}%'"
    )

    def answer(prompt: str) -> str:
        return loose if "returned no rows" in prompt else exact

    fake = FakeLLM(answer)
    with fake.configured():
        result = ask(f"List the customers called {part}", source=mysql_warehouse.name,
                     scope=Scope())  # fmt: skip
    assert result.status == "answered", result.reason
    assert full_name in [row[1] for row in result.rows]
    assert result.loosened
    assert len(fake.prompts) == 2
    shown = fake.prompts[1].split("SQL that found nothing:", 1)[1]
    assert f"`customer`.`name` = '{part}'" in shown  # the empty query, in logical names
    assert "secure_customer" not in fake.prompts[1]


def test_the_prompt_keeps_to_its_limits(mysql_warehouse: Warehouse, settings: Settings) -> None:
    settings.SQL_MAX_COLUMNS_IN_SCHEMA = 3
    settings.SQL_MAX_RELATIONSHIPS_IN_PROMPT = 1
    settings.SQL_MAX_SQL_HISTORY_LENGTH = 20
    layer = load_semantic_layer(mysql_warehouse.name)
    earlier = Turn("Who is active?", "SELECT employee.id FROM employee WHERE employee.isActive")
    fake = FakeLLM(_replying("```sql\nSELECT 1\n```"))
    with fake.configured():
        generated = generate_sql(
            question="Which employees work in each branch?",
            layer=layer,
            tables=["employee", "branch"],
            plan=None,
            history=[earlier],
        )
    assert generated.sql == "SELECT 1" and generated.usage["completion_tokens"] >= 0
    prompt = fake.prompts[0]
    hidden = len(layer.tables["employee"].columns) - 3
    assert (
        "columns: id integer primary key, employeeNumber text, firstName text "
        f"(+{hidden} more not shown)"
    ) in prompt
    relationships = prompt.split("Relationships (join only on these):", 1)[1].split("\n\n")[0]
    assert relationships.strip().splitlines() == ["- employee.branchId = branch.id (many to one)"]
    assert earlier.sql and f"SQL: {earlier.sql[:19]}…\n" in prompt  # 20 characters


def test_the_prompt_carries_the_plans_absent_rows_and_group_bounds(
    mysql_warehouse: Warehouse,
) -> None:
    fake = FakeLLM(_replying("SELECT COUNT(*) AS n FROM employee"))
    with fake.configured():
        ask("How many active technicians have no certifications?",
            source=mysql_warehouse.name, scope=Scope())  # fmt: skip
        ask("Which branches have more than 55 active employees?",
            source=mysql_warehouse.name, scope=Scope())  # fmt: skip
    absent, bounded = fake.prompts[0], fake.prompts[-1]
    assert "Rows that must not exist: employee.id NOT IN the employeeCertification" in absent
    assert "Keep groups whose count > 55 (HAVING)" in bounded
