import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from registries.models import DataSource
from sqlagent.models import VerifiedQuery
from sqlagent.verified.pairs import export_pairs


class Command(BaseCommand):
    help = (
        "Write verified queries as JSONL (the format import_verified reads), to --out or the "
        'standard output; lines carry "db" unless one data source is named.'
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--data-source", help="only this data source's queries")
        parser.add_argument("--out", type=Path, help="the file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        rows = VerifiedQuery.objects.select_related("data_source").order_by("data_source", "pk")
        name = options["data_source"]
        if name:
            if not DataSource.objects.filter(name=name).exists():
                raise CommandError(f"no data source named {name!r}")
            rows = rows.filter(data_source__name=name)
        lines = list(export_pairs(rows, with_db=not name))
        if options["out"]:
            options["out"].write_text("".join(lines), encoding="utf-8")
            self.stdout.write(f"{len(lines)} verified queries written to {options['out']}")
        else:
            sys.stdout.writelines(lines)
