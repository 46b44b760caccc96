from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.models import Route, RouteExample
from chat.orchestrator.routing import EXAMPLES_FILE, shipped_examples


class Command(BaseCommand):
    help = (
        "Copy the shipped example questions per route (chat/route_examples.json) into the "
        "RouteExample table. Idempotent: existing rows, and rows added or disabled in the "
        "admin, are left as they are; nothing is deleted."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--file", type=Path, default=EXAMPLES_FILE)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            pairs = shipped_examples(options["file"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise CommandError(f"{options['file']}: {error}") from error
        unknown = sorted({route for route, _ in pairs} - set(Route.values))
        if unknown:
            raise CommandError(f"{options['file']}: unknown routes: {', '.join(unknown)}")
        created = 0
        for route, question in pairs:
            _, new = RouteExample.objects.get_or_create(route=route, question=question.strip())
            created += new
        self.stdout.write(
            f"{created} example questions added, {len(pairs) - created} already there "
            f"({RouteExample.objects.count()} in all)"
        )
