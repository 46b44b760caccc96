from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from registries.files import ImportFailed, import_files

from ._source import add_source_arguments, data_source


class Command(BaseCommand):
    help = (
        "Import registry files in the seed's JSON formats (domain_registry.json, "
        "display_attributes_registry.json, join_graph_manual.json, join_graph_merged.json, "
        "secure_views.json). Any problem in any file imports nothing and lists every problem."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)
        add_source_arguments(parser)
        parser.add_argument(
            "--replace", action="store_true", help="remove rows the files no longer mention"
        )
        parser.add_argument(
            "--overwrite-edits",
            action="store_true",
            help="also overwrite rows a person edited in the admin (kept by default)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source = data_source(options)
        files = []
        for path in options["files"]:
            try:
                files.append((path.name, path.read_text(encoding="utf-8")))
            except OSError as error:
                raise CommandError(f"{path}: {error}") from error
        try:
            report = import_files(
                source,
                files,
                keep_person_edits=not options["overwrite_edits"],
                replace=options["replace"],
            )
        except ImportFailed as failed:
            raise CommandError(str(failed)) from failed
        self.stdout.write(f"{source.name}: {report.summary()}")
