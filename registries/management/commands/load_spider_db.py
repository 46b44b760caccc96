from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from registries.datasets import BUSINESS_SPIDER_DBS, DatasetError, load_spider_db

DEFAULT_SERVER = "mysql://root@127.0.0.1:3306/"


class Command(BaseCommand):
    help = (
        "Load Spider train databases into MariaDB/MySQL, each as spider_<name> "
        "(idempotent). --business loads a set of business-like ones."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("names", nargs="*", help="Spider database names, e.g. hr_1")
        parser.add_argument("--business", action="store_true", help=", ".join(BUSINESS_SPIDER_DBS))
        parser.add_argument(
            "--url", default=DEFAULT_SERVER, help=f"server (default {DEFAULT_SERVER})"
        )
        parser.add_argument("--prefix", default="spider_", help="database name prefix")
        parser.add_argument(
            "--no-foreign-keys", action="store_true", help="leave out the declared foreign keys"
        )
        parser.add_argument("--force", action="store_true", help="drop and load again")

    def handle(self, *args: Any, **options: Any) -> None:
        names = list(options["names"]) + (list(BUSINESS_SPIDER_DBS) if options["business"] else [])
        if not names:
            raise CommandError("name at least one Spider database, or pass --business")
        for name in dict.fromkeys(names):
            try:
                target, loaded = load_spider_db(
                    name,
                    options["url"],
                    database=f"{options['prefix']}{name}",
                    foreign_keys=not options["no_foreign_keys"],
                    force=options["force"],
                    log=self.stdout.write if options["verbosity"] > 1 else lambda m: None,
                )
            except (DatasetError, OSError) as error:
                raise CommandError(f"{name}: {error}") from error
            self.stdout.write(f"{name} {'loaded' if loaded else 'already loaded'}: {target.url}")
