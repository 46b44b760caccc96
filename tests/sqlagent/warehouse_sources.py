"""The demo warehouse as data sources the agent asks, on MariaDB and on PostgreSQL.

Both test warehouses (warehouse.testing) are loaded once and kept between runs;
each one's schema is read once per session. A module gets a data source per engine with
the demo registry stored over that schema, and each test the settings of the test agent
login, so `sqlagent.agent.ask` runs end to end on the real database.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from pytest_django.fixtures import Settings

from core.databases.urls import EngineName, WarehouseUrl
from registries import semantic_layer_loader
from registries.demo_registry import DEMO_DIR, DEMO_FILES
from registries.files import import_files
from registries.introspection import IntrospectedSchema, read_schema
from registries.models import DataSource, Provenance
from registries.sync import store
from warehouse.engines import Connection, engine_for
from warehouse.testing import (
    TEST_AES_KEY,
    TEST_AGENT_PASSWORD,
    TEST_AGENT_USER,
    ensure_test_warehouses,
)

SOURCE_NAMES: dict[EngineName, str] = {"mysql": "warehouse", "postgres": "warehouse_pg"}


@dataclass(frozen=True)
class Warehouse:
    engine: EngineName
    name: str  # the data source to ask
    url: str

    def owner(self) -> Connection:
        """The loader's own login, to count rows behind the agent's back."""
        target = WarehouseUrl.parse(self.url)
        return engine_for(target).connect(target)

    def count(self, table: str, where: str = "TRUE") -> int:
        quote = '"' if self.engine == "postgres" else "`"
        conn = self.owner()
        try:
            with conn.cursor() as cursor:
                cursor.execute(f"SELECT COUNT(*) FROM {quote}{table}{quote} WHERE {where}")
                row = cursor.fetchone()
                return int(row[0]) if row else 0
        finally:
            conn.close()


@pytest.fixture(scope="session")
def test_warehouse_urls() -> dict[EngineName, str]:
    return ensure_test_warehouses()


@pytest.fixture(scope="session")
def warehouse_schemas(
    test_warehouse_urls: dict[EngineName, str], django_db_blocker: Any
) -> dict[EngineName, IntrospectedSchema]:
    with django_db_blocker.unblock():  # the warehouses, not the test database
        return {engine: read_schema(url) for engine, url in test_warehouse_urls.items()}


@pytest.fixture
def agent_login(settings: Settings) -> None:
    settings.WAREHOUSE_AGENT_USER = TEST_AGENT_USER
    settings.WAREHOUSE_AGENT_PASSWORD = TEST_AGENT_PASSWORD
    settings.WAREHOUSE_AES_KEY = TEST_AES_KEY


def _source(engine: EngineName, url: str, schema: IntrospectedSchema) -> Warehouse:
    name = SOURCE_NAMES[engine]
    source = DataSource.objects.create(name=name, url=url, dialect=engine)
    store(source, schema)
    files = [(f, (DEMO_DIR / f).read_text(encoding="utf-8")) for f in DEMO_FILES]
    import_files(source, files, provenance=Provenance.DEMO)
    # Another test of this process may have cached a different registry under this name
    # and version; the layer must be built from the rows stored here.
    semantic_layer_loader._cache.pop(name, None)
    return Warehouse(engine, name, url)


@pytest.fixture(scope="module")
def warehouse_sources(
    django_db_setup: None,
    django_db_blocker: Any,
    test_warehouse_urls: dict[EngineName, str],
    warehouse_schemas: dict[EngineName, IntrospectedSchema],
) -> Iterator[dict[EngineName, Warehouse]]:
    """Stored once per module (two seconds each) in a transaction around the module's tests
    (each test's own transaction nests inside it), rolled back when the module is done."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            made = {
                engine: _source(engine, url, warehouse_schemas[engine])
                for engine, url in test_warehouse_urls.items()
            }
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield made
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
        for name in SOURCE_NAMES.values():
            semantic_layer_loader._cache.pop(name, None)


@pytest.fixture
def mysql_warehouse(
    db: None, agent_login: None, warehouse_sources: dict[EngineName, Warehouse]
) -> Warehouse:
    return warehouse_sources["mysql"]


@pytest.fixture(params=["mysql", "postgres"])
def any_warehouse(
    request: pytest.FixtureRequest,
    db: None,
    agent_login: None,
    warehouse_sources: dict[EngineName, Warehouse],
) -> Warehouse:
    engine: EngineName = request.param
    return warehouse_sources[engine]
