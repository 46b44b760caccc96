from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from registries.bootstrap import bootstrap
from registries.sync import introspect

from ._source import add_source_arguments, data_source


class Command(BaseCommand):
    help = (
        "Introspect a data source's database: tables, columns, foreign keys and relationships "
        "inferred from names. Re-running updates what changed and keeps rows a person edited."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_source_arguments(parser, url=True)
        parser.add_argument("--no-infer", action="store_true", help="skip name inference")
        parser.add_argument(
            "--bootstrap",
            action="store_true",
            help="then suggest display attributes, table roles and terms (see bootstrap_registry)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source = data_source(options)
        try:
            report = introspect(source, infer=not options["no_infer"])
        except (ImproperlyConfigured, DatabaseError, OSError) as error:
            raise CommandError(f"{source.name}: cannot introspect: {error}") from error
        self.stdout.write(report.summary())
        if options["verbosity"] > 1:
            for line in report.created + report.updated + report.removed:
                self.stdout.write(f"  {line}")
        if options["bootstrap"]:
            self.stdout.write(f"{source.name}: {bootstrap(source).summary()}")
