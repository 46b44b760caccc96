"""The agent's login: reads secure views and plain tables, and nothing else."""

import psycopg
import pymysql
import pytest

from core.databases.connect import connect_agent
from core.databases.urls import EngineName
from warehouse.engines import Connection
from warehouse.security import agent_readable
from warehouse.testing import (
    TEST_AES_KEY,
    TEST_AGENT_PASSWORD,
    TEST_AGENT_USER,
    agent_connection,
)

from .helpers import fetch, quoted

DRIVER_ERRORS = (pymysql.err.MySQLError, psycopg.Error)
# "command denied" on MySQL; "permission denied" and "read-only transaction" on PostgreSQL.
DENIALS = {1142, 1143, 1044, 1227, "42501", "25006"}

FORBIDDEN = {
    "insert": "INSERT INTO `workTimeType` (`id`, `name`, `code`, `isOvertime`, `isBillable`, "
    "`payMultiplier`, `createdAt`, `updatedAt`) VALUES "
    "(999, 'Bonus', 'BON', FALSE, FALSE, 1, '2026-01-01', '2026-01-01')",
    "update": "UPDATE `workTimeType` SET `name` = 'Renamed' WHERE `id` = 1",
    "update a view": "UPDATE `secure_employee` SET `isActive` = FALSE WHERE `id` = 1",
    "delete": "DELETE FROM `secure_workorder` WHERE `id` = 1",
    "create table": "CREATE TABLE `agentScratch` (`id` INT)",
    "drop view": "DROP VIEW `secure_employee`",
    "alter table": "ALTER TABLE `branch` ADD COLUMN `note` VARCHAR(10)",
    "read a base personal column": "SELECT `email` FROM `employee`",
    "read a customer-owned base table": "SELECT COUNT(*) FROM `inspection`",
    "read the loader's bookkeeping": "SELECT * FROM `warehouseMeta`",
}


def assert_denied(conn: Connection, sql: str) -> None:
    with pytest.raises(DRIVER_ERRORS) as caught:
        fetch(conn, sql)
    error = caught.value
    code = error.sqlstate if isinstance(error, psycopg.Error) else error.args[0]
    assert code in DENIALS, error


@pytest.mark.parametrize("action", FORBIDDEN)
def test_the_agent_cannot(engine: EngineName, agent: Connection, action: str) -> None:
    assert_denied(agent, quoted(engine, FORBIDDEN[action]))


@pytest.mark.parametrize("action", ["insert", "update", "create table", "drop view"])
def test_leaving_read_only_mode_does_not_help_on_postgres(
    warehouse_urls: dict[EngineName, str], action: str
) -> None:
    conn = agent_connection(warehouse_urls["postgres"])
    try:
        conn.execute("SET default_transaction_read_only = off")
        assert_denied(conn, quoted("postgres", FORBIDDEN[action]))
    finally:
        conn.close()


def test_nothing_was_changed_by_those_attempts(engine: EngineName, owner: Connection) -> None:
    assert fetch(owner, quoted(engine, "SELECT `name` FROM `workTimeType` WHERE `id` = 1")) == [
        ("Regular",)
    ]
    assert fetch(owner, quoted(engine, "SELECT COUNT(*) FROM `workTimeType` WHERE `id` = 999")) == [
        (0,)
    ]


def test_the_agent_can_read_every_relation_it_is_given(
    engine: EngineName, agent: Connection
) -> None:
    for name in agent_readable():
        fetch(agent, quoted(engine, f"SELECT 1 FROM `{name}` LIMIT 1"))


def test_personal_data_needs_the_right_key(engine: EngineName, warehouse_url: str) -> None:
    sql = quoted(engine, "SELECT `firstName`, `dateOfBirth` FROM `secure_employee` WHERE `id` = 1")
    for key, readable in ((TEST_AES_KEY, True), ("not the key", False), (None, False)):
        conn = connect_agent(
            warehouse_url, user=TEST_AGENT_USER, password=TEST_AGENT_PASSWORD, aes_key=key
        )
        try:
            first_name, born = fetch(conn, sql)[0]
        finally:
            conn.close()
        if readable:
            assert isinstance(first_name, str) and first_name
            assert born is not None
        else:
            assert (first_name, born) == (None, None)
