import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.models import Collection
from ingestion.services import Source, create_job, link_similar_chunks, run_in_process
from retrieval.evaluation.docqa import DATASETS, DatasetError, passages, questions


def _source(path: str, data: bytes) -> Source:
    return Source(path=path, read=lambda: data, size=len(data))


class Command(BaseCommand):
    help = (
        "Ingest a multi-hop question set's passages (MuSiQue or HotpotQA, HippoRAG's "
        "release) as one document per passage into a collection of its own, and write its "
        "questions as JSONL for eval_retrieval."
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

    def handle(self, *args: Any, **options: Any) -> None:
        dataset = options["dataset"]
        folder = options["path"] or settings.DATASETS_DIR / "docqa"
        out = options["questions"] or settings.BASE_DIR / "var" / "eval" / f"{dataset}.jsonl"
        try:
            rows = questions(dataset, folder, limit=options["first"])
            found = list(passages(dataset, folder, questions=options["first"]))
        except (DatasetError, KeyError, TypeError) as exc:
            raise CommandError(f"cannot read {dataset} from {folder}: {exc}") from exc
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        self.stdout.write(f"{len(rows)} questions written to {out}")
        if options["skip_ingest"]:
            return
        collection, _ = Collection.objects.get_or_create(name=options["collection"] or dataset)
        sources = [_source(p.path, p.text.encode()) for p in found]
        job = create_job(collection=collection, sources=sources)
        self.stdout.write(f"job {job.pk}: {len(sources)} passages into {collection.name!r}")
        done = 0

        def progress(item: Any) -> None:
            nonlocal done
            done += 1
            if done % 100 == 0:
                self.stdout.write(f"  {done}/{len(sources)}")

        run_in_process(job, on_item=progress)
        # Edges between passages of an earlier, interrupted load are made here too.
        link_similar_chunks(collection.documents.values_list("pk", flat=True))
        job.refresh_from_db()
        counts = job.counts()
        self.stdout.write(
            f"{job.status}: {counts['done']} ingested, {counts['skipped']} unchanged, "
            f"{counts['failed']} failed; {counts['chunks']} chunks, "
            f"{counts['similarity_edges']} similarity edges"
        )
