import sys
import time
from pathlib import Path
from typing import Any

from celery import current_app
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.jobs import create_job, enqueue, run_in_process, sources_from_paths
from ingestion.models import Collection, IngestionJob, ItemStatus, JobItem


def worker_listening() -> bool:
    """Whether some worker consumes the queue our tasks go to."""
    queue = current_app.conf.task_default_queue
    try:
        replies = current_app.control.inspect(timeout=1.5).active_queues() or {}
    except Exception:
        return False
    return any(q.get("name") == queue for queues in replies.values() for q in queues)


class Command(BaseCommand):
    help = (
        "Ingest files and folders (recursively) into a collection. Unchanged files are "
        "skipped; changed ones replace their previous version."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument("--collection", default="default", help="created when missing")
        parser.add_argument(
            "--reader", action="append", default=[], help="a username who may read it"
        )
        parser.add_argument(
            "--wait",
            action="store_true",
            help="wait for the job with a progress bar (runs it here when no worker listens)",
        )
        parser.add_argument("--in-process", action="store_true", help="run here, not on Celery")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            sources = sources_from_paths(options["paths"])
        except FileNotFoundError as exc:
            raise CommandError(str(exc)) from exc
        collection, created = Collection.objects.get_or_create(name=options["collection"])
        for username in options["reader"]:
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"no such user: {username}")
            collection.readers.add(user)
        job = create_job(collection=collection, sources=sources)
        skipped = job.items.filter(status=ItemStatus.SKIPPED).count()
        self.stdout.write(
            f"job {job.pk}: {len(sources)} files into {'new ' if created else ''}collection "
            f"{collection.name!r} ({skipped} unchanged)"
        )
        local = options["in_process"] or (options["wait"] and not worker_listening())
        if local:
            if not options["in_process"]:
                self.stdout.write("no worker listens on the queue: processing here")
            run_in_process(job, on_item=lambda item: self._bar(job))
        else:
            enqueue(job)
            if not options["wait"]:
                self.stdout.write("queued; follow it in the admin or at /api/ingestion/jobs/")
                return
            while True:
                job.refresh_from_db()
                self._bar(job)
                if job.is_finished:
                    break
                time.sleep(0.5)
        job.refresh_from_db()
        self._bar(job)
        self.stdout.write("")
        self._summary(job)

    def _bar(self, job: IngestionJob) -> None:
        job.refresh_from_db()
        done = job.items.filter(
            status__in=[ItemStatus.DONE, ItemStatus.SKIPPED, ItemStatus.FAILED]
        ).count()
        fraction = job.progress()
        width = 30
        filled = int(width * fraction)
        bar = "#" * filled + "." * (width - filled)
        line = f"[{bar}] {fraction * 100:5.1f}%  {done}/{job.total} files"
        if sys.stdout.isatty():
            self.stdout.write(f"\r{line}", ending="")
            self.stdout.flush()
        else:
            self.stdout.write(line)

    def _summary(self, job: IngestionJob) -> None:
        counts = job.counts()
        self.stdout.write(
            f"{job.status}: {counts['done']} ingested, {counts['skipped']} unchanged, "
            f"{counts['failed']} failed; {counts['chunks']} chunks, "
            f"{counts['sections']} sections, {counts['entities']} entities, "
            f"{counts['edges']} graph edges, {counts['similarity_edges']} similarity edges, "
            f"{counts['section_types']} section types"
        )
        failed: list[JobItem] = list(job.items.filter(status=ItemStatus.FAILED))
        for item in failed:
            self.stderr.write(f"  failed: {item.file_path}: {item.error}")
