"""Time the SQL agent's planning without an LLM, and join-path finding alone.

    python bench/sql_planning_benchmark.py [--repeat N] [--pairs N] [--data-source NAME]
        [--questions FILE]

Planning is steps 1-7 of the agent (terms, resolution, tables and joins, compiled SQL,
secure-view rewrite, fan-out guard, validation), not execution, plus the schema-linked
reading (which the agent makes where the term planner declines, and first on a database
nobody described): the worst case, both, for every question of warehouse/questions.jsonl
(or --questions FILE), N times each, on the registry of the development warehouse
(`manage.py load_warehouse` and `load_demo_registry` first) or of --data-source. The value index is
read once before timing, as the agent reads it from the cache. Path finding times
`shortest_path` between random table pairs with its cache cleared (cold) and filled
(cached), and `plan_joins` on random sets of two to four tables.
Targets: planning p95 under 50 ms, path finding under 5 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.utils import timezone  # noqa: E402
from sqlglot import exp  # noqa: E402

from registries.models import DataSource  # noqa: E402
from registries.semantic_layer import SemanticLayer  # noqa: E402
from registries.semantic_layer_loader import load_semantic_layer  # noqa: E402
from sqlagent.execution import with_row_limit  # noqa: E402
from sqlagent.fan_out import guard_fan_out  # noqa: E402
from sqlagent.join_paths import NoJoinPath, join_graph, plan_joins, shortest_path  # noqa: E402
from sqlagent.linking import Unreadable, plan_linked  # noqa: E402
from sqlagent.linking.values import StoredValues, stored_values  # noqa: E402
from sqlagent.plan import CannotAnswer  # noqa: E402
from sqlagent.question_terms import extract_terms  # noqa: E402
from sqlagent.resolution import resolve  # noqa: E402
from sqlagent.schema_view import executable_schema  # noqa: E402
from sqlagent.secure_views import rewrite_secure_views  # noqa: E402
from sqlagent.sql_compiler import compile_plan  # noqa: E402
from sqlagent.table_selection import select_tables  # noqa: E402
from sqlagent.validation import SQLValidationError, validate_sql  # noqa: E402
from sqlagent.value_index import ValueIndex, value_index  # noqa: E402
from sqlagent.vocabulary import vocabulary  # noqa: E402

QUESTIONS = Path(__file__).resolve().parent.parent / "warehouse" / "questions.jsonl"
Values = tuple[ValueIndex, StoredValues]


def machine() -> str:
    memory = "?"
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        kib = int(meminfo.read_text().split("MemTotal:")[1].split()[0])
        memory = f"{kib / 1024 / 1024:.0f} GiB"
    return f"{os.cpu_count()} cores, {memory} memory"


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered):7.3f} ms  p95 {p95:7.3f} ms  "
        f"max {ordered[-1]:7.3f} ms  (n={len(ordered)})"
    )


def plan_once(question: str, layer: SemanticLayer, both: Values) -> str:
    """Steps 1-7 as the agent runs them, then the linked reading; the term planner's
    outcome: planned, declined or invalid."""
    values, stored = both
    with contextlib.suppress(Unreadable):
        plan_linked(question, layer, stored)
    terms = extract_terms(question, vocabulary(layer, values.values), today=timezone.localdate())
    resolved = resolve(terms, layer, values)
    statement: exp.Expression
    try:
        plan = select_tables(terms, resolved, layer)
        statement = compile_plan(plan, layer)
    except CannotAnswer:
        return "declined"
    statement, _ = guard_fan_out(statement, layer)
    statement = rewrite_secure_views(statement, layer)
    statement = with_row_limit(statement, settings.MAX_QUERY_ROWS)
    sql = statement.sql(dialect=layer.dialect, identify=True)
    try:
        validate_sql(sql, layer=layer, schema=executable_schema(layer))
    except SQLValidationError:
        return "invalid"
    return "planned"


def timed(call: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def bench_planning(layer: SemanticLayer, values: Values, repeat: int, path: Path) -> list[float]:
    questions = [json.loads(line)["question"] for line in path.read_text().splitlines()]
    outcomes: dict[str, int] = {}
    for question in questions:  # warm-up: compiled regexes, cached schema views
        plan_once(question, layer, values)
    times = []
    for _ in range(repeat):
        for question in questions:
            ms, outcome = timed(lambda q=question: plan_once(q, layer, values))  # type: ignore[misc]
            times.append(ms)
            outcomes[str(outcome)] = outcomes.get(str(outcome), 0) + 1
    print(f"\nplanning, steps 1-7 and the linked reading ({len(questions)} questions x {repeat}):")
    print(f"  {percentiles(times)}")
    print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    return times


def _try_join(layer: SemanticLayer, tables: list[str]) -> object:
    try:
        return plan_joins(layer, tables)
    except NoJoinPath:
        return None


def bench_paths(layer: SemanticLayer, pairs: int) -> tuple[list[float], list[float]]:
    threshold, hops = settings.SQL_CONFIDENCE_THRESHOLD, settings.SQL_MAX_JOIN_HOPS
    names = sorted(layer.tables)
    rng = random.Random(5)
    chosen = [tuple(rng.sample(names, 2)) for _ in range(pairs)]
    join_graph.cache_clear()
    graph_ms, graph = timed(lambda: join_graph(layer, threshold))
    shortest_path.cache_clear()
    cold, found = [], 0
    for a, b in chosen:
        ms, path = timed(lambda a=a, b=b: shortest_path(layer, a, b, threshold, hops))  # type: ignore[misc]
        cold.append(ms)
        found += path is not None
    cached = [timed(lambda a=a, b=b: shortest_path(layer, a, b, threshold, hops))[0]  # type: ignore[misc]
              for a, b in chosen]  # fmt: skip
    sets = [rng.sample(names, rng.randint(2, 4)) for _ in range(pairs // 4)]
    shortest_path.cache_clear()
    planned: list[float] = []  # cold, sets that join
    refused: list[float] = []  # cold, sets with no path (every pair tried before giving up)
    for tables in sets:
        ms, result = timed(lambda t=tables: _try_join(layer, t))  # type: ignore[misc]
        (planned if result is not None else refused).append(ms)
    warm = [timed(lambda t=t: _try_join(layer, t))[0] for t in sets]  # type: ignore[misc]
    print(f"\njoin graph: {graph.number_of_nodes()} tables, {graph.number_of_edges()} edges, "  # type: ignore[attr-defined]
          f"built in {graph_ms:.2f} ms")  # fmt: skip
    print(f"shortest_path, {pairs} random pairs ({found} joinable within {hops} hops):")
    print(f"  cold    {percentiles(cold)}")
    print(f"  cached  {percentiles(cached)}")
    print(f"plan_joins, {len(sets)} random sets of 2-4 tables:")
    print(f"  cold, joined      {percentiles(planned)}")
    if refused:
        print(f"  cold, no path     {percentiles(refused)}")
    print(f"  cached, all       {percentiles(warm)}")
    return cold, planned


def main() -> None:
    parser = argparse.ArgumentParser(description="Time planning without an LLM.")
    parser.add_argument("--repeat", type=int, default=20, help="passes over the question set")
    parser.add_argument("--pairs", type=int, default=400, help="random table pairs")
    parser.add_argument("--data-source", help="default: the demo warehouse")
    parser.add_argument("--questions", type=Path, default=QUESTIONS, help="a JSONL question set")
    args = parser.parse_args()
    layer = load_semantic_layer(args.data_source)
    source = DataSource.objects.get(name=layer.data_source)
    secured = any(t.secure_view for t in layer.tables.values())
    ms, values = timed(lambda: value_index(layer, source.resolved_url(), agent=secured))
    assert isinstance(values, ValueIndex)
    stored = stored_values(layer, source.resolved_url(), agent=secured)
    print(f"machine: {machine()}")
    print(f"data source {layer.data_source}: {len(layer.tables)} tables, "
          f"{len(layer.relationships)} relationships; value index {len(values.values)} values "
          f"read in {ms:.0f} ms (cached after the first read)")  # fmt: skip
    planning = bench_planning(layer, (values, stored), args.repeat, args.questions)
    cold, planned = bench_paths(layer, args.pairs)

    def p95(values: list[float]) -> float:
        return sorted(values)[min(len(values) - 1, round(0.95 * (len(values) - 1)))]

    print("\ntargets:")
    print(f"  planning p95 {p95(planning):.2f} ms < 50 ms: {'yes' if p95(planning) < 50 else 'NO'}")
    worst = max(p95(cold), p95(planned))
    print(f"  path finding p95 (cold pairs, cold joined sets) {worst:.2f} ms < 5 ms: "
          f"{'yes' if worst < 5 else 'NO'}")  # fmt: skip


if __name__ == "__main__":
    main()
