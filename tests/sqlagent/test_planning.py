"""The deterministic planner and compiler on the demo warehouse's schema (no terms)."""

from datetime import date

import pytest

from registries.semantic_layer import SemanticLayer
from sqlagent.plan import CannotAnswer
from sqlagent.question_terms import extract_terms
from sqlagent.resolution import resolve
from sqlagent.schema_view import executable_schema
from sqlagent.secure_views import rewrite_secure_views
from sqlagent.sql_compiler import compile_plan
from sqlagent.table_selection import select_tables
from sqlagent.validation import validate_sql
from sqlagent.value_index import ValueIndex
from sqlagent.vocabulary import vocabulary

VALUES = ValueIndex(
    values=(
        ("workOrder", "status", "completed"),
        ("workOrder", "status", "scheduled"),
        ("branch", "name", "Denver"),
        ("customerLocation", "state", "AZ"),
        ("customer", "name", "Lighthouse Power LLC"),
    ),
    codes=(("workOrder", "workOrderNumber", r"WO\-\d{6}"),),
)


def _sql(question: str, layer: SemanticLayer) -> str:
    vocab = vocabulary(layer, VALUES.values)
    terms = extract_terms(question, vocab, today=date(2026, 11, 21))
    plan = select_tables(terms, resolve(terms, layer, VALUES), layer)
    sql = rewrite_secure_views(compile_plan(plan, layer), layer).sql(dialect="mysql")
    validate_sql(sql, layer=layer, schema=executable_schema(layer))
    return sql


def test_count_with_a_flag(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many employees are active?", warehouse_layer)
    assert "COUNT(DISTINCT `employee`.`id`)" in sql
    assert "`employee`.`isActive` = TRUE" in sql
    assert "secure_employee" in sql


def test_enumeration_value_and_date_range(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many work orders were completed in Denver?", warehouse_layer)
    assert "`workOrder`.`status` = 'completed'" in sql
    assert "`branch`.`name` = 'Denver'" in sql


def test_a_verb_dates_the_range_and_is_not_also_a_status(warehouse_layer: SemanticLayer) -> None:
    # "scheduled in 2026" is the work scheduled to start then, not work still "scheduled".
    sql = _sql("How many work orders were scheduled in 2026?", warehouse_layer)
    assert "`workOrder`.`scheduledStart` >= '2026-01-01'" in sql
    assert "`workOrder`.`scheduledStart` < '2027-01-01'" in sql
    assert "status" not in sql


def test_a_share_in_percent_counts_each_row_once(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("What percentage of work orders were completed?", warehouse_layer)
    assert "100.0 * COUNT(DISTINCT IF(`workOrder`.`status` = 'completed'" in sql
    assert "NULLIF(COUNT(DISTINCT `workOrder`.`id`), 0)" in sql


def test_a_share_per_group_is_of_the_rows_its_condition_reads(
    warehouse_layer: SemanticLayer,
) -> None:
    sql = _sql("What percentage of work orders per branch were completed?", warehouse_layer)
    assert "100.0 * COUNT(DISTINCT IF(`workOrder`.`status` = 'completed', `workOrder`.`id`" in sql
    assert "GROUP BY `branch`" in sql


def test_a_code_identifies_its_row(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("Show work order WO-001234", warehouse_layer)
    assert "`workOrder`.`workOrderNumber` = 'WO-001234'" in sql
    assert "*" not in sql  # display columns, never SELECT *


def test_group_by_a_table_counts_distinct_rows(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many employees are there in each branch?", warehouse_layer)
    assert "GROUP BY `branch`.`id`" in sql
    assert "COUNT(DISTINCT `employee`.`id`)" in sql


def test_a_role_named_key_fixes_the_join(warehouse_layer: SemanticLayer) -> None:
    # workOrder -> employee has several keys; "account manager" names customer's.
    sql = _sql("Who is the account manager of Lighthouse Power LLC?", warehouse_layer)
    assert "`customer`.`accountManagerId` = `employee`.`id`" in sql
    assert "`customer`.`name` = 'Lighthouse Power LLC'" in sql


def test_a_word_ending_a_table_name_is_that_table(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many work orders of each type were scheduled in 2026?", warehouse_layer)
    assert "GROUP BY `workOrderType`.`id`" in sql


def test_negated_flags_and_state_names(warehouse_layer: SemanticLayer) -> None:
    assert "`branch`.`isActive` = FALSE" in _sql(
        "Which branches are no longer active?", warehouse_layer
    )
    assert "`customer`.`isActive` = FALSE" in _sql(
        "How many customers are inactive?", warehouse_layer
    )
    located = _sql("How many customer locations are in Arizona?", warehouse_layer)
    assert "`customerLocation`.`state` = 'AZ'" in located


def test_group_by_month_of_a_date(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("In which month of 2025 were the most work orders scheduled?", warehouse_layer)
    assert "GROUP BY MONTH(`workOrder`.`scheduledStart`)" in sql
    assert sql.endswith("LIMIT 1")


def test_a_measure_is_named_by_its_word(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How much was received per payment method in 2026?", warehouse_layer)
    assert "SUM(`payment`.`amount`)" in sql
    assert "GROUP BY `payment`.`method`" in sql


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("What percentage of work orders are there?", "share"),
        ("How many work orders are there and who supervised them?", "two questions"),
        ("How many employees have left the company?", "'left'"),
        ("How many work orders have more than 5 hours of work time?", "comparison"),
        ("How many unicorns are there?", "'unicorn'"),
    ],
)
def test_it_declines_rather_than_guess(
    warehouse_layer: SemanticLayer, question: str, reason: str
) -> None:
    with pytest.raises(CannotAnswer) as error:
        _sql(question, warehouse_layer)
    assert reason in str(error.value)
