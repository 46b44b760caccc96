"""Removing a document: its rows, its files, its subgraph, and the entities only it
mentioned."""

from django.db import transaction

from . import files
from .graph_writer import remove_document
from .models import Document, Entity, EntityMention, Image
from .section_types import refresh_section_types


def delete_document(document: Document) -> None:
    document_id = str(document.pk)
    with transaction.atomic():
        entity_ids = set(
            EntityMention.objects.filter(document=document).values_list("entity_id", flat=True)
        )
        stored = [document.file.name] + [
            name
            for name in Image.objects.filter(document=document).values_list("file", flat=True)
            if name
        ]
        document.delete()
        Entity.objects.filter(pk__in=entity_ids, mentions__isnull=True).delete()
    remove_document(document_id)
    for name in stored:
        files.delete(name)
    refresh_section_types()
