"""Embed the sentences of chunks ingested before sentences were embedded. Answers work
without (they embed the few sentences they need while the person waits); this moves that
work off the question's path."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from ingestion.models import Chunk, SentenceVector
from ingestion.pipeline import embed_by_length
from ingestion.sentences import chunk_sentence_inputs

BATCH_CHUNKS = 64


class Command(BaseCommand):
    help = "Embed the sentences of chunks that have no sentence vectors yet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--collection", help="only this collection (its name)")

    def handle(self, *args: Any, **options: Any) -> None:
        chunks = Chunk.objects.filter(sentence_vectors__isnull=True).select_related("section")
        if options["collection"]:
            chunks = chunks.filter(collection__name=options["collection"])
        pending = list(chunks.order_by("document_id", "index").values_list("pk", flat=True))
        done = stored = 0
        for start in range(0, len(pending), BATCH_CHUNKS):
            batch = list(chunks.filter(pk__in=pending[start : start + BATCH_CHUNKS]))
            inputs = [
                chunk_sentence_inputs(chunk.section.name if chunk.section else "", chunk.text)
                for chunk in batch
            ]
            vectors = iter(embed_by_length([text for group in inputs for text in group]))
            rows = [
                SentenceVector(chunk=chunk, text=text, embedding=next(vectors))
                for chunk, group in zip(batch, inputs, strict=True)
                for text in group
            ]
            with transaction.atomic():
                SentenceVector.objects.bulk_create(rows)
            done += len(batch)
            stored += len(rows)
        self.stdout.write(f"{done} chunks, {stored} sentence vectors stored")
