from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from registries.bootstrap import bootstrap
from registries.models import SchemaTable

from ._source import add_source_arguments, data_source


class Command(BaseCommand):
    help = (
        "Suggest display attributes, table roles and terms from the introspected schema, each "
        "marked suggested until a person confirms it. Existing rows are left as they are."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_source_arguments(parser, url=True)

    def handle(self, *args: Any, **options: Any) -> None:
        source = data_source(options)
        if not SchemaTable.objects.filter(data_source=source).exists():
            raise CommandError(f"{source.name}: run introspect_schema first")
        self.stdout.write(f"{source.name}: {bootstrap(source).summary()}")
