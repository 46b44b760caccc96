"""Admin for workflows and route examples."""

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.forms.fields import InvalidJSONInput
from django.http import HttpRequest

from chat.models import RouteExample, Workflow
from chat.orchestrator.workflow import validate_workflow


class WorkflowDefinitionField(forms.JSONField):
    """JSON in a textarea, indented so that a person can edit it."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, InvalidJSONInput):
            return value  # text that did not parse is shown back as typed
        return json.dumps(value, indent=2, ensure_ascii=False)


class WorkflowForm(forms.ModelForm):
    definition = WorkflowDefinitionField(
        widget=forms.Textarea(attrs={"rows": 40, "cols": 110, "spellcheck": "false"}),
        help_text="The workflow graph; see docs/orchestrator.md, “Workflows”. "
        "It is validated on save and every problem is listed.",
    )

    class Meta:
        model = Workflow
        fields = ["slug", "name", "description", "enabled", "definition"]

    def clean_definition(self) -> Any:
        definition = self.cleaned_data["definition"]
        problems = validate_workflow(definition)
        if problems:
            raise forms.ValidationError([forms.ValidationError(p) for p in problems])
        return definition


@admin.register(Workflow)
class WorkflowAdmin(admin.ModelAdmin):
    form = WorkflowForm
    list_display = ["slug", "name", "enabled", "edited", "source_file", "updated_at"]
    list_filter = ["enabled", "edited"]
    search_fields = ["slug", "name", "description"]
    readonly_fields = ["source_file", "edited", "updated_at"]

    def save_model(self, request: HttpRequest, obj: Workflow, form: Any, change: bool) -> None:
        # A saved edit is the admin's version from now on: load_workflows keeps it.
        obj.edited = True
        super().save_model(request, obj, form, change)


@admin.register(RouteExample)
class RouteExampleAdmin(admin.ModelAdmin):
    list_display = ["question", "route", "enabled", "updated_at"]
    list_filter = ["route", "enabled"]
    list_editable = ["enabled"]
    search_fields = ["question"]
    list_per_page = 100
