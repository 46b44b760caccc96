"""Sample databases for the registries' tests, loaded once into the real servers.

Each run's databases carry the TEST_DATABASE_NAME prefix, so two runs on one machine do
not share them. Loading is idempotent: later runs reuse what an earlier one loaded.
"""

import os
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings

from registries.datasets import load_chinook, load_spider_db
from registries.demo_registry import DEMO_DIR, DEMO_FILES
from registries.files import import_files
from registries.introspection import IntrospectedSchema, read_schema
from registries.models import DataSource, Provenance
from registries.sync import introspect, store

MYSQL = "mysql://root@127.0.0.1:3306"
POSTGRES = "postgres://postgres@127.0.0.1:5432"
SPIDER = ("customers_and_invoices", "department_store", "hr_1")
PREFIX = re.sub(r"\W", "_", os.environ.get("TEST_DATABASE_NAME") or "test_registries")[:40]


def _needs_datasets() -> None:
    if not (settings.DATASETS_DIR / "chinook").is_dir():
        pytest.skip(f"the sample datasets are not at {settings.DATASETS_DIR}")


@pytest.fixture(scope="session")
def chinook_mysql_url() -> str:
    _needs_datasets()
    url = f"{MYSQL}/{PREFIX}_chinook"
    load_chinook(url)
    return url


@pytest.fixture(scope="session")
def chinook_postgres_url() -> str:
    _needs_datasets()
    url = f"{POSTGRES}/{PREFIX}_chinook"
    load_chinook(url)
    return url


@pytest.fixture(scope="session")
def spider_urls() -> dict[str, str]:
    _needs_datasets()
    return {
        name: load_spider_db(name, f"{MYSQL}/", database=f"{PREFIX}_spider_{name}")[0].url
        for name in SPIDER
    }


@pytest.fixture(scope="session")
def spider_without_keys_url() -> str:
    """customers_and_invoices with every declared foreign key left out."""
    _needs_datasets()
    name = "customers_and_invoices"
    target, _ = load_spider_db(
        name, f"{MYSQL}/", database=f"{PREFIX}_nofk_{name}", foreign_keys=False
    )
    return target.url


def _warehouse(url: str) -> str:
    from warehouse.loader import load_warehouse

    load_warehouse(
        url,
        aes_key=settings.WAREHOUSE_AES_KEY,
        agent_user=f"{PREFIX}_agent"[:32],
        agent_password="registries-test-agent",
    )
    return url


@pytest.fixture(scope="session")
def warehouse_mysql_url() -> str:
    return _warehouse(f"{MYSQL}/{PREFIX}_warehouse")


@pytest.fixture(scope="session")
def warehouse_postgres_url() -> str:
    return _warehouse(f"{POSTGRES}/{PREFIX}_warehouse")


SourceFactory = Callable[[str, str], DataSource]


@pytest.fixture
def make_source(db: None) -> SourceFactory:
    """An introspected data source named `name` on the database at `url`."""

    def make(name: str, url: str) -> DataSource:
        dialect = "mysql" if url.startswith("mysql") else "postgres"
        source = DataSource.objects.create(name=name, url=url, dialect=dialect)
        introspect(source)
        source.refresh_from_db()
        return source

    return make


@pytest.fixture(scope="session")
def warehouse_schema(warehouse_mysql_url: str, django_db_blocker: Any) -> IntrospectedSchema:
    """Read once: most tests need the warehouse's registry rows, not a fresh read."""
    with django_db_blocker.unblock():  # the warehouse, not the test database
        return read_schema(warehouse_mysql_url)


@pytest.fixture
def warehouse_source(
    db: None, warehouse_mysql_url: str, warehouse_schema: IntrospectedSchema
) -> DataSource:
    """The demo warehouse (MariaDB) as the default data source, with the demo registry."""
    source = DataSource.objects.create(
        name=settings.REGISTRIES_DEFAULT_DATA_SOURCE, url=warehouse_mysql_url, dialect="mysql"
    )
    store(source, warehouse_schema)
    files = [(name, (DEMO_DIR / name).read_text()) for name in DEMO_FILES]
    import_files(source, files, provenance=Provenance.DEMO)
    source.refresh_from_db()
    return source
