from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.deletion import create_deletion_job
from ingestion.models import Collection
from ingestion.progress_bar import run_here, send


class Command(BaseCommand):
    help = (
        "Delete documents of a collection everywhere (rows, graph, stored files) as one job: "
        "all of them, those of a folder, or those at the given paths."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--collection", required=True)
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--all", action="store_true", help="every document of the collection")
        what.add_argument("--folder", help="documents whose path starts with this folder")
        what.add_argument("--path", action="append", help="a document's path (repeatable)")
        parser.add_argument("--in-process", action="store_true", help="run here, not on Celery")
        parser.add_argument("--wait", action="store_true", help="wait with a progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        collection = Collection.objects.filter(name=options["collection"]).first()
        if collection is None:
            raise CommandError(f"no such collection: {options['collection']}")
        documents = collection.documents.all()
        if options["folder"]:
            documents = documents.filter(file_path__startswith=options["folder"].rstrip("/") + "/")
        elif options["path"]:
            documents = documents.filter(file_path__in=options["path"])
        job = create_deletion_job(collection=collection, documents=documents)
        self.stdout.write(f"job {job.pk}: removing {job.total} documents of {collection.name!r}")
        if options["in_process"]:
            run_here(job, self.stdout)
        elif not send(job, self.stdout, wait=options["wait"]):
            return
        job.refresh_from_db()
        self.stdout.write(f"{job.status}: {job.counts()['done']} documents deleted")
