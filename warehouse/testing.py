"""The warehouses the tests and the question tools run against, and how to reach them.

Test databases are separate from the development warehouse (settings.WAREHOUSE_URL) and use
their own agent login, so running tests never changes what the app is using.
"""

from __future__ import annotations

import os

from core.databases.base import Connection
from core.databases.connect import connect_agent
from core.databases.urls import EngineName

from .loader import load_warehouse

TEST_AES_KEY = "switchboard-test-key"
TEST_AGENT_USER = "sb_test_agent"
TEST_AGENT_PASSWORD = "sb-test-agent"  # noqa: S105

_DEFAULT_URLS: dict[EngineName, tuple[str, str]] = {
    "mysql": ("TEST_WAREHOUSE_MYSQL_URL", "mysql://root@127.0.0.1:3306/sb_test_warehouse"),
    "postgres": (
        "TEST_WAREHOUSE_POSTGRES_URL",
        "postgres://postgres@127.0.0.1:5432/sb_test_warehouse",
    ),
}
ENGINES: tuple[EngineName, ...] = ("mysql", "postgres")


def url_for_tests(engine: EngineName) -> str:
    variable, default = _DEFAULT_URLS[engine]
    return os.environ.get(variable, default)


def agent_connection(url: str) -> Connection:
    """The test agent login on url, with the AES key set and no scope."""
    return connect_agent(
        url, user=TEST_AGENT_USER, password=TEST_AGENT_PASSWORD, aes_key=TEST_AES_KEY
    )


def ensure_test_warehouses() -> dict[EngineName, str]:
    """Load (or keep) the warehouse in both test databases; their URLs by engine."""
    urls = {engine: url_for_tests(engine) for engine in ENGINES}
    for url in urls.values():
        load_warehouse(
            url,
            aes_key=TEST_AES_KEY,
            agent_user=TEST_AGENT_USER,
            agent_password=TEST_AGENT_PASSWORD,
        )
    return urls
