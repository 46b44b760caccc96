"""Rebuild the knowledge graph from PostgreSQL, the system of record: after restoring a
PostgreSQL backup onto an empty graph server, or moving from the embedded graph to Neo4j.
Each document's subgraph is replaced as its ingestion writes it, then the similarity edges
and section types are recomputed once; running it twice gives the same graph."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.graph_schema import ensure_graph_schema
from ingestion.graph_writer import write_document_graph
from ingestion.models import Collection, Document
from ingestion.section_types import refresh_section_types
from ingestion.similarity import link_similar_chunks


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
        ids = []
        relations = 0
        for document in documents.iterator(chunk_size=200):
            relations += write_document_graph(document)
            ids.append(document.pk)
            if len(ids) % 100 == 0:
                self.stdout.write(f"{len(ids)} documents written")
        edges = link_similar_chunks(ids)
        types = refresh_section_types()
        self.stdout.write(
            f"graph rebuilt: {len(ids)} documents, {relations} relations, "
            f"{edges} similarity edges, {types} section types"
        )
