"""Every change to a registry row bumps its data source's version, so the semantic layer
that running processes cache is rebuilt at their next read (no restart)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.apps import apps
from django.db.models import Model
from django.db.models.signals import post_delete, post_save

from .models import DataSource, SchemaColumn, SchemaTable, Term, TermResolution

_batching = threading.local()


@contextmanager
def one_bump(data_source_id: int) -> Iterator[None]:
    """Bulk work (introspection, imports) bumps the version once at the end, not per row."""
    held: set[int] = getattr(_batching, "ids", set())
    _batching.ids = held | {data_source_id}
    try:
        yield
    finally:
        _batching.ids = held
        DataSource.objects.bump(data_source_id)


def _data_source_id(instance: Model) -> int | None:
    if isinstance(instance, TermResolution):
        term = Term.objects.filter(pk=instance.term_id).values_list("data_source_id", flat=True)
        return term.first()
    if isinstance(instance, SchemaColumn):
        table = SchemaTable.objects.filter(pk=instance.table_id)
        return table.values_list("data_source_id", flat=True).first()
    return getattr(instance, "data_source_id", None)


def _changed(sender: type[Model], instance: Model, **kwargs: Any) -> None:
    if kwargs.get("raw"):
        return
    source_id = _data_source_id(instance)
    if source_id is not None and source_id not in getattr(_batching, "ids", set()):
        DataSource.objects.bump(source_id)


# Every other model of the app describes a data source: its rows are the registry.
for model in apps.get_app_config("registries").get_models():
    if model is DataSource:
        continue
    post_save.connect(_changed, sender=model, dispatch_uid=f"registries-bump-{model.__name__}")
    post_delete.connect(_changed, sender=model, dispatch_uid=f"registries-unbump-{model.__name__}")
