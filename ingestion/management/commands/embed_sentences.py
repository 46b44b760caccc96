"""Embed the sentences of chunks ingested before sentences were embedded. Answers work
without (they embed the few sentences they need while the person waits); this moves that
work off the question's path."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from ingestion.embedding import ChunkText, embed_chunks
from ingestion.models import Chunk, SentenceVector

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
            _, sentences = embed_chunks(
                [
                    ChunkText(c.section.name if c.section else "", c.header_text, c.text)
                    for c in batch
                ]
            )
            rows = [
                SentenceVector(chunk=chunk, text=text, embedding=vector)
                for chunk, group in zip(batch, sentences, strict=True)
                for text, vector in group
            ]
            with transaction.atomic():
                SentenceVector.objects.bulk_create(rows)
            done += len(batch)
            stored += len(rows)
        self.stdout.write(f"{done} chunks, {stored} sentence vectors stored")
