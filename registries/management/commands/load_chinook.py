from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from registries.datasets import DatasetError, load_chinook

DEFAULT_URL = "mysql://root@127.0.0.1:3306/chinook"


class Command(BaseCommand):
    help = "Load the Chinook sample database into MariaDB/MySQL or PostgreSQL (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url", default=DEFAULT_URL, help=f"database to create (default {DEFAULT_URL})"
        )
        parser.add_argument("--force", action="store_true", help="drop and load it again")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            loaded = load_chinook(options["url"], force=options["force"])
        except (DatasetError, OSError) as error:
            raise CommandError(str(error)) from error
        state = "loaded" if loaded else "already loaded"
        self.stdout.write(f"Chinook {state}: {options['url']}")
