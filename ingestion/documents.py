"""Removing one document: its rows, its files, its subgraph, and the entities only it
mentioned. Many documents are removed by a deletion job (`deletion.py`)."""

from . import files
from .deletion import delete_rows
from .graph_writer import remove_documents
from .models import Document
from .section_types import refresh_section_types


def delete_document(document: Document) -> None:
    remove_documents([str(document.pk)])
    for name in delete_rows([document.pk]):
        files.delete(name)
    refresh_section_types()
