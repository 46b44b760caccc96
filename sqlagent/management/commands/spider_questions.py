import csv
import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from registries.services import BUSINESS_SPIDER_DBS, SPIDER_SPLITS, datasets_dir, spider_split


class Command(BaseCommand):
    help = (
        "Write Spider train questions as an eval_sql question set (JSONL with question, sql "
        "and db), read from the shared datasets folder; --chinook writes the Chinook ones."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", type=Path, required=True, help="the JSONL file to write")
        parser.add_argument("--dbs", nargs="+", default=[], help="Spider database names")
        parser.add_argument("--business", action="store_true", help=", ".join(BUSINESS_SPIDER_DBS))
        parser.add_argument("--all", action="store_true", help="every Spider train database")
        parser.add_argument(
            "--split",
            choices=SPIDER_SPLITS,
            help="only the databases of this half (by a hash of the name: about a quarter are "
            "held out); develop on dev, report both",
        )
        parser.add_argument(
            "--verified",
            type=Path,
            metavar="PAIRS",
            help="split for verified queries: of each group of questions with the same SQL on a "
            "database, the first goes to PAIRS (with every question that has no rewording) and "
            "the rest to --out, to be asked",
        )
        parser.add_argument(
            "--chinook",
            action="store_true",
            help="the Spider questions on Chinook (chinook_1) instead, without a db (ask them with "
            "eval_sql --warehouse URL-of-chinook)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["chinook"]:
            lines = self._chinook()
        else:
            names = list(options["dbs"]) + (
                list(BUSINESS_SPIDER_DBS) if options["business"] else []
            )
            if not names and not options["all"]:
                raise CommandError("name Spider databases with --dbs, or pass --business or --all")
            lines = self._spider(list(dict.fromkeys(names)), every=options["all"])
            if options["split"]:
                lines = [line for line in lines if spider_split(line["db"]) == options["split"]]
        if options["verified"]:
            pairs, lines = verified_split(lines)
            _write(options["verified"], pairs)
            self.stdout.write(f"{len(pairs)} verified pairs written to {options['verified']}")
        _write(options["out"], lines)
        self.stdout.write(f"{len(lines)} questions written to {options['out']}")

    def _chinook(self) -> list[dict[str, str]]:
        path = datasets_dir() / "chinook" / "spider_train_chinook_questions.json"
        try:
            items = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {path}: {error}") from error
        # The file also holds store_1 (Spider's own copy of Chinook, with other table names):
        # only chinook_1's questions run on the Chinook database itself.
        return [
            {"question": item["question"], "sql": item["sql"]}
            for item in items
            if item.get("db") == "chinook_1"
        ]

    def _spider(self, names: list[str], *, every: bool) -> list[dict[str, str]]:
        path = datasets_dir() / "spider_train" / "train_queries.csv"
        try:
            with path.open(newline="", encoding="utf-8") as handle:
                rows = list(csv.DictReader(handle))
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error}") from error
        known = {row["database"] for row in rows}
        missing = [name for name in names if name not in known]
        if missing:
            raise CommandError(f"no Spider questions for: {', '.join(missing)}")
        wanted = known if every else set(names)
        return [
            {"question": row["question"], "sql": row["sql"], "db": row["database"]}
            for row in rows
            if row["database"] in wanted
        ]


def verified_split(
    lines: list[dict[str, str]],
) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """(pairs to verify, questions to ask): the first question of each group with the same
    SQL on the same database is verified, the others reword it."""
    seen: set[tuple[str, str]] = set()
    pairs: list[dict[str, str]] = []
    asked: list[dict[str, str]] = []
    for line in lines:
        key = (line.get("db", ""), " ".join(line["sql"].split()))
        (asked if key in seen else pairs).append(line)
        seen.add(key)
    return pairs, asked


def _write(path: Path, lines: list[dict[str, str]]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
