"""Build the SemanticLayer the SQL agent reads, once per data source and version.

Each call costs one small query (the data source's version). Any registry save or delete
bumps that version, so every process (web, worker) rebuilds at its next call after an edit
and no restart is needed.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import fields

from django.conf import settings

from .models import (
    DataSource,
    DisplayAttributes,
    Relationship,
    SchemaTable,
    SecureView,
    TableMetadata,
    Term,
)
from .semantic_layer import Column, Resolution, SemanticLayer, Table
from .semantic_layer import Relationship as Edge
from .semantic_layer import Term as LayerTerm

log = logging.getLogger(__name__)

_cache: dict[str, SemanticLayer] = {}
_lock = threading.Lock()


def load_semantic_layer(data_source_name: str | None = None) -> SemanticLayer:
    name = data_source_name or settings.REGISTRIES_DEFAULT_DATA_SOURCE
    version = DataSource.objects.filter(name=name).values_list("version", flat=True).first()
    if version is None:
        if name != settings.REGISTRIES_DEFAULT_DATA_SOURCE:
            raise DataSource.DoesNotExist(f"no data source named {name!r}")
        version = DataSource.objects.default().version  # a fresh installation's warehouse
    cached = _cache.get(name)
    if cached is not None and cached.version == version:
        return cached
    with _lock:
        cached = _cache.get(name)
        if cached is None or cached.version != version:
            source = DataSource.objects.get(name=name)
            cached = build_semantic_layer(source)
            _cache[name] = cached
    return cached


def _value(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value)


def build_semantic_layer(source: DataSource) -> SemanticLayer:
    """The layer as the registries say now (reads about eight queries, no cache)."""
    version = source.version
    secure = {s.table: s for s in SecureView.objects.filter(data_source=source)}
    schema = {
        t.name: t
        for t in SchemaTable.objects.filter(data_source=source).prefetch_related("columns")
    }
    metadata = {m.table: m for m in TableMetadata.objects.filter(data_source=source)}
    display = {d.table: d for d in DisplayAttributes.objects.filter(data_source=source)}
    hidden = {s.view for s in secure.values()} | {t for t, m in metadata.items() if m.hidden}
    tables: dict[str, Table] = {}
    for name, row in schema.items():
        if name in hidden:
            continue
        view = secure.get(name)
        # The view is what the agent reads: its column types are the decrypted ones.
        typed = schema.get(view.view, row) if view else row
        types = {c.name: c.data_type for c in typed.columns.all()}
        columns = {
            c.name: Column(
                name=c.name,
                data_type=types.get(c.name, c.data_type),
                nullable=c.nullable,
                unique=c.unique,
                primary_key=c.primary_key,
            )
            for c in row.columns.all()
        }
        meta = metadata.get(name)
        shown = display.get(name)
        tables[name] = Table(
            name=name,
            columns=columns,
            row_estimate=row.row_estimate,
            role=meta.role if meta else None,
            category=meta.category if meta else "",
            description=(meta.description if meta else "") or row.comment,
            never_bridge_for=frozenset(meta.exclude_as_bridge_for) if meta else frozenset(),
            display_columns=tuple(shown.display_columns) if shown else (),
            label_columns=tuple(shown.primary_label) if shown else (),
            display_confirmed=shown is not None and not shown.suggested,
            secure_view=view.view if view else None,
            sensitive_columns=frozenset(view.sensitive_columns) if view else frozenset(),
        )
    edges = []
    for edge in Relationship.objects.filter(data_source=source):
        ends = ((edge.from_table, edge.from_column), (edge.to_table, edge.to_column))
        if not all(t in tables and c in tables[t].columns for t, c in ends):
            log.warning("skipping relationship %s of %s: a column is missing", edge, source)
            continue
        # The layer's edge has the model's fields, by the same names.
        edges.append(Edge(**{f.name: getattr(edge, f.name) for f in fields(Edge)}))
    terms = tuple(
        LayerTerm(
            name=term.name,
            synonyms=tuple(term.synonyms),
            entity=term.entity,
            description=term.description,
            resolutions=tuple(
                Resolution(
                    rank=r.rank,
                    tables=tuple(r.tables),
                    columns=tuple(r.columns),
                    match_type=r.match_type,
                    value=_value(r.value),
                    confidence=r.confidence,
                )
                for r in term.resolutions.all()
            ),
            suggested=term.suggested,
        )
        for term in Term.objects.filter(data_source=source).prefetch_related("resolutions")
    )
    return SemanticLayer(
        data_source=source.name,
        dialect=source.dialect,
        version=version,
        tables=tables,
        relationships=tuple(edges),
        terms=terms,
    )
