"""Row-level scope: a scoped session sees its customers', locations' or work orders' rows."""

from collections.abc import Iterator
from contextlib import contextmanager

from core.databases.base import Connection
from core.databases.connect import connect_agent
from core.databases.scope import Scope
from core.databases.urls import EngineName
from warehouse.testing import TEST_AES_KEY, TEST_AGENT_PASSWORD, TEST_AGENT_USER

from .helpers import fetch, quoted


@contextmanager
def scoped(url: str, scope: Scope) -> Iterator[Connection]:
    conn = connect_agent(
        url, user=TEST_AGENT_USER, password=TEST_AGENT_PASSWORD, aes_key=TEST_AES_KEY, scope=scope
    )
    try:
        yield conn
    finally:
        conn.close()


def ids(conn: Connection, engine: EngineName, sql: str, *params: object) -> set[object]:
    return {row[0] for row in fetch(conn, quoted(engine, sql), params)}


# Ground truth from the base tables, as the owner sees them.
WORK_ORDERS_OF = "SELECT `id` FROM `workOrder` WHERE `customerId` = %s"
INSPECTIONS_OF = (
    "SELECT i.`id` FROM `inspection` i JOIN `workOrder` w ON w.`id` = i.`workOrderId` "
    "WHERE w.`customerId` = %s"
)
ACTION_ITEMS_OF = (
    "SELECT a.`id` FROM `inspectionActionItem` a "
    "JOIN `inspectionQuestionAnswer` q ON q.`id` = a.`inspectionQuestionAnswerId` "
    "JOIN `inspection` i ON i.`id` = q.`inspectionId` "
    "JOIN `workOrder` w ON w.`id` = i.`workOrderId` WHERE w.`customerId` = %s"
)
CONTACTS_OF = "SELECT `id` FROM `customerContact` WHERE `customerId` = %s"


def test_one_customer_sees_only_its_own_rows(
    engine: EngineName, warehouse_url: str, owner: Connection
) -> None:
    customer = 46
    with scoped(warehouse_url, Scope(customer_ids=[customer])) as conn:
        assert ids(conn, engine, "SELECT `id` FROM `secure_customer`") == {customer}
        seen = ids(conn, engine, "SELECT `id` FROM `secure_workorder`")
        assert seen and seen == ids(owner, engine, WORK_ORDERS_OF, customer)
        seen = ids(conn, engine, "SELECT `id` FROM `secure_inspection`")
        assert seen and seen == ids(owner, engine, INSPECTIONS_OF, customer)
        seen = ids(conn, engine, "SELECT `id` FROM `secure_inspectionactionitem`")
        assert seen and seen == ids(owner, engine, ACTION_ITEMS_OF, customer)
        seen = ids(conn, engine, "SELECT `id` FROM `secure_customercontact`")
        assert seen and seen == ids(owner, engine, CONTACTS_OF, customer)
        owners = ids(conn, engine, "SELECT `customerId` FROM `secure_asset`")
        assert owners == {customer}
        # Decryption still works inside the scope.
        emails = ids(conn, engine, "SELECT `email` FROM `secure_customercontact`")
        assert all(isinstance(e, str) and "@" in e for e in emails)


def test_company_internal_rows_stay_visible(engine: EngineName, warehouse_url: str) -> None:
    with scoped(warehouse_url, Scope(customer_ids=[46])) as conn:
        assert len(ids(conn, engine, "SELECT `id` FROM `secure_employee`")) > 300
        shop_time = ids(
            conn, engine, "SELECT `id` FROM `secure_worktime` WHERE `workOrderId` IS NULL"
        )
        assert shop_time
        foreign = ids(
            conn,
            engine,
            "SELECT t.`id` FROM `secure_worktime` t JOIN `secure_workorder` w "
            "ON w.`id` = t.`workOrderId` WHERE w.`customerId` <> 46",
        )
        assert not foreign


def test_several_customers_and_a_location_scope(
    engine: EngineName, warehouse_url: str, owner: Connection
) -> None:
    with scoped(warehouse_url, Scope(customer_ids=[46, 17])) as conn:
        assert ids(conn, engine, "SELECT `customerId` FROM `secure_workorder`") == {46, 17}
    location = fetch(owner, quoted(engine, "SELECT MIN(`id`) FROM `customerLocation`"))[0][0]
    with scoped(warehouse_url, Scope(service_location_ids=[int(str(location))])) as conn:
        places = ids(conn, engine, "SELECT `customerLocationId` FROM `secure_workorder`")
        assert places == {location}
        assert ids(conn, engine, "SELECT `id` FROM `secure_customerlocation`") == {location}
        assert ids(conn, engine, "SELECT `customerLocationId` FROM `secure_asset`") == {location}


def test_a_work_order_scope_reaches_its_children(
    engine: EngineName, warehouse_url: str, owner: Connection
) -> None:
    with scoped(warehouse_url, Scope(work_order_ids=[37])) as conn:
        assert ids(conn, engine, "SELECT `id` FROM `secure_workorder`") == {37}
        crews = ids(conn, engine, "SELECT `crewId` FROM `secure_employeecrew`")
        expected = ids(owner, engine, "SELECT `id` FROM `crew` WHERE `workOrderId` = 37")
        assert crews == expected and len(crews) == 1
        orders = ids(conn, engine, "SELECT `workOrderId` FROM `secure_worktime`")
        assert orders <= {37, None}


def test_an_empty_list_shows_nothing_and_no_list_shows_everything(
    engine: EngineName, warehouse_url: str, owner: Connection
) -> None:
    with scoped(warehouse_url, Scope(customer_ids=[])) as conn:
        assert fetch(conn, quoted(engine, "SELECT COUNT(*) FROM `secure_workorder`")) == [(0,)]
    total = fetch(owner, quoted(engine, "SELECT COUNT(*) FROM `inspection`"))
    with scoped(warehouse_url, Scope()) as conn:
        assert fetch(conn, quoted(engine, "SELECT COUNT(*) FROM `secure_inspection`")) == total
