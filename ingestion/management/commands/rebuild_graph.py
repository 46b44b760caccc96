"""Rebuild the knowledge graph from PostgreSQL, the system of record: after restoring a
PostgreSQL backup onto an empty graph server, or moving from the embedded graph to Neo4j.
Documents' subgraphs are replaced as ingestion writes them, 200 at a time, then the similarity edges
and section types are recomputed once; running it twice gives the same graph."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.graph_schema import ensure_graph_schema
from ingestion.graph_writer import write_documents_graph
from ingestion.models import Collection, Document
from ingestion.section_types import refresh_section_types
from ingestion.similarity import link_similar_chunks

BATCH = 200


class Command(BaseCommand):
    help = "Rewrite the graph from the documents stored in PostgreSQL."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--collection", help="only this collection (its name)")

    def handle(self, *args: Any, **options: Any) -> None:
        documents = Document.objects.order_by("created_at")
        if options["collection"]:
            if not Collection.objects.filter(name=options["collection"]).exists():
                raise CommandError(f"no collection named {options['collection']!r}")
            documents = documents.filter(collection__name=options["collection"])
        ensure_graph_schema()
        ids: list[Any] = []
        relations = 0
        batch: list[Document] = []
        for document in documents.iterator(chunk_size=BATCH):
            batch.append(document)
            if len(batch) == BATCH:
                relations += self._write(batch, ids)
                batch = []
        relations += self._write(batch, ids)
        edges = link_similar_chunks(ids)
        types = refresh_section_types()
        self.stdout.write(
            f"graph rebuilt: {len(ids)} documents, {relations} relations, "
            f"{edges} similarity edges, {types} section types"
        )

    def _write(self, batch: list[Document], ids: list[Any]) -> int:
        if not batch:
            return 0
        relations = sum(write_documents_graph(batch).values())
        ids += [d.pk for d in batch]
        self.stdout.write(f"{len(ids)} documents written")
        return relations
