"""The agent's login must only read: one that can write is refused on connecting, when a
server starts and when a worker starts, with what it may do."""

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_django.fixtures import Settings

from core.databases.agent_login import AgentLoginCanWrite
from core.databases.connect import check_configured_agent, connect_agent, database_for
from core.databases.urls import EngineName, WarehouseUrl
from warehouse.engines import engine_for
from warehouse.testing import TEST_AES_KEY, TEST_AGENT_PASSWORD, TEST_AGENT_USER

ROOT = Path(__file__).resolve().parents[2]
WRITER, WRITER_PASSWORD = "sb_test_writer", "sb-test-writer"
ROLE_USER, ROLE = "sb_test_role_user", "sb_test_writing_role"


def _owner(url: str) -> Any:
    parsed = WarehouseUrl.parse(url)
    return engine_for(parsed).connect(parsed)


def _run(conn: Any, *statements: str) -> None:
    with conn.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


@pytest.fixture
def writer(warehouse_url: str, engine: EngineName) -> Iterator[str]:
    """A login that reads the warehouse and may also insert into one table."""
    database = WarehouseUrl.parse(warehouse_url).database
    conn = _owner(warehouse_url)
    if engine == "mysql":
        _run(
            conn,
            f"CREATE USER IF NOT EXISTS {WRITER}@'%' IDENTIFIED BY '{WRITER_PASSWORD}'",
            f"GRANT SELECT, INSERT ON `{database}`.`branch` TO {WRITER}@'%'",
        )
    else:
        _run(
            conn,
            f"DROP ROLE IF EXISTS {WRITER}",
            f"CREATE ROLE {WRITER} LOGIN PASSWORD '{WRITER_PASSWORD}'",
            f'GRANT CONNECT ON DATABASE "{database}" TO {WRITER}',
            f"GRANT USAGE ON SCHEMA public TO {WRITER}",
            f"GRANT SELECT, INSERT ON branch TO {WRITER}",
        )
    yield WRITER
    if engine == "mysql":
        _run(conn, f"DROP USER IF EXISTS {WRITER}@'%'")
    else:
        _run(conn, f"DROP OWNED BY {WRITER}", f"DROP ROLE IF EXISTS {WRITER}")
    conn.close()


def test_the_loaded_agent_login_only_reads(warehouse_url: str) -> None:
    target = WarehouseUrl.parse(warehouse_url).as_user(TEST_AGENT_USER, TEST_AGENT_PASSWORD)
    database = database_for(target)
    conn = database.connect(target)
    try:
        assert database.write_grants(conn) == []
    finally:
        conn.close()


def test_a_login_that_can_insert_is_refused_on_connecting(warehouse_url: str, writer: str) -> None:
    with pytest.raises(AgentLoginCanWrite) as refused:
        connect_agent(warehouse_url, user=writer, password=WRITER_PASSWORD, aes_key=TEST_AES_KEY)
    message = str(refused.value)
    assert writer in message and "INSERT ON" in message and "branch" in message
    assert "WAREHOUSE_AGENT_USER" in message  # says what to change


def test_the_configured_login_is_checked(
    warehouse_url: str, writer: str, settings: Settings
) -> None:
    settings.WAREHOUSE_URL = warehouse_url
    settings.WAREHOUSE_AGENT_USER, settings.WAREHOUSE_AGENT_PASSWORD = writer, WRITER_PASSWORD
    with pytest.raises(AgentLoginCanWrite):
        check_configured_agent()
    settings.WAREHOUSE_AGENT_USER = TEST_AGENT_USER
    settings.WAREHOUSE_AGENT_PASSWORD = TEST_AGENT_PASSWORD
    assert TEST_AGENT_USER in check_configured_agent()


@pytest.mark.parametrize("engine", ["mysql"], indirect=True)
def test_a_role_that_can_write_counts_as_the_login_s_own(
    warehouse_url: str, engine: EngineName
) -> None:
    database = WarehouseUrl.parse(warehouse_url).database
    conn = _owner(warehouse_url)
    _run(
        conn,
        f"CREATE ROLE IF NOT EXISTS {ROLE}",
        f"GRANT DELETE ON `{database}`.`branch` TO {ROLE}",
        f"CREATE USER IF NOT EXISTS {ROLE_USER}@'%' IDENTIFIED BY '{WRITER_PASSWORD}'",
        f"GRANT SELECT ON `{database}`.`branch` TO {ROLE_USER}@'%'",
        f"GRANT {ROLE} TO {ROLE_USER}@'%'",
    )
    try:
        with pytest.raises(AgentLoginCanWrite, match="DELETE ON"):
            connect_agent(warehouse_url, user=ROLE_USER, password=WRITER_PASSWORD, aes_key=None)
    finally:
        _run(conn, f"DROP USER IF EXISTS {ROLE_USER}@'%'", f"DROP ROLE IF EXISTS {ROLE}")
        conn.close()


def _environment(warehouse_url: str, user: str, password: str) -> dict[str, str]:
    return {
        **os.environ,
        "WAREHOUSE_URL": warehouse_url,
        "WAREHOUSE_AGENT_USER": user,
        "WAREHOUSE_AGENT_PASSWORD": password,
    }


@pytest.mark.parametrize("engine", ["mysql"], indirect=True)
def test_the_server_does_not_start_with_a_login_that_can_write(
    warehouse_url: str, writer: str
) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "serve", "--port", "0", "--workers", "1"],
        cwd=ROOT, env=_environment(warehouse_url, writer, WRITER_PASSWORD),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode != 0
    assert "not serving" in result.stderr and "can write" in result.stderr


@pytest.mark.parametrize("engine", ["postgres"], indirect=True)
def test_the_worker_does_not_start_with_a_login_that_can_write(
    warehouse_url: str, writer: str
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--queues", "sb-test-agent-login", "--hostname", "agent-login-test@%h"],
        cwd=ROOT, env=_environment(warehouse_url, writer, WRITER_PASSWORD),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode != 0
    assert "can write" in result.stderr
