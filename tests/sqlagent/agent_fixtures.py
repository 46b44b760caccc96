"""The demo warehouse on MariaDB with its registry, for tests that ask the agent end to end.

The warehouse database and its agent login carry the TEST_DATABASE_NAME prefix, so two
runs on one machine do not share them, and never touch the development warehouse. Loading
is idempotent: a later run reuses what an earlier one loaded.
"""

import os
import re
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import pymysql
import pytest
from pytest_django.fixtures import Settings

from core.databases.urls import WarehouseUrl
from registries.demo_registry import DEMO_DIR, DEMO_FILES
from registries.files import import_files
from registries.introspection import IntrospectedSchema, read_schema
from registries.models import DataSource, Provenance
from registries.sync import store
from warehouse.loader import load_warehouse

PREFIX = re.sub(r"\W", "_", os.environ.get("TEST_DATABASE_NAME") or "test_sqlagent")[:40]
WAREHOUSE_URL = f"mysql://root@127.0.0.1:3306/{PREFIX}_agent_warehouse"
AGENT_USER = f"{PREFIX[:22]}_sqlagent"  # MySQL names stop at 32 characters
AGENT_PASSWORD = "sqlagent-test-agent"
AES_KEY = "sqlagent-test-key"


def server_environment(warehouse_url: str, **extra: str) -> dict[str, str]:
    """The environment of a server or worker process a test starts: the test database, this
    warehouse through its agent login, the run's graph namespace, plain HTTP on loopback
    (static files from the app folders) and no LLM."""
    from django.conf import settings

    from ..conftest import _database_url

    return {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DEBUG": "true",
        "WAREHOUSE_URL": warehouse_url,
        "WAREHOUSE_AGENT_USER": AGENT_USER,
        "WAREHOUSE_AGENT_PASSWORD": AGENT_PASSWORD,
        "WAREHOUSE_AES_KEY": AES_KEY,
        "INGESTION_GRAPH_NAMESPACE": settings.INGESTION_GRAPH_NAMESPACE,
        "OPENAI_API_KEY": "",
        "OPENAI_BASE_URL": "",
        "OPENAI_MODEL": "",
        **extra,
    }


@pytest.fixture(scope="session")
def agent_warehouse_url(django_db_blocker: Any) -> str:
    load_warehouse(
        WAREHOUSE_URL, aes_key=AES_KEY, agent_user=AGENT_USER, agent_password=AGENT_PASSWORD
    )
    return WAREHOUSE_URL


@pytest.fixture(scope="session")
def agent_warehouse_schema(agent_warehouse_url: str, django_db_blocker: Any) -> IntrospectedSchema:
    with django_db_blocker.unblock():  # the warehouse, not the test database
        return read_schema(agent_warehouse_url)


@pytest.fixture
def warehouse(
    db: None,
    settings: Settings,
    agent_warehouse_url: str,
    agent_warehouse_schema: IntrospectedSchema,
) -> DataSource:
    """The default data source: the test warehouse with the demo registry, reached through
    its own agent login."""
    settings.WAREHOUSE_URL = agent_warehouse_url
    settings.WAREHOUSE_AGENT_USER = AGENT_USER
    settings.WAREHOUSE_AGENT_PASSWORD = AGENT_PASSWORD
    settings.WAREHOUSE_AES_KEY = AES_KEY
    source = DataSource.objects.create(
        name=settings.REGISTRIES_DEFAULT_DATA_SOURCE, url_env="WAREHOUSE_URL", dialect="mysql"
    )
    store(source, agent_warehouse_schema)
    files = [(name, (DEMO_DIR / name).read_text()) for name in DEMO_FILES]
    import_files(source, files, provenance=Provenance.DEMO)
    source.refresh_from_db()
    return source


@pytest.fixture
def no_llm(settings: Settings) -> None:
    """The compiled path: what the agent does without an LLM configured."""
    settings.OPENAI_API_KEY = ""
    settings.OPENAI_BASE_URL = ""
    settings.OPENAI_MODEL = ""


def gold(sql: str, *params: object) -> list[tuple[Any, ...]]:
    """Ground truth read from the base tables as the loader's own login sees them."""
    url = WarehouseUrl.parse(WAREHOUSE_URL)
    with (
        closing(pymysql.connect(host=url.host, port=url.port, user=url.user,
                                password=url.password, database=url.database)) as conn,
        conn.cursor() as cursor,
    ):  # fmt: skip
        cursor.execute(sql, params or None)
        return [tuple(row) for row in cursor.fetchall()]


@pytest.fixture
def events() -> Iterator[list[Any]]:
    collected: list[Any] = []
    yield collected
