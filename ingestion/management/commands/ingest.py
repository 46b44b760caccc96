from pathlib import Path
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.jobs import create_job, enqueue, sources_from_paths
from ingestion.local_workers import start_workers, stop_workers
from ingestion.models import Collection, IngestionJob, ItemStatus, JobItem
from ingestion.progress_bar import follow, run_here, send, summary_line


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
        parser.add_argument(
            "--workers",
            type=int,
            default=0,
            help="start N Celery workers on this machine for the job, stopped at its end",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["workers"] < 0 or (options["workers"] and options["in_process"]):
            raise CommandError("--workers takes a positive number and excludes --in-process")
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
            f"job {job.pk}: {job.total} files into {'new ' if created else ''}collection "
            f"{collection.name!r} ({skipped} unchanged)"
        )
        if options["workers"]:
            self._with_local_workers(job, options["workers"])
        elif options["in_process"] or (options["wait"] and not worker_listening()):
            if not options["in_process"]:
                self.stdout.write("no worker listens on the queue: processing here")
            run_here(job, self.stdout)
        elif not send(job, self.stdout, wait=options["wait"]):
            return
        self._summary(job)

    def _with_local_workers(self, job: IngestionJob, count: int) -> None:
        workers = start_workers(count, settings.VAR_DIR)
        self.stdout.write(f"started {count} workers on this machine")
        try:
            enqueue(job)
            follow(job, self.stdout, workers_alive=lambda: any(w.poll() is None for w in workers))
        finally:
            stop_workers(workers)

    def _summary(self, job: IngestionJob) -> None:
        self.stdout.write(summary_line(job))
        failed: list[JobItem] = list(job.items.filter(status=ItemStatus.FAILED))
        for item in failed:
            self.stderr.write(f"  failed: {item.file_path}: {item.error}")
