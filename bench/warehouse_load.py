"""Time building the warehouse from scratch on MariaDB and on PostgreSQL.

    python bench/warehouse_load.py [--keep]

Each engine gets a fresh database (BENCH_WAREHOUSE_MYSQL_URL / BENCH_WAREHOUSE_POSTGRES_URL,
default `sb_bench_warehouse` on the local servers): it is dropped, then loaded the way
`manage.py load_warehouse` loads it, data generation included. Prints seconds per step,
the row counts found in the database, and the time of a second (no-op) load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.databases.urls import WarehouseUrl
from warehouse.engines import engine_for
from warehouse.loader import LoadReport, load_warehouse, table_counts

URLS = {
    "mysql": os.environ.get(
        "BENCH_WAREHOUSE_MYSQL_URL", "mysql://root@127.0.0.1:3306/sb_bench_warehouse"
    ),
    "postgres": os.environ.get(
        "BENCH_WAREHOUSE_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/sb_bench_warehouse"
    ),
}


BENCH_AGENT = ("sb_bench_agent", "sb-bench-agent")  # a throwaway login for the bench databases


def load(url: str) -> LoadReport:
    user, password = BENCH_AGENT
    return load_warehouse(
        url, aes_key="switchboard-bench-key", agent_user=user, agent_password=password
    )


def machine() -> str:
    memory = "?"
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        kib = int(meminfo.read_text().split("MemTotal:")[1].split()[0])
        memory = f"{kib / 1024 / 1024:.0f} GiB"
    return f"{os.cpu_count()} cores, {memory} memory"


def drop(url: str) -> None:
    target = WarehouseUrl.parse(url)
    engine = engine_for(target)
    with closing(engine.connect(target, server_only=True)) as server:
        engine.drop_database(server, target.database)


def bench(name: str, url: str, keep: bool) -> float:
    drop(url)
    started = time.perf_counter()
    report = load(url)
    seconds = time.perf_counter() - started
    counts = table_counts(url)
    again = load(url)
    print(f"\n{name}: {report.url}")
    print(f"  from scratch: {seconds:.1f} s")
    for step, step_seconds in report.steps.items():
        print(f"    {step:<24} {step_seconds:6.1f} s")
    print(f"  rows: {sum(counts.values()):,} in {len(counts)} tables")
    for table, rows in sorted(counts.items(), key=lambda item: -item[1])[:8]:
        print(f"    {table:<24} {rows:>8,}")
    print(f"  second load (no-op): {again.seconds:.2f} s")
    if not keep:
        drop(url)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description="Time warehouse loads per engine.")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark databases")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    totals = {name: bench(name, url, args.keep) for name, url in URLS.items()}
    print("\nseconds per engine: " + ", ".join(f"{n} {s:.1f}" for n, s in totals.items()))


if __name__ == "__main__":
    main()
