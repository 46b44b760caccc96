import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.splits import SPLITS, in_split
from core.users import evaluation_user
from ingestion.models import Collection
from retrieval.evaluation.runner import (
    CONFIGS,
    DEFAULT_CONFIGS,
    METRICS,
    QuestionFileError,
    evaluate,
    load_questions,
    routing_available,
)
from retrieval.search import SearchError


class Command(BaseCommand):
    help = (
        "Recall@5, recall@10, both@5, both@10 (every relevant document in the top k), MRR "
        "and nDCG@10 of a question set (JSONL: question, "
        "relevant_documents, answers) for several retrieval configurations, side by side."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--collection", help="search only this collection")
        parser.add_argument(
            "--configs",
            nargs="+",
            default=list(DEFAULT_CONFIGS),
            help=f"from: {', '.join(CONFIGS)}",
        )
        parser.add_argument("--user", help="search as this user (default: every collection)")
        parser.add_argument("--json", type=Path, help="write every figure and ranking here")
        parser.add_argument("--by-type", action="store_true", help="recall@10 per question type")
        parser.add_argument("--limit", type=int, help="only the first N questions")
        parser.add_argument(
            "--split",
            choices=SPLITS,
            default="all",
            help="dev or held-out half (fixed by each question's text), or all (default)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            questions = load_questions(options["file"])
        except (OSError, QuestionFileError) as exc:
            raise CommandError(str(exc)) from exc
        questions = [q for q in questions if in_split(q.question, options["split"])]
        if not questions:
            raise CommandError(f"no question in the {options['split']} half")
        if options["limit"]:
            questions = questions[: options["limit"]]
        collection = options["collection"]
        if collection and not Collection.objects.filter(name=collection).exists():
            raise CommandError(f"no collection named {collection!r}; ingest it first")
        user = evaluation_user(options["user"], name="eval_retrieval")
        configs = list(options["configs"])
        if "hybrid+graph+routing" in configs and not routing_available():
            self.stderr.write("section routing is not installed: hybrid+graph+routing left out")
            configs.remove("hybrid+graph+routing")
        try:
            results = evaluate(questions, user=user, collection=collection, configs=configs)
        except (SearchError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        width = max(len(r.name) for r in results) + 2
        self.stdout.write(
            f"{len(questions)} questions from {options['file']} (split: {options['split']})"
        )
        header = "configuration".ljust(width) + "".join(m.rjust(11) for m in METRICS)
        self.stdout.write(header + "p50 ms".rjust(10))
        for r in results:
            line = r.name.ljust(width) + "".join(f"{r.means[m]:11.3f}" for m in METRICS)
            self.stdout.write(line + f"{r.latency_p50_ms:10.0f}")
        if options["by_type"]:
            types = sorted({t for r in results for t in r.by_type})
            self.stdout.write("\nrecall@10 by question type")
            self.stdout.write("type".ljust(18) + "".join(r.name[:14].rjust(16) for r in results))
            for t in types:
                cells = "".join(
                    f"{r.by_type.get(t, {}).get('recall@10', 0.0):16.3f}" for r in results
                )
                self.stdout.write(t.ljust(18) + cells)
        if options["json"]:
            payload = {
                "file": str(options["file"]),
                "collection": collection,
                "questions": len(questions),
                "split": options["split"],
                "configs": [
                    {
                        "name": r.name,
                        **r.means,
                        "latency_p50_ms": r.latency_p50_ms,
                        "by_type": r.by_type,
                        "per_question": r.per_question,
                    }
                    for r in results
                ],
            }
            options["json"].write_text(json.dumps(payload, indent=2, ensure_ascii=False))
            self.stdout.write(f"written: {options['json']}")
