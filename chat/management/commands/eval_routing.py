import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.orchestrator.routing_evaluation import (
    QuestionFileError,
    evaluate,
    format_report,
    load_questions,
)
from core.users import evaluation_user


class Command(BaseCommand):
    help = (
        "Routing accuracy of a labelled question set (JSONL: question, route, history?, "
        "attachments?): overall and per route, the confusion matrix, the misrouted questions "
        "with the router's reasons, and p50/p95 routing time."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--report", type=Path, help="write every figure here as JSON")
        parser.add_argument(
            "--user", help="route as this user, whose documents count (default: every collection)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            questions = load_questions(options["file"])
        except (OSError, QuestionFileError) as error:
            raise CommandError(str(error)) from error
        report = evaluate(questions, user=evaluation_user(options["user"], name="eval_routing"))
        self.stdout.write(format_report(report))
        if options["report"]:
            options["report"].write_text(json.dumps(report.to_dict(), indent=2, default=str))
            self.stdout.write(f"\nreport written to {options['report']}")
