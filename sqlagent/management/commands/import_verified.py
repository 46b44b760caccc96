from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from sqlagent.third_party import (
    UnknownSource,
    add_source_arguments,
    source_for_line,
    source_options,
)
from sqlagent.verified.pairs import import_pairs


class Command(BaseCommand):
    help = (
        'Import verified queries from JSONL (lines {"question", "sql", "db"?, "notes"?, '
        '"tags"?}). Each line is checked on its own; bad lines are reported by number and the '
        "good ones kept. The same question on the same data source is replaced."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        add_source_arguments(parser)
        parser.add_argument("--confirmed-by", metavar="USERNAME", help="who confirmed them")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            lines = options["file"].read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {options['file']}: {error}") from error
        user = None
        if options["confirmed_by"]:
            user = User.objects.filter(username=options["confirmed_by"]).first()
            if user is None:
                raise CommandError(f"no user named {options['confirmed_by']!r}")
        try:
            source_for_line(None, **source_options(options))  # a wrong name stops here
        except UnknownSource as error:
            raise CommandError(str(error)) from error
        done = import_pairs(
            lines, lambda db: source_for_line(db, **source_options(options))[0], confirmed_by=user
        )
        for number, problem in done.bad:
            self.stderr.write(f"{options['file']}:{number}: {problem}")
        self.stdout.write(
            f"{done.created} verified queries added, {done.updated} replaced, "
            f"{len(done.bad)} lines refused"
        )
