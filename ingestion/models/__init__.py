"""What ingestion writes and retrieval reads: collections, documents, chunks, sections,
entities, and the jobs that produce them."""

from .collections import Collection, CollectionQuerySet
from .documents import Chunk, Document, Image, Section, SectionType, SentenceVector
from .entities import Entity, EntityMention, EntityRelation, ExtractionSchema
from .jobs import IngestionJob, ItemStatus, JobItem, JobStatus

__all__ = [
    "Chunk",
    "Collection",
    "CollectionQuerySet",
    "Document",
    "Entity",
    "EntityMention",
    "EntityRelation",
    "ExtractionSchema",
    "Image",
    "IngestionJob",
    "ItemStatus",
    "JobItem",
    "JobStatus",
    "Section",
    "SectionType",
    "SentenceVector",
]
