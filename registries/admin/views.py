"""Admin pages beyond the model forms: join graph, import and export of a data source."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.admin import ModelAdmin
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse

from ..files import FILENAMES, ImportFailed, import_files
from ..files.export import dumps, export_all
from ..join_graph import ROLE_COLOURS, neighbourhood
from ..models import DataSource, SchemaTable
from .forms import ImportForm


def join_graph(admin: ModelAdmin[DataSource], request: HttpRequest, pk: int) -> HttpResponse:
    source = get_object_or_404(DataSource, pk=pk)
    tables = list(
        SchemaTable.objects.filter(data_source=source, is_view=False).values_list("name", flat=True)
    )
    table = request.GET.get("table") or (tables[0] if tables else "")
    try:
        depth = int(request.GET.get("depth", "1"))
    except ValueError:
        depth = 1
    context: dict[str, Any] = {
        **admin.admin_site.each_context(request),
        "title": f"Join graph of {table}" if table else "Join graph",
        "opts": admin.model._meta,
        "original": source,
        "source": source,
        "tables": tables,
        "table": table,
        "depth": depth,
        "known": table in tables,
        "roles": [(role, colour) for role, colour in ROLE_COLOURS.items() if role],
    }
    if table in tables:
        context["graph"] = neighbourhood(source, table, depth)
    return TemplateResponse(request, "admin/registries/join_graph.html", context)


def import_view(admin: ModelAdmin[DataSource], request: HttpRequest, pk: int) -> HttpResponse:
    source = get_object_or_404(DataSource, pk=pk)
    problems: list[Any] = []
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        files = [
            (upload.name or "upload.json", upload.read().decode("utf-8", errors="replace"))
            for upload in form.cleaned_data["upload"]
        ]
        try:
            report = import_files(
                source,
                files,
                keep_person_edits=not form.cleaned_data["overwrite_edits"],
                replace=form.cleaned_data["replace"],
            )
        except ImportFailed as failed:
            problems = failed.problems
        else:
            names = ", ".join(name for name, _ in files)
            admin.log_change(request, source, f"Imported {names}: {report.summary()}")
            messages.success(request, f"Imported {names}: {report.summary()}")
            url = reverse("admin:registries_datasource_change", args=[source.pk])
            return HttpResponseRedirect(url)
    context = {
        **admin.admin_site.each_context(request),
        "title": f"Import registry files into {source.name}",
        "opts": admin.model._meta,
        "original": source,
        "source": source,
        "form": form,
        "problems": problems,
    }
    return TemplateResponse(request, "admin/registries/import.html", context)


def export_view(
    admin: ModelAdmin[DataSource], request: HttpRequest, pk: int, name: str
) -> HttpResponse:
    source = get_object_or_404(DataSource, pk=pk)
    if name not in FILENAMES.values():
        return HttpResponse(status=404)
    response = HttpResponse(dumps(export_all(source)[name]), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{source.name}-{name}"'
    return response
