import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sqlagent.evaluation import load_cases
from sqlagent.third_party import (
    UnknownSource,
    add_source_arguments,
    source_for_line,
    source_options,
)
from sqlagent.verified import matching
from sqlagent.verified.training import fit, gather, report


class Command(BaseCommand):
    help = (
        "Fit the model that decides whether a question rewords a verified query, from a "
        "question set (JSONL, as eval_sql reads) whose verified pairs are imported "
        "(import_verified). Fits on development databases only; prints both halves."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        add_source_arguments(parser)
        parser.add_argument(
            "--cost", type=float, default=3.0, help="what a wrong answer costs, in declines"
        )
        parser.add_argument("--out", type=Path, default=matching.MODEL)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            cases = load_cases(options["file"])
        except (OSError, ValueError) as error:
            raise CommandError(str(error)) from error
        names: dict[str | None, str] = {}

        def source_for(case: Any) -> str:
            if case.db not in names:
                names[case.db] = source_for_line(case.db, **source_options(options))[0]
            return names[case.db]

        try:
            asked = gather(cases, source_for)
        except UnknownSource as error:
            raise CommandError(str(error)) from error
        fitted = fit(asked, cost=options["cost"])
        if not fitted["trained_on"]["questions"]:  # type: ignore[index]
            raise CommandError("no development question to fit on")
        for split in ("dev", "held-out"):
            for reworded, what in ((True, "rewordings"), (False, "nothing verified")):
                figures = report(asked, fitted, split, reworded=reworded)
                self.stdout.write(f"{split:9} {what:16} {figures}")
        options["out"].write_text(json.dumps(fitted, indent=1) + "\n")
        self.stdout.write(f"threshold {fitted['threshold']}; model written to {options['out']}")
