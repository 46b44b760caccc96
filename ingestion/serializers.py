from typing import Any

from rest_framework import serializers

from .models import Collection, Document, IngestionJob, JobItem
from .models.jobs import ITEM_REPORT_FIELDS


class CollectionSerializer(serializers.ModelSerializer[Collection]):
    class Meta:
        model = Collection
        fields = ["id", "name", "description", "created_at"]


class UploadSerializer(serializers.Serializer[Any]):
    files = serializers.ListField(child=serializers.FileField(), allow_empty=False)
    # Where each file belongs in the collection ("resumes/a.pdf"); defaults to its name.
    paths = serializers.ListField(child=serializers.CharField(max_length=1000), required=False)
    collection = serializers.CharField(max_length=200)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        paths = attrs.get("paths") or []
        if paths and len(paths) != len(attrs["files"]):
            raise serializers.ValidationError({"paths": "one path per file"})
        for path in paths:
            if path.startswith("/") or ".." in path.split("/"):
                raise serializers.ValidationError({"paths": f"not a relative path: {path}"})
        return attrs


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


class JobSerializer(serializers.ModelSerializer[IngestionJob]):
    progress = serializers.SerializerMethodField()
    counts = serializers.SerializerMethodField()
    items = JobItemSerializer(many=True, read_only=True)

    class Meta:
        model = IngestionJob
        fields = [
            "id",
            "collection",
            "status",
            "progress",
            "total",
            "counts",
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
