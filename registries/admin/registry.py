"""The registries in the Django admin, for a data steward who is not a programmer.

Saving a row marks it as edited by a person (automated runs then leave it alone) and
confirms a suggestion; every save bumps the data source's version so the agent sees it at
its next question. Who changed what is in each row's History (the admin's log).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join

from ..bootstrap import bootstrap
from ..files import FILENAMES
from ..models import (
    DataSource,
    DisplayAttributes,
    Provenance,
    Relationship,
    SchemaColumn,
    SchemaTable,
    SecureView,
    TableMetadata,
    Term,
    TermResolution,
)
from ..models.base import masked
from ..sync import introspect
from . import views
from .forms import (
    DisplayAttributesForm,
    RelationshipForm,
    SecureViewForm,
    TableMetadataForm,
    TermForm,
    TermResolutionForm,
)


def name_list(field: str, description: str) -> Callable[[Any, Any], str]:
    """A list column showing a row's JSON list of names as "a, b, c"."""

    @admin.display(description=description)
    def show(model_admin: Any, obj: Any) -> str:
        return ", ".join(getattr(obj, field))

    return show


def graph_link(source_id: int, table: str, text: str | None = None) -> str:
    url = reverse("admin:registries_datasource_join_graph", args=[source_id])
    return format_html('<a href="{}?table={}">{}</a>', url, table, text or table)


class PersonEditsAdmin(admin.ModelAdmin):
    """Rows saved here count as a person's: confirmed, and kept by automated re-runs."""

    provenance_fields = ("source", "edited_by_person", "updated_at")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return self.provenance_fields

    def save_model(self, request: HttpRequest, obj: Any, form: ModelForm, change: bool) -> None:
        obj.edited_by_person = True
        if hasattr(obj, "suggested") and "suggested" not in form.changed_data:
            obj.suggested = False
        if not change:
            obj.source = Provenance.ADMIN
        super().save_model(request, obj, form, change)

    @admin.action(description="Confirm the selected suggestions")
    def confirm(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for row in queryset:  # one by one, so each gets its history entry and version bump
            row.suggested, row.edited_by_person = False, True
            row.save()
            self.log_change(request, row, "Confirmed the suggestion")
        self.message_user(request, f"Confirmed {queryset.count()} rows.")


@admin.register(DataSource)
class DataSourceAdmin(admin.ModelAdmin):
    list_display = ["name", "dialect", "where", "version", "introspected_at", "counts"]
    search_fields = ["name", "description"]
    readonly_fields = ["dialect", "version", "introspected_at"]
    fields = ["name", "url", "url_env", "dialect", "description", "version", "introspected_at"]
    actions = ["introspect_action", "bootstrap_action"]
    change_form_template = "admin/registries/datasource_change_form.html"

    @admin.display(description="database")
    def where(self, obj: DataSource) -> str:
        try:
            return masked(obj.resolved_url())
        except ImproperlyConfigured as error:
            return str(error)

    @admin.display(description="registries")
    def counts(self, obj: DataSource) -> str:
        return (
            f"{obj.schema_tables.count()} tables, {obj.term_set.count()} terms, "
            f"{obj.relationship_set.count()} relationships"
        )

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/join-graph/",
                wrap(lambda request, pk: views.join_graph(self, request, pk)),
                name="registries_datasource_join_graph",
            ),
            path(
                "<int:pk>/import/",
                wrap(lambda request, pk: views.import_view(self, request, pk)),
                name="registries_datasource_import",
            ),
            path(
                "<int:pk>/export/<str:name>",
                wrap(lambda request, pk, name: views.export_view(self, request, pk, name)),
                name="registries_datasource_export",
            ),
            *super().get_urls(),
        ]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> Any:
        extra_context = {**(extra_context or {}), "export_files": list(FILENAMES.values())}
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request: HttpRequest, obj: Any, form: ModelForm, change: bool) -> None:
        super().save_model(request, obj, form, change)
        DataSource.objects.bump(obj.pk)  # a new URL can mean a different database

    @admin.action(description="Introspect the schema (keeps rows a person edited)")
    def introspect_action(self, request: HttpRequest, queryset: QuerySet[DataSource]) -> None:
        for source in queryset:
            try:
                report = introspect(source)
            except (ImproperlyConfigured, DatabaseError, OSError) as error:
                self.message_user(request, f"{source}: {error}", messages.ERROR)
                continue
            self.log_change(request, source, f"Introspected: {report.summary()}")
            self.message_user(request, report.summary())

    @admin.action(description="Suggest display attributes, roles and terms (bootstrap)")
    def bootstrap_action(self, request: HttpRequest, queryset: QuerySet[DataSource]) -> None:
        for source in queryset:
            if not source.schema_tables.exists():
                self.message_user(request, f"{source}: introspect it first", messages.WARNING)
                continue
            report = bootstrap(source)
            self.log_change(request, source, f"Bootstrap: {report.summary()}")
            self.message_user(request, f"{source}: {report.summary()}")


class TermResolutionInline(admin.TabularInline):
    model = TermResolution
    form = TermResolutionForm
    extra = 1
    max_num = 3


@admin.register(Term)
class TermAdmin(PersonEditsAdmin):
    form = TermForm
    inlines = [TermResolutionInline]
    list_display = ["name", "synonym_list", "entity", "resolves_to", "suggested", "data_source"]
    list_filter = ["data_source", "suggested", "source", "edited_by_person"]
    search_fields = ["name", "synonyms", "entity", "description"]
    actions = ["confirm"]
    synonym_list = name_list("synonyms", "synonyms")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Term]:
        return super().get_queryset(request).prefetch_related("resolutions")

    @admin.display(description="resolves to")
    def resolves_to(self, obj: Term) -> str:
        return format_html_join(
            ", ",
            "{}: {} ({})",
            (
                (r.rank, ", ".join(r.columns or r.tables), r.match_type)
                for r in obj.resolutions.all()
            ),
        )


@admin.register(DisplayAttributes)
class DisplayAttributesAdmin(PersonEditsAdmin):
    form = DisplayAttributesForm
    list_display = ["table", "columns", "label", "suggested", "data_source"]
    list_filter = ["data_source", "suggested", "source", "edited_by_person"]
    search_fields = ["table", "display_columns", "primary_label"]
    actions = ["confirm"]
    columns = name_list("display_columns", "display columns")
    label = name_list("primary_label", "primary label")


@admin.register(TableMetadata)
class TableMetadataAdmin(PersonEditsAdmin):
    form = TableMetadataForm
    list_display = ["table", "role", "category", "hidden", "suggested", "graph", "data_source"]
    list_filter = ["data_source", "role", "category", "hidden", "suggested", "edited_by_person"]
    search_fields = ["table", "description", "category", "note"]
    actions = ["confirm"]

    @admin.display(description="join graph")
    def graph(self, obj: TableMetadata) -> str:
        return graph_link(obj.data_source_id, obj.table, "show")


@admin.register(SecureView)
class SecureViewAdmin(PersonEditsAdmin):
    form = SecureViewForm
    list_display = ["table", "view", "sensitive", "data_source"]
    list_filter = ["data_source", "source", "edited_by_person"]
    search_fields = ["table", "view", "sensitive_columns"]
    sensitive = name_list("sensitive_columns", "sensitive columns")


@admin.register(Relationship)
class RelationshipAdmin(PersonEditsAdmin):
    form = RelationshipForm
    list_display = [
        "edge",
        "kind",
        "confidence",
        "cardinality",
        "enabled",
        "validated",
        "source",
        "edited_by_person",
    ]
    list_editable = ["enabled", "validated"]
    list_filter = ["data_source", "kind", "enabled", "validated", "source", "edited_by_person"]
    search_fields = ["from_table", "from_column", "to_table", "to_column", "note"]
    actions = ["enable", "disable", "mark_validated"]

    @admin.display(description="relationship", ordering="from_table")
    def edge(self, obj: Relationship) -> str:
        return str(obj)

    def _set(self, request: HttpRequest, queryset: QuerySet[Relationship], **values: Any) -> None:
        for row in queryset:
            for name, value in values.items():
                setattr(row, name, value)
            row.edited_by_person = True
            row.save()
            self.log_change(request, row, f"Set {values}")
        self.message_user(request, f"Updated {queryset.count()} relationships.")

    @admin.action(description="Enable the selected relationships")
    def enable(self, request: HttpRequest, queryset: QuerySet[Relationship]) -> None:
        self._set(request, queryset, enabled=True)

    @admin.action(description="Disable the selected relationships")
    def disable(self, request: HttpRequest, queryset: QuerySet[Relationship]) -> None:
        self._set(request, queryset, enabled=False)

    @admin.action(description="Mark the selected relationships validated")
    def mark_validated(self, request: HttpRequest, queryset: QuerySet[Relationship]) -> None:
        self._set(request, queryset, validated=True)


class SchemaColumnInline(admin.TabularInline):
    model = SchemaColumn
    fields = ("name", "data_type", "db_type", "nullable", "unique", "primary_key")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SchemaTable)
class SchemaTableAdmin(admin.ModelAdmin):
    """The schema as introspected: read-only here, refreshed by introspection."""

    inlines = [SchemaColumnInline]
    list_display = ["name", "is_view", "row_estimate", "column_count", "graph", "data_source"]
    list_filter = ["data_source", "is_view"]
    search_fields = ["name", "columns__name"]
    readonly_fields = ("data_source", "name", "is_view", "row_estimate", "comment", "graph")
    fields = (*readonly_fields, "introspected_at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[SchemaTable]:
        return super().get_queryset(request).prefetch_related("columns").distinct()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="columns")
    def column_count(self, obj: SchemaTable) -> int:
        return len(obj.columns.all())

    @admin.display(description="join graph")
    def graph(self, obj: SchemaTable) -> str:
        return graph_link(obj.data_source_id, obj.name, "show")
