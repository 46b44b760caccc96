from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from .documents import delete_document
from .models import (
    Chunk,
    Collection,
    Document,
    Entity,
    EntityRelation,
    ExtractionSchema,
    IngestionJob,
    JobItem,
    Section,
    SectionType,
)
from .models.jobs import ITEM_REPORT_FIELDS


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name"]
    filter_horizontal = ["readers", "reader_groups", "writers", "writer_groups"]


ITEM_FIELDS = ("file_path", "status", "stage", *ITEM_REPORT_FIELDS, "attempts")


class JobItemInline(admin.TabularInline):
    model = JobItem
    extra = 0
    can_delete = False
    fields = ITEM_FIELDS
    readonly_fields = ITEM_FIELDS

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(IngestionJob)
class IngestionJobAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "collection",
        "status",
        "progress_percent",
        "total",
        "created_by",
        "created_at",
        "finished_at",
    ]
    list_filter = ["status", "collection"]
    readonly_fields = [
        "collection",
        "created_by",
        "status",
        "total",
        "similarity_edges",
        "section_types",
        "error",
        "worker",
        "started_at",
        "finished_at",
        "progress_percent",
        "counts",
    ]
    inlines = [JobItemInline]

    @admin.display(description="progress")
    def progress_percent(self, job: IngestionJob) -> str:
        return f"{job.progress() * 100:.0f}%"

    @admin.display(description="counts")
    def counts(self, job: IngestionJob) -> str:
        return ", ".join(f"{key}: {value}" for key, value in job.counts().items())


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = [
        "file_path",
        "collection",
        "format",
        "chunk_count",
        "section_count",
        "entity_count",
        "image_count",
        "graph_synced",
        "ingested_at",
    ]
    list_filter = ["collection", "format"]
    search_fields = ["file_path", "title"]
    readonly_fields = [f.name for f in Document._meta.fields]
    actions = ["delete_everywhere"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # it would leave the graph behind
        return actions

    @admin.action(description="Delete from PostgreSQL and the graph")
    def delete_everywhere(self, request: HttpRequest, queryset: QuerySet[Document]) -> None:
        for document in queryset:
            delete_document(document)

    def delete_model(self, request: HttpRequest, obj: Document) -> None:
        delete_document(obj)

    @admin.display(boolean=True, description="graph")
    def graph_synced(self, document: Document) -> bool:
        return document.graph_synced


@admin.register(Chunk)
class ChunkAdmin(admin.ModelAdmin):
    list_display = ["document", "index", "header_path", "token_count", "page"]
    list_filter = ["collection"]
    search_fields = ["text", "header_path"]
    readonly_fields = [
        "collection",
        "document",
        "section",
        "index",
        "text",
        "token_count",
        "header_text",
        "header_path",
        "header_level",
        "page",
        "keywords",
    ]
    exclude = ["embedding"]


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ["name", "document", "level", "section_type", "chunk_count"]
    search_fields = ["name", "path"]
    exclude = ["embedding"]
    readonly_fields = [
        "document",
        "collection",
        "parent",
        "name",
        "normalized_name",
        "level",
        "path",
        "parent_path",
        "position",
        "chunk_count",
        "start_chunk_index",
        "end_chunk_index",
        "section_type",
    ]


@admin.register(SectionType)
class SectionTypeAdmin(admin.ModelAdmin):
    list_display = ["canonical_name", "member_count", "variants"]
    exclude = ["centroid"]
    readonly_fields = ["key", "canonical_name", "normalized_name", "variants", "member_count"]


@admin.register(Entity)
class EntityAdmin(admin.ModelAdmin):
    list_display = ["name", "type", "graph_id"]
    list_filter = ["type"]
    search_fields = ["name", "search_names"]
    readonly_fields = ["graph_id", "name", "type", "aliases", "search_names"]


@admin.register(EntityRelation)
class EntityRelationAdmin(admin.ModelAdmin):
    list_display = ["source", "type", "target", "confidence", "document"]
    list_filter = ["type"]
    raw_id_fields = ["source", "target", "document", "chunk"]


@admin.register(ExtractionSchema)
class ExtractionSchemaAdmin(admin.ModelAdmin):
    list_display = ["name", "is_active", "updated_at"]
