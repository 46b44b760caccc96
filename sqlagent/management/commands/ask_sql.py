import json
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.databases.scope import Scope
from sqlagent.agent import ask
from sqlagent.answer import SqlAnswer, StepEvent

SHOWN_ROWS = 20
CELL_WIDTH = 40


def _cell(value: Any) -> str:
    text = "NULL" if value is None else str(value)
    text = " ".join(text.split())
    return text if len(text) <= CELL_WIDTH else text[: CELL_WIDTH - 1] + "…"


def rows_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    """A plain text table, each column as wide as its widest cell."""
    cells = [[_cell(c) for c in columns]] + [[_cell(v) for v in row] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    lines = ["  ".join(text.ljust(width) for text, width in zip(line, widths, strict=True))
             for line in cells]  # fmt: skip
    lines.insert(1, "  ".join("-" * width for width in widths))
    return [line.rstrip() for line in lines]


class Command(BaseCommand):
    help = (
        "Ask the SQL agent a question and print the answer, the SQL, the tables and why, the "
        "join path, the rows and per-step timings (-v2 shows each step as it runs)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("question")
        parser.add_argument("--data-source", help="the data source to ask (default: warehouse)")
        parser.add_argument(
            "--user",
            metavar="NAME",
            help="answer within this user's data scope (default: the whole database)",
        )
        parser.add_argument("--json", action="store_true", help="print the whole answer as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        user = None
        scope: Scope | None = Scope()  # whoever runs manage.py can read the database anyway
        if options["user"]:
            model = get_user_model()
            try:
                user = model.objects.get(**{model.USERNAME_FIELD: options["user"]})
            except model.DoesNotExist as error:
                raise CommandError(f"no user named {options['user']!r}") from error
            scope = None
        stream = options["verbosity"] > 1 and not options["json"]
        answer = ask(
            options["question"],
            user=user,
            source=options["data_source"],
            scope=scope,
            on_event=self._event if stream else None,
        )
        if options["json"]:
            self.stdout.write(json.dumps(answer.to_dict(), indent=1, default=str))
        else:
            self._print(answer)
        if answer.status == "error" and answer.sql is None and not answer.tables:
            raise CommandError(answer.reason)

    def _event(self, event: StepEvent) -> None:
        if event.status == "start":
            return
        detail = json.dumps(event.detail, default=str)
        if len(detail) > 200:
            detail = detail[:199] + "…"
        self.stdout.write(f"  [{event.step} {event.status} {event.elapsed_ms} ms] {detail}")

    def _print(self, answer: SqlAnswer) -> None:
        write = self.stdout.write
        write(f"{answer.status}: {answer.answer}")
        if answer.reason and answer.status != "answered":
            write(f"reason: {answer.reason}")
        if answer.sql:
            self._section("SQL", [answer.sql])
        self._section("tables", [f"{t['table']}: {t['reason']}" for t in answer.tables])
        self._section("join path", [str(join) for join in answer.join_path])
        if answer.loosened:
            write(f"\nloosened: {'; '.join(answer.loosened)}")
        if answer.columns:
            self._print_rows(answer)
        self._section("follow-up questions", list(answer.follow_ups))
        write("\ntimings (ms):")
        for step, ms in answer.timings.items():
            write(f"  {step:12} {ms:9.2f}")

    def _section(self, title: str, lines: list[str]) -> None:
        """A titled block of indented lines; nothing when there are none."""
        if lines:
            self.stdout.write(f"\n{title}:")
            for line in lines:
                self.stdout.write(f"  {line}")

    def _print_rows(self, answer: SqlAnswer) -> None:
        write = self.stdout.write
        shown = answer.rows[:SHOWN_ROWS]
        more = len(answer.rows) - len(shown)
        write(f"\nrows ({len(answer.rows)}{'+' if answer.truncated else ''}):")
        for line in rows_table(answer.columns, shown):
            write(f"  {line}")
        if more > 0:
            write(f"  ... and {more} more")
        if answer.truncated:
            write("  (cut at MAX_QUERY_ROWS: the database holds more)")
