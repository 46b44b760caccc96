from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from .deletion import create_deletion_job
from .documents import delete_document
from .jobs import enqueue
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
from .progress_bar import progress_figures


def start_deletion(
    admin_view: admin.ModelAdmin, request: HttpRequest, documents: QuerySet[Document]
) -> None:
    """One deletion job per collection of the documents, sent to the workers."""
    for collection in Collection.objects.filter(documents__in=documents).distinct():
        job = create_deletion_job(collection=collection, documents=documents, user=request.user)
        enqueue(job)
        admin_view.message_user(
            request,
            f"Deleting {job.total} documents of {collection}: follow job {job.pk} "
            "under Ingestion jobs.",
        )


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name"]
    filter_horizontal = ["readers", "reader_groups", "writers", "writer_groups"]
    actions = ["delete_all_documents"]

    @admin.action(description="Delete all their documents (one job per collection)")
    def delete_all_documents(self, request: HttpRequest, queryset: QuerySet[Collection]) -> None:
        start_deletion(self, request, Document.objects.filter(collection__in=queryset))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Deleting the rows alone would leave the documents' graph and files behind: a
        # collection is deleted once its documents are.
        if obj is not None and obj.documents.exists():
            return False
        return super().has_delete_permission(request, obj)


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
        "kind",
        "progress_percent",
        "pace",
        "total",
        "created_by",
        "created_at",
        "finished_at",
    ]
    list_filter = ["status", "kind", "collection"]
    readonly_fields = [
        "kind",
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
        "pace",
        "counts",
    ]
    inlines = [JobItemInline]

    @admin.display(description="progress")
    def progress_percent(self, job: IngestionJob) -> str:
        return f"{job.progress() * 100:.0f}%"

    @admin.display(description="pace")
    def pace(self, job: IngestionJob) -> str:
        """The figures `manage.py ingest` draws: files and chunks done, per second, left."""
        return progress_figures(job)

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

    @admin.action(description="Delete from PostgreSQL and the graph (one job)")
    def delete_everywhere(self, request: HttpRequest, queryset: QuerySet[Document]) -> None:
        start_deletion(self, request, queryset)

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
