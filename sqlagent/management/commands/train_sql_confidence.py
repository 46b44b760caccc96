import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.calibration import figures, probability
from sqlagent.linking import confidence
from sqlagent.linking.confidence_training import examples, fit


class Command(BaseCommand):
    help = (
        "Fit the schema-linked planner's confidence model and threshold from eval_sql reports "
        "run with SQL_LINKED_MIN_CONFIDENCE=0, on development databases only; prints the "
        "figures of both halves at the fitted threshold."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("reports", nargs="+", type=Path)
        parser.add_argument(
            "--cost", type=float, default=2.0, help="what a wrong answer costs, in declines"
        )
        parser.add_argument("--out", type=Path, default=confidence.MODEL)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            reports = [json.loads(path.read_text()) for path in options["reports"]]
        except (OSError, ValueError) as error:
            raise CommandError(str(error)) from error
        found = examples(reports)
        train = [e for e in found if e.split == "dev"]
        if len(train) < 50 or len({e.right for e in train}) < 2:
            raise CommandError(f"{len(train)} development examples: too few to fit a model")
        fitted = fit(train, cost=options["cost"])
        options["out"].write_text(json.dumps(fitted, indent=1) + "\n")
        cut = fitted["threshold"]
        self.stdout.write(f"threshold {cut} written to {options['out']}")
        for half in ("dev", "held-out"):
            scored = [(probability(e.features, fitted), e.right) for e in found if e.split == half]
            if scored:
                numbers = figures(scored, cut)
                self.stdout.write(f"{half:9} " + " ".join(f"{k} {v}" for k, v in numbers.items()))
