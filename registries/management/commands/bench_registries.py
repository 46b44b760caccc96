import time
from statistics import median
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from registries.introspection import read_schema
from registries.semantic_layer_loader import build_semantic_layer, load_semantic_layer
from registries.sync import store

from ._source import add_source_arguments, data_source


def _timed(action: Any, repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - started)
    return median(times), result


class Command(BaseCommand):
    help = (
        "Print how long introspection, storing, building the semantic layer and a cached "
        "read take for a data source (median of --repeat runs). Writes like introspection."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_source_arguments(parser, url=True)
        parser.add_argument("--repeat", type=int, default=3)

    def handle(self, *args: Any, **options: Any) -> None:
        source = data_source(options)
        repeat = max(1, options["repeat"])
        read, schema = _timed(lambda: read_schema(source.resolved_url()), repeat)
        stored, _ = _timed(lambda: store(source, schema), repeat)
        source.refresh_from_db()
        built, layer = _timed(lambda: build_semantic_layer(source), repeat)
        load_semantic_layer(source.name)
        cached, _ = _timed(lambda: load_semantic_layer(source.name), max(repeat, 20))
        self.stdout.write(
            f"{source.name}: {len(schema.tables)} tables/views, "
            f"{sum(len(t.columns) for t in schema.tables)} columns, "
            f"{len(layer.relationships)} relationships, {len(layer.terms)} terms\n"
            f"  read schema (Django introspection)  {read * 1000:8.0f} ms\n"
            f"  store schema + relationships (re-run){stored * 1000:8.0f} ms\n"
            f"  build the semantic layer             {built * 1000:8.0f} ms\n"
            f"  cached load_semantic_layer()         {cached * 1000:8.2f} ms"
        )
