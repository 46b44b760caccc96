"""Build the warehouse in a MariaDB/MySQL or PostgreSQL database, once.

A loaded database records the schema version, a hash of the code that built it, the seed
and a check value of the AES key. Loading again with the same four is a no-op apart from
refreshing the agent login; any difference (or `force`) drops and rebuilds the database.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field, replace
from pathlib import Path

from core.databases.urls import WarehouseUrl

from .data import DEFAULT_SEED, Dataset, generate
from .engines import Connection, Engine, Meta, engine_for
from .schema import SCHEMA_VERSION, TABLES
from .security import SECURE_VIEWS, agent_readable

ROOT = Path(__file__).resolve().parent.parent
# The code whose changes must rebuild a loaded warehouse: what builds it, and the session
# variables (key and scope lists) its views and functions read.
BUILD_SOURCES = (
    "warehouse/schema",
    "warehouse/data",
    "warehouse/engines",
    "warehouse/security.py",
    "core/databases/scope.py",
)


class WarehouseError(RuntimeError):
    pass


@dataclass
class LoadReport:
    url: str
    engine: str
    rebuilt: bool
    seconds: float = 0.0
    steps: dict[str, float] = field(default_factory=dict)
    rows: int = 0


def key_check(aes_key: str) -> str:
    return hashlib.sha256(f"switchboard:{aes_key}".encode()).hexdigest()


def build_hash() -> str:
    digest = hashlib.sha256()
    for source in BUILD_SOURCES:
        path = ROOT / source
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(ROOT).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def load_warehouse(
    url: str,
    *,
    aes_key: str,
    agent_user: str,
    agent_password: str,
    seed: int = DEFAULT_SEED,
    force: bool = False,
    dataset: Dataset | None = None,
    log: Callable[[str], None] = lambda message: None,
) -> LoadReport:
    """Make url's database hold the warehouse; create the database if it is missing."""
    if not aes_key:
        raise WarehouseError("an AES key is required to encrypt personal data")
    target = WarehouseUrl.parse(url)
    engine = engine_for(target)
    wanted = Meta(SCHEMA_VERSION, build_hash(), seed, key_check(aes_key))
    report = LoadReport(str(target), engine.name, rebuilt=False)
    started = time.perf_counter()
    with closing(engine.connect(target, server_only=True)) as server:
        exists = engine.database_exists(server, target.database)
        if exists:
            with closing(engine.connect(target)) as conn:
                current, tables = engine.read_meta(conn), engine.table_names(conn)
                if current == wanted and not force:
                    # Up to date; the agent login may still be new or have a new password.
                    engine.grant_agent(
                        conn, target.database, agent_user, agent_password, agent_readable()
                    )
                    report.seconds = time.perf_counter() - started
                    return report
            if current is None and tables and not force:
                raise WarehouseError(
                    f"{target} has tables but no warehouse bookkeeping; refusing to drop it "
                    "(use force to rebuild it anyway)"
                )
            log(f"{target}: dropping the old warehouse")
            engine.drop_database(server, target.database)
        engine.create_database(server, target.database)
    report.rebuilt = True
    if dataset is None:
        step = time.perf_counter()
        dataset = generate(seed)
        report.steps["generate"] = time.perf_counter() - step
    with closing(engine.connect(target)) as conn:
        _build(engine, conn, dataset, wanted, aes_key, report, log)
        step = time.perf_counter()
        engine.grant_agent(conn, target.database, agent_user, agent_password, agent_readable())
        report.steps["grants"] = time.perf_counter() - step
    report.rows = sum(len(rows) for rows in dataset.values())
    report.seconds = time.perf_counter() - started
    return report


def _build(
    engine: Engine,
    conn: Connection,
    dataset: Dataset,
    meta: Meta,
    aes_key: str,
    report: LoadReport,
    log: Callable[[str], None],
) -> None:
    def timed(name: str, action: Callable[[], None]) -> None:
        step = time.perf_counter()
        action()
        report.steps[name] = time.perf_counter() - step
        log(f"  {name}: {report.steps[name]:.1f}s")

    with engine.atomic(conn), conn.cursor() as cur:

        def prepare() -> None:
            cur.execute(engine.create_meta())
            engine.write_meta(cur, replace(meta, status="loading"))
            engine.install_functions(cur)
            engine.set_load_key(cur, aes_key)
            for table in TABLES:
                for statement in engine.create_table(table):
                    cur.execute(statement)

        def fill() -> None:
            for table in TABLES:
                engine.insert(cur, table, dataset[table.name])

        def finish() -> None:
            for statement in engine.finish_tables(TABLES):
                cur.execute(statement)
            for view in SECURE_VIEWS.values():  # parents first: dependency order
                cur.execute(engine.view(view))
            engine.write_meta(cur, meta)

        timed("schema", prepare)
        timed("data", fill)
        timed("keys, indexes and views", finish)


def table_counts(url: str) -> dict[str, int]:
    """Rows per warehouse table, counted in the database (as its owner)."""
    target = WarehouseUrl.parse(url)
    engine = engine_for(target)
    with closing(engine.connect(target)) as conn, conn.cursor() as cur:
        counts = {}
        for table in TABLES:
            cur.execute(f"SELECT COUNT(*) FROM {engine.quote(table.name)}")  # noqa: S608
            counts[table.name] = int(cur.fetchone()[0])
        return counts
