from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api_fields import StrictInput, TextField

from .models import Collection, Document, IngestionJob, JobItem
from .models.jobs import ITEM_REPORT_FIELDS


class CollectionSerializer(serializers.ModelSerializer[Collection]):
    class Meta:
        model = Collection
        fields = ["id", "name", "description", "created_at"]


# A relative folder: segments other than "." and "..", no leading "/", no NUL (one regex,
# without look-arounds, so that the schema states it as the server checks it).
_SEGMENT = r"(?:[^/.\x00][^/\x00]*|\.[^/.\x00][^/\x00]*|\.\.[^/\x00]+)"
FOLDER = RegexValidator(rf"^{_SEGMENT}(?:/{_SEGMENT})*/?$", "Not a folder inside the collection.")


class UploadSerializer(StrictInput, serializers.Serializer[Any]):
    """The multipart body: the files and nothing else."""

    files = serializers.ListField(child=serializers.FileField(allow_empty_file=True), min_length=1)


class UploadTargetSerializer(serializers.Serializer[Any]):
    """Where the files go, in the query string. (Not form fields: in a form, 7 and "7" are
    the same text, so a schema could not say which it takes.)"""

    collection = TextField(max_length=200, help_text="By name; a new name creates it.")
    folder = TextField(
        required=False,
        max_length=255,  # its last part is the documents' directory_name (255 at most)
        pattern=FOLDER,
        help_text='Where in the collection the files go ("resumes/2024"); default: the top.',
    )


class JobItemSerializer(serializers.ModelSerializer[JobItem]):
    class Meta:
        model = JobItem
        fields = [
            "id",
            "file_path",
            "status",
            "stage",
            "document",
            *ITEM_REPORT_FIELDS,
            "started_at",
            "finished_at",
        ]


class ThroughputSerializer(serializers.Serializer[Any]):
    """How far a job is and at what pace: what `manage.py ingest` and the admin show."""

    files_done = serializers.IntegerField()
    files_total = serializers.IntegerField()
    chunks_done = serializers.IntegerField()
    files_per_second = serializers.FloatField()
    chunks_per_second = serializers.FloatField()
    elapsed_seconds = serializers.FloatField()
    seconds_left = serializers.FloatField(allow_null=True, help_text="None until a file is done")


class JobSerializer(serializers.ModelSerializer[IngestionJob]):
    progress = serializers.SerializerMethodField()
    counts = serializers.SerializerMethodField()
    throughput = serializers.SerializerMethodField()
    items = JobItemSerializer(many=True, read_only=True)

    class Meta:
        model = IngestionJob
        fields = [
            "id",
            "kind",
            "collection",
            "status",
            "progress",
            "total",
            "counts",
            "throughput",
            "error",
            "created_at",
            "started_at",
            "finished_at",
            "items",
        ]

    def get_progress(self, job: IngestionJob) -> float:
        return job.progress()

    def get_counts(self, job: IngestionJob) -> dict[str, int]:
        return job.counts()

    @extend_schema_field(ThroughputSerializer)
    def get_throughput(self, job: IngestionJob) -> dict[str, Any]:
        return job.throughput()


class DocumentSerializer(serializers.ModelSerializer[Document]):
    class Meta:
        model = Document
        fields = [
            "id",
            "collection",
            "file_name",
            "file_path",
            "directory_name",
            "title",
            "format",
            "size",
            "content_hash",
            "page_count",
            "chunk_count",
            "section_count",
            "entity_count",
            "relation_count",
            "image_count",
            "created_at",
            "ingested_at",
        ]
