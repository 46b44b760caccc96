import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.calibration import probability
from core.splits import split_of
from core.users import evaluation_user
from ingestion.models import Collection
from retrieval.evaluation.ranker_training import Example, collect, fit, ranking_figures
from retrieval.evaluation.runner import QuestionFileError, load_questions
from retrieval.fusion import MODEL_PATH
from retrieval.search import SearchError

SHOWN = ("both@10", "ndcg@10", "mrr")


class Command(BaseCommand):
    help = (
        "Fit the learned fusion's weights on the development half of eval_retrieval question "
        "sets (FILE:COLLECTION, or FILE to search every collection the user reads) and print "
        "both halves of each set, weighted fusion against learned."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("sets", nargs="+", metavar="FILE[:COLLECTION]")
        parser.add_argument("--user", help="search as this user (default: every collection)")
        parser.add_argument("--out", type=Path, default=MODEL_PATH)

    def handle(self, *args: Any, **options: Any) -> None:
        user = evaluation_user(options["user"], name="train_ranker")
        found: dict[str, dict[str, list[Example]]] = {}
        for spec in options["sets"]:
            path, _, collection = spec.partition(":")
            if collection and not Collection.objects.filter(name=collection).exists():
                raise CommandError(f"no collection named {collection!r}; ingest it first")
            try:
                questions = load_questions(Path(path))
                examples = collect(questions, user=user, collection=collection or None)
            except (OSError, QuestionFileError, SearchError) as exc:
                raise CommandError(str(exc)) from exc
            found[spec] = {
                half: [e for e in examples if split_of(e.question) == half]
                for half in ("dev", "held-out")
            }
        try:
            fitted = fit([e for halves in found.values() for e in halves["dev"]])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        options["out"].write_text(json.dumps(fitted, indent=1) + "\n")
        self.stdout.write(f"weights written to {options['out']}: {fitted['weights']}")
        for spec, halves in found.items():
            for half, examples in halves.items():
                if examples:
                    self._report(spec, half, examples, fitted)

    def _report(self, spec: str, half: str, examples: list[Example], fitted: Any) -> None:
        before = ranking_figures(examples)
        after = ranking_figures(examples, lambda evidence: probability(evidence, fitted))
        shown = "  ".join(f"{m} {before[m]:.3f} -> {after[m]:.3f}" for m in SHOWN)
        self.stdout.write(f"{spec} {half} ({len(examples)}): {shown}")
