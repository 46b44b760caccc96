from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.entities import use_llm
from ingestion.evaluation import Report, Score, evaluate


class Command(BaseCommand):
    help = "Precision and recall of entity extraction on the labelled demo sample."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--labels", type=Path, default=settings.BASE_DIR / "demo/labels/entities.jsonl"
        )
        parser.add_argument("--corpus", type=Path, default=settings.BASE_DIR / "demo/corpus")
        parser.add_argument("--show-errors", type=int, default=0, help="list N misses/extras")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["labels"].is_file():
            raise CommandError(f"no labels at {options['labels']}")
        report = evaluate(
            options["labels"],
            options["corpus"],
            max_tokens=settings.INGESTION_CHUNK_TOKENS,
            overlap=settings.INGESTION_CHUNK_OVERLAP,
        )
        extractor = (
            "LLM (" + settings.OPENAI_MODEL + ")" if use_llm() else "offline (spaCy + rules)"
        )
        self.stdout.write(f"extractor: {extractor}; {report.documents} labelled documents\n")
        self._table("entities", report.entities, report)
        self._table("relations", report.relations, report)
        if options["show_errors"]:
            self.stdout.write("\nmost missed:")
            for name, n in report.missed.most_common(options["show_errors"]):
                self.stdout.write(f"  {n} x {name}")
            self.stdout.write("most spurious:")
            for name, n in report.spurious.most_common(options["show_errors"]):
                self.stdout.write(f"  {n} x {name}")

    def _table(self, title: str, scores: dict[str, Score], report: Report) -> None:
        self.stdout.write(
            f"{title:<20} {'precision':>9} {'recall':>7} {'f1':>6} {'pred':>6} {'gold':>6}"
        )
        for kind in sorted(scores):
            self._row(kind, scores[kind])
        self._row("all", report.total(scores))
        produced = {k for k, s in scores.items() if s.predicted}
        self._row("types it produces", report.total(scores, produced))
        self.stdout.write("")

    def _row(self, name: str, s: Score) -> None:
        self.stdout.write(
            f"{name:<20} {s.precision:>9.3f} {s.recall:>7.3f} {s.f1:>6.3f} "
            f"{s.predicted:>6} {s.gold:>6}"
        )
