"""The declared schema and its security map, without a database."""

import re

from warehouse.schema import TABLE_BY_NAME, TABLES, Role
from warehouse.security import ANCHORS, SECURE_VIEWS, agent_readable, secure_view_map

CAMEL_CASE = re.compile(r"^[a-z][a-zA-Z0-9]*$")


def test_there_are_at_least_120_tables_of_every_role() -> None:
    assert len(TABLES) >= 120
    assert {t.role for t in TABLES} == set(Role)


def test_names_are_camel_case_and_every_table_has_an_id_first() -> None:
    for table in TABLES:
        assert CAMEL_CASE.match(table.name), table.name
        assert table.columns[0].name == "id"
        for column in table.columns:
            assert CAMEL_CASE.match(column.name), f"{table.name}.{column.name}"
    assert "workOrderId" in TABLE_BY_NAME["inspection"].column_index
    assert "isActive" in TABLE_BY_NAME["employee"].column_index
    assert "createdAt" in TABLE_BY_NAME["workOrder"].column_index


def test_tables_come_after_the_tables_they_reference() -> None:
    seen: set[str] = set()
    for table in TABLES:
        for fk in table.foreign_keys:
            assert fk.references == table.name or fk.references in seen, (table.name, fk.name)
        seen.add(table.name)


def test_the_seed_tables_have_the_seed_roles() -> None:
    roles = {t.name: t.role for t in TABLES}
    assert roles["employeeCrew"] == Role.ASSIGNMENT
    assert roles["employeeRoleWorkTimeType"] == Role.CONFIGURATION
    assert roles["inspectionTemplateWorkOrder"] == Role.BRIDGE
    assert roles["serviceTemplateWorkOrder"] == Role.BRIDGE
    assert roles["inspectionQuestionAnswer"] == Role.CONTENT_CHILD
    assert roles["inspectionCustomerSignature"] == Role.SATELLITE
    assert roles["inspectionTemplate"] == Role.TEMPLATE
    assert roles["workTime"] == Role.INSTANCE


def test_trap_bridges_connect_what_a_direct_key_already_connects() -> None:
    # employee -> employeeCrew -> crew <- workTime is a detour: workTime.employeeId is direct.
    work_time = TABLE_BY_NAME["workTime"].column_index
    assert work_time["employeeId"].references == "employee"
    assert work_time["crewId"].references == "crew"
    crew_links = {c.references for c in TABLE_BY_NAME["employeeCrew"].foreign_keys}
    assert crew_links == {"employee", "crew"}
    role_links = {c.references for c in TABLE_BY_NAME["employeeRoleWorkTimeType"].foreign_keys}
    assert role_links == {"employeeRole", "workTimeType"}


def test_secure_views_follow_the_seed_naming_and_list_the_personal_columns() -> None:
    views = secure_view_map()
    for logical, view in {
        "user": "secure_user",
        "employee": "secure_employee",
        "workOrder": "secure_workorder",
        "customer": "secure_customer",
        "customerLocation": "secure_customerlocation",
        "customerContact": "secure_customercontact",
    }.items():
        assert views[logical].view == view
    assert {"firstName", "lastName", "email"} <= set(views["employee"].sensitive_columns)
    for table in TABLES:
        if table.pii_columns:
            assert views[table.name].sensitive_columns == table.pii_columns


def _customer_owned() -> set[str]:
    """Tables with a foreign-key path up to a customer, location or work order."""
    owned = set(ANCHORS)
    for table in TABLES:
        if any(fk.references in owned for fk in table.foreign_keys):
            owned.add(table.name)
    return owned


def test_every_customer_owned_table_is_scoped() -> None:
    for name in _customer_owned():
        assert SECURE_VIEWS[name].is_scoped, name


def test_only_personal_or_customer_owned_tables_get_a_view() -> None:
    owned = _customer_owned()
    for table in TABLES:
        needs_view = bool(table.pii_columns) or table.name in owned
        assert (table.name in SECURE_VIEWS) == needs_view, table.name
    assert "workTimeType" not in SECURE_VIEWS
    assert "inspectionTemplate" not in SECURE_VIEWS


def test_the_agent_reads_no_base_table_that_has_a_view() -> None:
    readable = set(agent_readable())
    assert readable.isdisjoint(SECURE_VIEWS)
    assert {v.view for v in SECURE_VIEWS.values()} <= readable
    assert len(readable) == len(TABLES)


def test_children_inherit_scope_through_their_owner() -> None:
    answer = SECURE_VIEWS["inspectionQuestionAnswer"]
    assert answer.owner is not None and answer.owner.table == "inspection"
    assert SECURE_VIEWS["inspection"].owner is not None
    assert SECURE_VIEWS["inspection"].owner.table == "workOrder"
    assert SECURE_VIEWS["asset"].owner is not None
    assert SECURE_VIEWS["asset"].owner.table == "customerLocation"
    work_time = SECURE_VIEWS["workTime"].owner
    assert work_time is not None and work_time.nullable  # shop time has no work order
