import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from pgvector.django import HnswIndex, VectorField


def _cosine_hnsw(name: str) -> HnswIndex:
    """The nearest embeddings by cosine distance, from pgvector's HNSW graph."""
    return HnswIndex(
        name=name, fields=["embedding"], m=16, ef_construction=64, opclasses=["vector_cosine_ops"]
    )


class Document(models.Model):
    """One ingested file. Its UUID is the graph's Document.id (and file_id)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    collection = models.ForeignKey(
        "ingestion.Collection", on_delete=models.CASCADE, related_name="documents"
    )
    file = models.FileField(upload_to="ingestion/", max_length=500)
    file_name = models.CharField(max_length=255)
    # Where it came from: the path given to `manage.py ingest` (relative to the folder it
    # was found in) or the uploaded name; unique within a collection, so a re-ingest of the
    # same path replaces the document instead of adding a second one.
    file_path = models.CharField(max_length=1000)
    directory_name = models.CharField(max_length=255, blank=True)
    content_hash = models.CharField(max_length=64)
    size = models.PositiveBigIntegerField(default=0)
    format = models.CharField(max_length=16)
    title = models.CharField(max_length=500, blank=True)
    page_count = models.PositiveIntegerField(null=True, blank=True)
    chunk_count = models.PositiveIntegerField(default=0)
    section_count = models.PositiveIntegerField(default=0)
    entity_count = models.PositiveIntegerField(default=0)
    relation_count = models.PositiveIntegerField(default=0)
    image_count = models.PositiveIntegerField(default=0)
    # The content_hash whose chunks are in the graph; differs from content_hash while the
    # graph still has to be (re)written.
    graph_hash = models.CharField(max_length=64, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ingested_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["collection", "file_path"]
        constraints = [
            models.UniqueConstraint(fields=["collection", "file_path"], name="document_path_unique")
        ]
        indexes = [
            # The admin's search by title (pg_trgm serves icontains); the documents named
            # after a person are found in memory (retrieval/named_documents.py).
            GinIndex(fields=["title"], opclasses=["gin_trgm_ops"], name="document_title_trgm"),
        ]

    def __str__(self) -> str:
        return self.file_path

    @property
    def graph_synced(self) -> bool:
        return self.graph_hash == self.content_hash


class SectionType(models.Model):
    """A kind of section found across documents ("Skills" ~ "Technical Expertise")."""

    key = models.CharField(max_length=200, unique=True)  # the graph id, "section_type:skills"
    canonical_name = models.CharField(max_length=200)
    normalized_name = models.CharField(max_length=200)
    variants = ArrayField(models.CharField(max_length=300), default=list)
    member_count = models.PositiveIntegerField(default=0)
    centroid = VectorField(dimensions=settings.EMBEDDING_DIM)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["canonical_name"]

    def __str__(self) -> str:
        return self.canonical_name


class Section(models.Model):
    """A heading of one document and the chunks under it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="sections")
    collection = models.ForeignKey(
        "ingestion.Collection", on_delete=models.CASCADE, related_name="+"
    )
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    name = models.CharField(max_length=500)
    normalized_name = models.CharField(max_length=500)
    level = models.PositiveSmallIntegerField()
    path = models.TextField()  # "Level 1: Profile > Level 2: Technical Expertise"
    parent_path = models.TextField(blank=True)
    position = models.PositiveIntegerField()  # order of the heading in the document
    chunk_count = models.PositiveIntegerField(default=0)
    start_chunk_index = models.IntegerField(null=True, blank=True)
    end_chunk_index = models.IntegerField(null=True, blank=True)
    embedding = VectorField(dimensions=settings.EMBEDDING_DIM)
    section_type = models.ForeignKey(
        SectionType, null=True, blank=True, on_delete=models.SET_NULL, related_name="sections"
    )

    class Meta:
        ordering = ["document", "position"]
        indexes = [_cosine_hnsw("section_embedding_hnsw")]

    def __str__(self) -> str:
        return self.path


class Chunk(models.Model):
    """A piece of one section's text within the token budget; its UUID is the graph's
    Chunk.id."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    collection = models.ForeignKey(
        "ingestion.Collection", on_delete=models.CASCADE, related_name="chunks"
    )
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="chunks")
    section = models.ForeignKey(
        Section, null=True, blank=True, on_delete=models.SET_NULL, related_name="chunks"
    )
    index = models.PositiveIntegerField()
    text = models.TextField()
    token_count = models.PositiveIntegerField()
    header_text = models.CharField(max_length=500, blank=True)
    header_path = models.TextField(blank=True)
    header_level = models.PositiveSmallIntegerField(default=0)
    # The pages it is on, first and last (PDF); none for formats without pages.
    page = models.PositiveIntegerField(null=True, blank=True)
    page_end = models.PositiveIntegerField(null=True, blank=True)
    # Lower-cased terms and names for exact keyword matching.
    keywords = ArrayField(models.CharField(max_length=100), default=list)
    embedding = VectorField(dimensions=settings.EMBEDDING_DIM)
    search_vector = models.GeneratedField(
        expression=SearchVector("header_path", weight="A", config="english")
        + SearchVector("text", weight="B", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["document", "index"]
        constraints = [
            models.UniqueConstraint(fields=["document", "index"], name="chunk_index_unique")
        ]
        indexes = [
            _cosine_hnsw("chunk_embedding_hnsw"),
            GinIndex(fields=["search_vector"], name="chunk_search_vector"),
            GinIndex(fields=["keywords"], name="chunk_keywords"),
        ]

    def __str__(self) -> str:
        return f"{self.document_id}#{self.index}"


class SentenceVector(models.Model):
    """One sentence (or heading line) of a chunk as extractive answers quote it, embedded
    at ingestion with its section's name. Looked up by its exact embedding input, so a
    sentence split differently later is simply not found and embedded when asked."""

    chunk = models.ForeignKey(Chunk, on_delete=models.CASCADE, related_name="sentence_vectors")
    text = models.TextField()  # the embedding input: "section: sentence"
    embedding = VectorField(dimensions=settings.EMBEDDING_DIM)

    def __str__(self) -> str:
        return f"{self.chunk_id}: {self.text[:60]}"


class Image(models.Model):
    """A picture inside a document, stored beside it, linked to the chunk it sits in."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="images")
    chunk = models.ForeignKey(
        Chunk, null=True, blank=True, on_delete=models.SET_NULL, related_name="images"
    )
    # A stored copy when the picture was inside the file or beside it; otherwise the
    # reference as written (an URL, or a path that was not found).
    file = models.FileField(upload_to="ingestion/images/", max_length=500, blank=True)
    source = models.CharField(max_length=1000, blank=True)
    caption = models.TextField(blank=True)
    page = models.PositiveIntegerField(null=True, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["document", "position"]

    def __str__(self) -> str:
        return self.caption or self.source or str(self.id)

    @property
    def stored_path(self) -> str:
        return (self.file.name or "") if self.file else self.source
