"""The fan-out guard on the warehouse: totals over a to-many join are not multiplied."""

from decimal import Decimal

import pytest
from sqlglot import exp

from registries.semantic_layer import SemanticLayer
from sqlagent.fan_out import guard_fan_out

from .agent_fixtures import agent_warehouse_url, gold

__all__ = ["agent_warehouse_url"]

pytestmark = pytest.mark.usefixtures("agent_warehouse_url")

# workTime has many rows per work order: joining it repeats each work order.
COUNT_JOINED = (
    "SELECT COUNT(*) FROM `workOrder` JOIN `workTime` ON `workTime`.`workOrderId` = "
    "`workOrder`.`id` WHERE `workOrder`.`status` = 'completed'"
)
SUM_JOINED = (
    "SELECT `workOrder`.`customerId`, SUM(`workOrder`.`estimatedHours`) AS `hours` "
    "FROM `workOrder` JOIN `workTime` ON `workTime`.`workOrderId` = `workOrder`.`id` "
    "GROUP BY `workOrder`.`customerId`"
)
SUM_ONCE = (
    "SELECT `customerId`, SUM(`estimatedHours`) FROM `workOrder` "
    "WHERE `id` IN (SELECT `workOrderId` FROM `workTime`) GROUP BY `customerId`"
)


def _guarded(sql: str, layer: SemanticLayer) -> tuple[str, list[str]]:
    statement, notes = guard_fan_out(exp.maybe_parse(sql, dialect="mysql"), layer)
    return statement.sql(dialect="mysql"), notes


def test_count_star_over_a_to_many_join_counts_each_row_once(
    warehouse_layer: SemanticLayer,
) -> None:
    sql, notes = _guarded(COUNT_JOINED, warehouse_layer)
    assert "COUNT(DISTINCT `workOrder`.`id`)" in sql
    assert notes
    completed = gold("SELECT COUNT(*) FROM `workOrder` WHERE `status` = 'completed' "
                     "AND `id` IN (SELECT `workOrderId` FROM `workTime`)")  # fmt: skip
    assert gold(sql) == completed
    assert gold(COUNT_JOINED)[0][0] > completed[0][0]  # what the unguarded query says


def test_sum_over_a_to_many_join_equals_the_unjoined_total(
    warehouse_layer: SemanticLayer,
) -> None:
    sql, notes = _guarded(SUM_JOINED, warehouse_layer)
    assert "rows_once" in sql and notes
    expected = {customer: Decimal(total or 0) for customer, total in gold(SUM_ONCE)}
    guarded = {customer: Decimal(total or 0) for customer, total in gold(sql)}
    naive = {customer: Decimal(total or 0) for customer, total in gold(SUM_JOINED)}
    assert guarded == expected
    assert sum(naive.values()) > sum(expected.values())  # the join did multiply


def test_a_to_one_join_is_left_alone(warehouse_layer: SemanticLayer) -> None:
    sql = (
        "SELECT COUNT(*) FROM `workTime` JOIN `workOrder` ON `workOrder`.`id` = "
        "`workTime`.`workOrderId`"
    )
    guarded, notes = _guarded(sql, warehouse_layer)
    assert notes == []
    assert gold(guarded) == gold("SELECT COUNT(*) FROM `workTime` WHERE `workOrderId` IS NOT NULL")
