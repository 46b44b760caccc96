from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

from registries.models import DataSource
from registries.services import load_semantic_layer
from sqlagent.agent import Source
from sqlagent.models import DataScope, VerifiedQuery
from sqlagent.verified.checks import VerifiedSqlError, check_runs, parse_verified
from sqlagent.verified.store import embed_missing, recheck_source


@admin.register(DataScope)
class DataScopeAdmin(admin.ModelAdmin):
    list_display = ["name", "sees_nothing"]
    search_fields = ["name"]
    filter_horizontal = ["users", "groups"]


class VerifiedQueryForm(forms.ModelForm):
    class Meta:
        model = VerifiedQuery
        fields = ["data_source", "question", "sql", "confirmed_by", "confirmed_at", "notes", "tags"]

    def clean_question(self) -> str:
        return " ".join(self.cleaned_data["question"].split())

    def clean(self) -> dict[str, Any]:
        """The SQL must be one read of known tables and columns that the database runs."""
        data = super().clean() or {}
        source, sql = data.get("data_source"), data.get("sql")
        if source is None or not sql:
            return data
        try:
            target = Source.named(source.name)
            statement = parse_verified(sql, target.layer)
            check_runs(statement, target.layer, url=target.url, agent=target.agent_login)
        except (VerifiedSqlError, ImproperlyConfigured) as error:
            self.add_error("sql", str(error))
        return data


@admin.register(VerifiedQuery)
class VerifiedQueryAdmin(admin.ModelAdmin):
    form = VerifiedQueryForm
    list_display = ["id", "question", "data_source", "confirmed_by", "confirmed_at", "stale"]
    list_filter = ["data_source", "stale"]
    search_fields = ["question", "sql", "notes"]
    readonly_fields = ["stale", "stale_reason", "checked_version", "updated_at"]
    autocomplete_fields = ["confirmed_by"]

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {"confirmed_by": request.user.pk, **super().get_changeform_initial_data(request)}

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        """Listed as they stand on each data source's registry now (stale or not)."""
        for name in DataSource.objects.filter(verified_queries__isnull=False).distinct():
            recheck_source(load_semantic_layer(name.name))
        return super().changelist_view(request, extra_context)

    def save_model(self, request: HttpRequest, obj: VerifiedQuery, form: Any, change: bool) -> None:
        obj.stale, obj.stale_reason = False, ""
        obj.checked_version = load_semantic_layer(obj.data_source.name).version
        if "question" in form.changed_data:
            obj.embedding = []
        super().save_model(request, obj, form, change)
        embed_missing([obj])
