import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.models import Collection
from ingestion.services import (
    Source,
    create_job,
    link_similar_chunks,
    run_in_process,
    summary_line,
)
from retrieval.evaluation.docqa import (
    DATASETS,
    DatasetError,
    HoldOut,
    Passage,
    answer_questions,
    file_name,
    hold_out,
    passages,
)


def _source(path: str, data: bytes) -> Source:
    return Source(path=path, read=lambda: data, size=len(data))


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


class Command(BaseCommand):
    help = (
        "Ingest a multi-hop question set's passages (MuSiQue or HotpotQA, HippoRAG's "
        "release) as one document per passage into a collection of its own, and write its "
        "questions as JSONL for eval_retrieval (and, with --answers-out, for eval_answers)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dataset", choices=DATASETS)
        parser.add_argument(
            "--path", type=Path, help="folder with <dataset>_train.json and _corpus.json"
        )
        parser.add_argument("--collection", help="default: the dataset's name")
        parser.add_argument("--questions", type=Path, help="default: var/eval/<dataset>.jsonl")
        parser.add_argument("--skip-ingest", action="store_true", help="only write questions")
        parser.add_argument(
            "--first", type=int, help="only the first N questions and the passages they come with"
        )
        parser.add_argument(
            "--hold-out-every",
            type=int,
            metavar="K",
            help="withhold the supporting passages of every K-th question (unless a kept "
            "question needs them), so the documents no longer answer it",
        )
        parser.add_argument(
            "--answers-out",
            type=Path,
            help="also write the questions for eval_answers: kept ones expect an answer "
            "citing their first supporting passage, held-out ones expect none",
        )
        parser.add_argument("--reader", help="let this user read the collection")

    def handle(self, *args: Any, **options: Any) -> None:
        dataset = options["dataset"]
        folder = options["path"] or settings.DATASETS_DIR / "docqa"
        if options["hold_out_every"] is not None and options["hold_out_every"] < 1:
            raise CommandError("--hold-out-every must be 1 or more")
        try:
            held = hold_out(
                dataset, folder, every=options["hold_out_every"], limit=options["first"]
            )
            found = list(
                passages(dataset, folder, questions=options["first"], withheld=held.withheld)
            )
        except (DatasetError, KeyError, TypeError) as exc:
            raise CommandError(f"cannot read {dataset} from {folder}: {exc}") from exc
        self._write_questions(dataset, held, options)
        if options["skip_ingest"]:
            return
        collection, _ = Collection.objects.get_or_create(name=options["collection"] or dataset)
        self._refuse_withheld(collection, held)
        if options["reader"]:
            self._grant(collection, options["reader"])
        self._ingest(collection, found)

    def _write_questions(self, dataset: str, held: HoldOut, options: dict[str, Any]) -> None:
        """The retrieval questions (only the kept ones when some are held out) and, when
        asked, the eval_answers set."""
        out = options["questions"] or settings.BASE_DIR / "var" / "eval" / f"{dataset}.jsonl"
        _write_jsonl(out, held.kept)
        self.stdout.write(f"{len(held.kept)} questions written to {out}")
        if held.held_out or held.mixed:
            total = len(held.kept) + len(held.held_out) + len(held.mixed)
            self.stdout.write(
                f"held out: {len(held.held_out)} of {total} questions, their "
                f"{len(held.withheld)} supporting passages withheld; left out of both files: "
                f"{len(held.mixed)} that need a passage a kept question needs"
            )
        if options["answers_out"]:
            rows = answer_questions(dataset, held)
            _write_jsonl(options["answers_out"], rows)
            self.stdout.write(
                f"{len(rows)} eval_answers questions written to {options['answers_out']}"
            )

    def _refuse_withheld(self, collection: Collection, held: HoldOut) -> None:
        """A held-out question is only unanswerable where its passages never were."""
        names = {file_name(title) for title in held.withheld}
        present = collection.documents.filter(file_name__in=names).count()
        if present:
            raise CommandError(
                f"{present} of the passages to withhold are already in {collection.name!r} "
                "(an earlier load): choose a new --collection"
            )

    def _grant(self, collection: Collection, username: str) -> None:
        reader = get_user_model().objects.filter(username=username).first()
        if reader is None:
            raise CommandError(f"no such user: {username}")
        collection.readers.add(reader)
        self.stdout.write(f"{username} may read {collection.name!r}")

    def _ingest(self, collection: Collection, found: list[Passage]) -> None:
        sources = [_source(p.path, p.text.encode()) for p in found]
        job = create_job(collection=collection, sources=sources)
        self.stdout.write(f"job {job.pk}: {len(sources)} passages into {collection.name!r}")

        def progress() -> None:
            done = job.items.exclude(status__in=["queued", "processing"]).count()
            self.stdout.write(f"  {done}/{len(sources)}")

        run_in_process(job, on_batch=progress)
        # Edges between passages of an earlier, interrupted load are made here too.
        link_similar_chunks(collection.documents.values_list("pk", flat=True))
        self.stdout.write(summary_line(job))
