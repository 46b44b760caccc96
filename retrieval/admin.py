from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from .models import QueryTrace

TRACE_FIELDS = [
    "created_at",
    "user",
    "kind",
    "question",
    "rewritten_queries",
    "parameters",
    "collection_ids",
    "retrieved",
    "subgraph",
    "answer",
    "token_usage",
    "keyword_ms",
    "vector_ms",
    "graph_ms",
    "rerank_ms",
    "total_ms",
    "timings",
    "result_count",
]


@admin.register(QueryTrace)
class QueryTraceAdmin(admin.ModelAdmin):
    """Read-only: traces are a record of what happened."""

    list_display = ["created_at", "user", "kind", "question", "result_count", "total_ms"]
    list_filter = ["kind", "created_at"]
    list_select_related = ["user"]
    search_fields = ["question", "answer", "user__username"]
    date_hierarchy = "created_at"
    readonly_fields = TRACE_FIELDS
    actions = ["export_jsonl"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Export selected traces as JSONL")
    def export_jsonl(self, request: HttpRequest, queryset: QuerySet[QueryTrace]) -> HttpResponse:
        body = "".join(t.export_line() + "\n" for t in queryset.select_related("user"))
        response = HttpResponse(body, content_type="application/x-ndjson")
        name = f"traces-{timezone.now():%Y%m%d-%H%M%S}.jsonl"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
