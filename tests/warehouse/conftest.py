"""Warehouses for the tests: one per engine, loaded once and kept between runs.

URLs come from TEST_WAREHOUSE_MYSQL_URL / TEST_WAREHOUSE_POSTGRES_URL (default: the local
MariaDB and PostgreSQL). A database already holding the current build is reused as it is.
"""

from collections.abc import Iterator

import pytest

from core.databases.urls import EngineName, WarehouseUrl
from warehouse.data import Dataset, generate
from warehouse.engines import Connection, engine_for
from warehouse.testing import ENGINES, agent_connection, ensure_test_warehouses


@pytest.fixture(scope="session")
def dataset() -> Dataset:
    return generate()


@pytest.fixture(scope="session")
def warehouse_urls() -> dict[EngineName, str]:
    return ensure_test_warehouses()


@pytest.fixture(scope="session", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> EngineName:
    name: EngineName = request.param
    return name


@pytest.fixture(scope="session")
def warehouse_url(engine: EngineName, warehouse_urls: dict[EngineName, str]) -> str:
    return warehouse_urls[engine]


@pytest.fixture
def agent(warehouse_url: str) -> Iterator[Connection]:
    """The agent's login with the AES key set and no scope."""
    conn = agent_connection(warehouse_url)
    yield conn
    conn.close()


@pytest.fixture
def owner(warehouse_url: str) -> Iterator[Connection]:
    """The loader's own login: sees base tables (and ciphertext)."""
    url = WarehouseUrl.parse(warehouse_url)
    conn = engine_for(url).connect(url)
    yield conn
    conn.close()
