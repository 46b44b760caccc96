import json
from datetime import date
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sqlagent.evaluation import Case, Outcome, Report, evaluate, load_cases
from sqlagent.third_party import (
    UnknownSource,
    add_source_arguments,
    source_for_line,
    source_options,
)
from sqlagent.verified.pairs import import_pairs


class Command(BaseCommand):
    help = (
        "Run a question set (JSONL: question, gold sql, optional db) through the SQL agent "
        "and report execution accuracy, declined and wrong answers, and latency per step."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--warehouse",
            metavar="URL",
            help="the database to ask (default: the demo warehouse); one nobody described is "
            "introspected and bootstrapped into a data source of its own first",
        )
        add_source_arguments(parser)
        parser.add_argument(
            "--verified",
            metavar="PAIRS",
            type=Path,
            help="verified queries (JSONL, as import_verified reads) imported into the same "
            "data sources before the questions are asked",
        )
        parser.add_argument("--today", type=date.fromisoformat, help="date 'last month' is from")
        parser.add_argument("--report", type=Path, help="write the full report here (JSON)")
        parser.add_argument("--limit", type=int, help="only the first N questions")
        parser.add_argument(
            "--reasons", type=int, default=15, help="print this many kinds of decline reason"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            cases = load_cases(options["file"])
        except (OSError, ValueError) as error:
            raise CommandError(str(error)) from error
        cases = cases[: options["limit"]] if options["limit"] else cases
        sources: dict[str | None, tuple[str | None, str]] = {}

        def source_for(case: Case) -> tuple[str | None, str]:
            if case.db not in sources:
                sources[case.db] = self._source(case.db, options)
            return sources[case.db]

        def progress(outcome: Outcome) -> None:
            if options["verbosity"] > 1:
                self.stdout.write(f"{outcome.verdict:9} {outcome.case.question}")
                if outcome.verdict != "correct" and outcome.reason:
                    self.stdout.write(f"          {outcome.reason}")

        if options["verified"]:
            self._import(options)
        report = evaluate(cases, source_for=source_for, today=options["today"], progress=progress)
        self._print(report, options)
        if options["report"]:
            options["report"].write_text(json.dumps(report.to_json(), indent=1, default=str))
            self.stdout.write(f"report written to {options['report']}")

    def _import(self, options: dict[str, Any]) -> None:
        try:
            lines = options["verified"].read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {options['verified']}: {error}") from error
        done = import_pairs(lines, lambda db: self._source(db, options)[0] or "")
        self.stdout.write(
            f"verified queries: {done.created} added, {done.updated} replaced, "
            f"{len(done.bad)} refused"
        )
        for number, problem in done.bad[:10]:
            self.stdout.write(f"  {options['verified']}:{number}: {problem[:150]}")

    def _print(self, report: Report, options: dict[str, Any]) -> None:
        summary = report.summary()
        latency = summary.pop("latency_ms")
        for key, value in summary.items():
            self.stdout.write(f"{key:14} {value}")
        for generator, counts in report.by_generator().items():
            self.stdout.write(
                f"  by {generator:10} {counts['correct']} correct, {counts['wrong']} wrong"
            )
        self.stdout.write("latency (ms)    p50      p95")
        for step, figures in latency.items():
            self.stdout.write(f"  {step:12} {figures['p50']:8} {figures['p95']:8}")
        reasons = report.decline_reasons()
        if reasons:
            self.stdout.write("declined because")
            for reason, count in reasons[: options["reasons"]]:
                self.stdout.write(f"  {count:6}  {reason[:150]}")
        by_db = report.by_db()
        if len(by_db) > 1:
            self.stdout.write(
                f"{'database':32} {'scored':>6} {'correct':>8} {'wrong':>6} {'declined':>9}"
            )
            for db, figures in by_db.items():
                self.stdout.write(
                    f"{db or '(default)':32} {figures['scored']:6} {figures['accuracy']:8.1%} "
                    f"{figures['wrong_rate']:6.1%} {figures['declined_rate']:9.1%}"
                )

    def _source(self, db: str | None, options: dict[str, Any]) -> tuple[str | None, str]:
        try:
            return source_for_line(db, **source_options(options))
        except UnknownSource as error:
            raise CommandError(str(error)) from error
