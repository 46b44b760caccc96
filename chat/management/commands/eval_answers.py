import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.orchestrator.answer_evaluation import (
    SPLITS,
    AnswerRow,
    answer_all,
    format_report,
    in_split,
    load_answer_questions,
    score,
)
from chat.orchestrator.question_files import QuestionFileError
from core.users import evaluation_user


class Command(BaseCommand):
    help = (
        "Honest answers on a labelled question set (JSONL: question, expect answer|no_answer, "
        "gold_file?, source?, note?): every question answered by the orchestrator, then the "
        "share of unanswerable ones it declined, the share of answerable ones answered with "
        "the gold document cited, per source kind, the confusion of expect by outcome and "
        "every miss."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--user", default="demo", help="ask as this user (default: demo)")
        parser.add_argument(
            "--split",
            choices=SPLITS,
            default="dev",
            help="the half of the set to run, fixed by each question's text (default: dev)",
        )
        parser.add_argument("--limit", type=int, help="only the first N questions of the split")
        parser.add_argument("--report", type=Path, help="write the figures and rows as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            questions = load_answer_questions(options["file"])
        except (OSError, QuestionFileError) as error:
            raise CommandError(str(error)) from error
        chosen = in_split(questions, options["split"])[: options["limit"] or None]
        if not chosen:
            raise CommandError(f"no questions in the {options['split']} split")
        user = evaluation_user(options["user"], name="eval_answers")
        total = len(chosen)

        def progress(number: int, row: AnswerRow) -> None:
            mark = "ok" if row.right else "MISS"
            self.stderr.write(f"  {number}/{total} {mark} {row.outcome} ({row.route or '-'})")

        report = score(answer_all(chosen, user=user, on_answer=progress), split=options["split"])
        self.stdout.write(format_report(report))
        if options["report"]:
            options["report"].write_text(json.dumps(report.to_dict(), indent=2, default=str))
            self.stdout.write(f"\nreport written to {options['report']}")
