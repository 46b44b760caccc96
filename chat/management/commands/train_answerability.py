"""Fit the document answerability model on the development half of question sets."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.orchestrator.answers import answerability
from chat.orchestrator.answers.answerability_training import features_of, fit, rates, read_sets
from core.users import evaluation_user


class Command(BaseCommand):
    help = (
        "Search every question of the given eval_answers sets as the user, compute the "
        "answerability features, fit the model on the development half and write it; prints "
        "both halves' rates."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--user", default="demo")
        parser.add_argument("--out", type=Path, default=answerability.MODEL_FILE)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            labelled = read_sets(options["files"])
        except (OSError, KeyError, ValueError) as error:
            raise CommandError(f"cannot read the question sets: {error}") from error
        user = evaluation_user(options["user"], name="train_answerability")
        rows = [(row, features_of(row.question, user)) for row in labelled]
        fitted = fit(rows)
        for half in ("dev", "held-out"):
            scored = [
                (answerability.probability(f, fitted), r.answerable)
                for r, f in rows
                if r.split == half
            ]
            answered, declined = rates(scored, fitted["threshold"])
            fitted["trained_on"][half] = {
                "questions": len(scored),
                "answerable_answered": round(answered, 3),
                "unanswerable_declined": round(declined, 3),
            }
            self.stdout.write(
                f"{half:9} {len(scored):4} questions: answerable answered {answered:.1%}, "
                f"unanswerable declined {declined:.1%}"
            )
        options["out"].write_text(json.dumps(fitted, indent=2) + "\n", encoding="utf-8")
        self.stdout.write(f"threshold {fitted['threshold']}; written to {options['out']}")
