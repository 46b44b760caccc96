from typing import Any

from django.core.management.base import BaseCommand

from core.graph_schema import ensure_graph_schema


class Command(BaseCommand):
    help = "Create the graph's constraints and indexes (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        created = ensure_graph_schema()
        self.stdout.write(f"graph schema: {created} statements applied")
