import dataclasses

import pytest

from registries.semantic_layer import Relationship, SemanticLayer, Table
from sqlagent.join_paths import NoJoinPath, plan_joins


def test_work_time_question_joins_three_tables_not_five(warehouse_layer: SemanticLayer) -> None:
    # The seed's example: employees with work time between Oct 6-12 must not pull in
    # employeeCrew (assignment) or employeeRoleWorkTimeType (configuration).
    plan = plan_joins(warehouse_layer, ["workTime", "employee", "workTimeType"])

    assert set(plan.tables) == {"workTime", "employee", "workTimeType"}
    assert {(j.left_table, j.right_table) for j in plan.joins} == {
        ("workTime", "employee"),
        ("workTime", "workTimeType"),
    }
    columns = {(j.relationship.from_table, j.relationship.from_column) for j in plan.joins}
    assert ("workTime", "employeeId") in columns


def test_multi_hop_path_goes_through_real_bridges(warehouse_layer: SemanticLayer) -> None:
    plan = plan_joins(warehouse_layer, ["customer", "inspectionQuestionAnswer"])

    assert plan.tables[0] == "customer"
    assert plan.tables[-1] == "inspectionQuestionAnswer"
    assert 2 <= len(plan.joins) <= 4
    roles = {warehouse_layer.tables[t].role for t in plan.tables[1:-1]}
    assert not roles & {"satellite", "assignment", "configuration"}
    for table in plan.tables[1:-1]:
        assert plan.reasons[table].startswith("bridge between")


def _toy_layer(**overrides: str) -> SemanticLayer:
    tables = {
        name: Table(name, {"id": None}, role=overrides.get(name, "instance"))  # type: ignore[dict-item]
        for name in ("a", "b", "c", "sat")
    }
    rels = (
        Relationship("b", "aId", "a", "id"),
        Relationship("b", "cId", "c", "id"),
        Relationship("sat", "aId", "a", "id"),
        Relationship("sat", "cId", "c", "id"),
    )
    return SemanticLayer("toy", "mysql", 1, tables, rels)


def test_satellite_tables_are_never_bridges() -> None:
    layer = _toy_layer(b="satellite", sat="satellite")
    with pytest.raises(NoJoinPath):
        plan_joins(layer, ["a", "c"])
    assert plan_joins(_toy_layer(sat="satellite"), ["a", "c"]).tables == ("a", "b", "c")


def test_a_table_excluded_for_the_pair_is_not_used() -> None:
    layer = _toy_layer(sat="satellite")
    b = dataclasses.replace(layer.tables["b"], never_bridge_for=frozenset({"c"}))
    layer = SemanticLayer("toy2", "mysql", 1, {**layer.tables, "b": b}, layer.relationships)
    with pytest.raises(NoJoinPath):
        plan_joins(layer, ["a", "c"])


def test_low_confidence_and_disabled_relationships_are_ignored() -> None:
    layer = _toy_layer(sat="satellite")
    weak = tuple(
        dataclasses.replace(r, confidence=0.5) if r.from_column == "cId" else r
        for r in layer.relationships
    )
    with pytest.raises(NoJoinPath):
        plan_joins(SemanticLayer("weak", "mysql", 1, layer.tables, weak), ["a", "c"])
    off = tuple(dataclasses.replace(r, enabled=r.from_column != "cId") for r in layer.relationships)
    with pytest.raises(NoJoinPath):
        plan_joins(SemanticLayer("off", "mysql", 1, layer.tables, off), ["a", "c"])


def test_paths_longer_than_the_hop_limit_are_refused(warehouse_layer: SemanticLayer) -> None:
    with pytest.raises(NoJoinPath):
        plan_joins(warehouse_layer, ["customer", "inspectionQuestionAnswer"], max_hops=1)
