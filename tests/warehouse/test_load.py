"""Loading the warehouse: what ends up in the database, and when loading is skipped."""

from collections.abc import Iterator
from contextlib import closing

import pytest

from core.databases.urls import EngineName, WarehouseUrl
from warehouse.data import Dataset
from warehouse.engines import Connection, engine_for
from warehouse.loader import WarehouseError, load_warehouse, table_counts
from warehouse.schema import TABLES
from warehouse.security import SECURE_VIEWS
from warehouse.testing import TEST_AES_KEY, TEST_AGENT_PASSWORD, TEST_AGENT_USER

from .helpers import fetch, quoted

EMPTY: Dataset = {table.name: [] for table in TABLES}


def test_every_generated_row_is_in_the_database(warehouse_url: str, dataset: Dataset) -> None:
    assert table_counts(warehouse_url) == {name: len(rows) for name, rows in dataset.items()}


def test_loading_again_is_a_fast_no_op(warehouse_url: str) -> None:
    report = load_warehouse(
        warehouse_url,
        aes_key=TEST_AES_KEY,
        agent_user=TEST_AGENT_USER,
        agent_password=TEST_AGENT_PASSWORD,
    )
    assert not report.rebuilt
    assert report.seconds < 5


def test_personal_data_is_ciphertext_in_base_tables(
    engine: EngineName, owner: Connection, agent: Connection
) -> None:
    raw = fetch(owner, quoted(engine, "SELECT `email` FROM `employee` WHERE `id` = 1"))[0][0]
    plain = fetch(agent, quoted(engine, "SELECT `email` FROM `secure_employee` WHERE `id` = 1"))
    assert isinstance(plain[0][0], str) and "@" in plain[0][0]
    assert isinstance(raw, bytes | memoryview)
    assert plain[0][0].encode() not in bytes(raw)


def test_database_has_exactly_the_declared_views(engine: EngineName, owner: Connection) -> None:
    schema = "DATABASE()" if engine == "mysql" else "'public'"
    views = fetch(
        owner,
        f"SELECT table_name FROM information_schema.views WHERE table_schema = {schema}",
    )
    assert {row[0] for row in views} == {v.view for v in SECURE_VIEWS.values()}


def test_secure_views_expose_the_logical_columns(engine: EngineName, owner: Connection) -> None:
    schema = "DATABASE()" if engine == "mysql" else "'public'"
    rows = fetch(
        owner,
        "SELECT table_name, column_name FROM information_schema.columns "
        f"WHERE table_schema = {schema} ORDER BY table_name, ordinal_position",
    )
    columns: dict[str, list[str]] = {}
    for table, name in rows:
        columns.setdefault(str(table), []).append(str(name))
    for secure in SECURE_VIEWS.values():
        assert columns[secure.view] == columns[secure.table]


# Rebuild rules, tried on a scratch database with no rows so that every load is quick.


@pytest.fixture
def scratch(warehouse_url: str) -> Iterator[str]:
    url = WarehouseUrl.parse(warehouse_url)
    name = f"{url.database}_scratch"
    scratch_url = warehouse_url.rsplit("/", 1)[0] + "/" + name
    engine = engine_for(url)
    with closing(engine.connect(url, server_only=True)) as server:
        engine.drop_database(server, name)
    yield scratch_url
    with closing(engine.connect(url, server_only=True)) as server:
        engine.drop_database(server, name)


def _load(url: str, *, seed: int = 1, aes_key: str = TEST_AES_KEY, force: bool = False) -> bool:
    report = load_warehouse(
        url,
        aes_key=aes_key,
        agent_user=TEST_AGENT_USER,
        agent_password=TEST_AGENT_PASSWORD,
        seed=seed,
        force=force,
        dataset=EMPTY,
    )
    return report.rebuilt


def test_a_missing_database_is_created_and_only_changes_rebuild(scratch: str) -> None:
    assert _load(scratch, seed=1)
    assert not _load(scratch, seed=1)
    assert _load(scratch, seed=2)
    assert _load(scratch, seed=2, aes_key="another key")
    assert _load(scratch, seed=2, aes_key="another key", force=True)
    assert not _load(scratch, seed=2, aes_key="another key")


def test_a_database_that_is_not_a_warehouse_is_never_dropped(scratch: str) -> None:
    url = WarehouseUrl.parse(scratch)
    engine = engine_for(url)
    with closing(engine.connect(url, server_only=True)) as server:
        engine.create_database(server, url.database)
    with closing(engine.connect(url)) as conn, conn.cursor() as cur:
        cur.execute("CREATE TABLE precious (id INT)")
    with pytest.raises(WarehouseError):
        _load(scratch)
    with closing(engine.connect(url)) as conn:
        assert "precious" in engine.table_names(conn)
    assert _load(scratch, force=True)
