from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from registries.files import write_all

from ._source import add_source_arguments, data_source


class Command(BaseCommand):
    help = "Write a data source's registries as JSON files in the seed's formats."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("folder", type=Path)
        add_source_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        source = data_source(options)
        for path in write_all(source, options["folder"]):
            self.stdout.write(str(path))
