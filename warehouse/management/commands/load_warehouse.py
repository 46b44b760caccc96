from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from warehouse.data import DEFAULT_SEED
from warehouse.loader import WarehouseError, load_warehouse


class Command(BaseCommand):
    help = (
        "Load the demo business database the SQL agent queries (settings.WAREHOUSE_URL), "
        "with its secure views and read-only agent login. A no-op when already loaded."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", help="database URL (default: settings.WAREHOUSE_URL)")
        parser.add_argument("--force", action="store_true", help="drop and rebuild it anyway")
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="data generator seed")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = load_warehouse(
                options["url"] or settings.WAREHOUSE_URL,
                aes_key=settings.WAREHOUSE_AES_KEY,
                agent_user=settings.WAREHOUSE_AGENT_USER,
                agent_password=settings.WAREHOUSE_AGENT_PASSWORD,
                seed=options["seed"],
                force=options["force"],
                log=self.stdout.write,
            )
        except (WarehouseError, ValueError) as error:
            raise CommandError(str(error)) from error
        if not report.rebuilt:
            self.stdout.write(f"{report.url}: up to date ({report.seconds:.1f}s)")
            return
        steps = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in report.steps.items())
        self.stdout.write(
            self.style.SUCCESS(
                f"{report.url}: loaded {report.rows:,} rows in {report.seconds:.1f}s ({steps})"
            )
        )
