"""The planner's readings of bounds, missing rows and spans of days answer with the rows the
warehouse holds (MariaDB, demo registry, no LLM). None of these questions is in the demo
question set."""

from decimal import Decimal

import pytest

from core.databases.scope import Scope
from sqlagent.agent import ask

from .agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, no_llm, warehouse

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "no_llm", "warehouse"]

pytestmark = pytest.mark.usefixtures("warehouse", "no_llm")


def test_rows_without_any_of_another_table() -> None:
    answer = ask("How many active technicians have no certifications?", scope=Scope())
    assert answer.status == "answered", answer.reason
    expected = gold(
        "SELECT COUNT(*) FROM `employee` e WHERE e.`isTechnician` = 1 AND e.`isActive` = 1 "
        "AND NOT EXISTS (SELECT 1 FROM `employeeCertification` c WHERE c.`employeeId` = e.`id`)"
    )
    assert answer.rows == [[expected[0][0]]]


def test_groups_above_a_bound_and_how_many_there_are() -> None:
    listed = ask("Which branches have more than 55 active employees?", scope=Scope())
    assert listed.status == "answered", listed.reason
    expected = gold(
        "SELECT b.`name`, COUNT(*) FROM `employee` e JOIN `branch` b ON b.`id` = e.`branchId` "
        "WHERE e.`isActive` = 1 GROUP BY b.`id`, b.`name` HAVING COUNT(*) > 55"
    )
    assert expected and sorted(map(tuple, listed.rows)) == sorted(expected)
    counted = ask("How many customers have at least 20 work orders?", scope=Scope())
    many = gold(
        "SELECT COUNT(*) FROM (SELECT `customerId` FROM `workOrder` GROUP BY `customerId` "
        "HAVING COUNT(*) >= 20) AS t"
    )
    assert counted.rows == [[many[0][0]]]
    assert counted.answer == f"{many[0][0]} customers."


def test_days_between_two_dates_of_the_same_rows() -> None:
    answer = ask(
        "On average, how many days passed between the scheduled start and the completion "
        "of repair work orders?",
        scope=Scope(),
    )
    assert answer.status == "answered", answer.reason
    expected = gold(
        "SELECT ROUND(AVG(DATEDIFF(w.`completedAt`, w.`scheduledStart`)), 2) FROM `workOrder` w "
        "JOIN `workOrderType` t ON t.`id` = w.`workOrderTypeId` WHERE t.`name` = 'Repair'"
    )
    average = answer.rows[0][answer.columns.index("avg_days")]
    assert Decimal(str(average)) == expected[0][0]
