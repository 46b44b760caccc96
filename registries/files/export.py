"""Write the registries of a data source in the seed's JSON formats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..models import DataSource, Relationship, TermResolution
from ..models.base import MACHINE_PROVENANCE
from .formats import (
    CARDINALITY_TO_FILE,
    DISPLAY,
    DOMAIN,
    FILENAMES,
    MANUAL,
    MERGED,
    SECURE_VIEWS,
    VERSION,
)


def resolution_document(resolution: TermResolution) -> dict[str, Any]:
    tables, columns = list(resolution.tables), list(resolution.columns)
    out: dict[str, Any] = {}
    if len(tables) == 1:
        out["table"] = tables[0]
        prefix = f"{tables[0]}."
        columns = [c.removeprefix(prefix) for c in columns]
    else:
        out["tables"] = tables
    if len(columns) == 1:
        out["column"] = columns[0]
    elif columns:
        out["columns"] = columns
    out["match_type"] = resolution.match_type
    if resolution.value is not None:
        out["value"] = resolution.value
    out["confidence"] = resolution.confidence
    return out


def export_domain(source: DataSource) -> dict[str, Any]:
    terms: dict[str, Any] = {}
    for term in source.term_set.prefetch_related("resolutions"):
        entry: dict[str, Any] = {"entity": term.entity}
        if term.description:
            entry["description"] = term.description
        if term.synonyms:
            entry["synonyms"] = list(term.synonyms)
        if term.suggested:
            entry["suggested"] = True
        entry["resolution"] = {r.rank: resolution_document(r) for r in term.resolutions.all()}
        terms[term.name] = entry
    return {"version": VERSION, "terms": terms}


def export_display(source: DataSource) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for row in source.displayattributes_set.all():
        entry: dict[str, Any] = {
            "display_columns": list(row.display_columns),
            "primary_label": list(row.primary_label),
        }
        if row.suggested:
            entry["suggested"] = True
        tables[row.table] = entry
    return {"version": VERSION, "description": "Display attributes for tables", "tables": tables}


def relationship_document(row: Relationship) -> dict[str, Any]:
    out: dict[str, Any] = {
        "from_table": row.from_table,
        "from_column": row.from_column,
        "to_table": row.to_table,
        "to_column": row.to_column,
        "type": row.kind,
        "confidence": row.confidence,
        "cardinality": CARDINALITY_TO_FILE[row.cardinality],
        "source": row.source,
        "validated": row.validated,
        "enabled": row.enabled,
    }
    if row.note:
        out["note"] = row.note
    return out


def export_manual(source: DataSource) -> dict[str, Any]:
    """Relationships a machine did not find (or a person changed), and the table metadata."""
    relationships = [
        relationship_document(r)
        for r in source.relationship_set.all()
        if r.source not in MACHINE_PROVENANCE or r.edited_by_person
    ]
    metadata: dict[str, Any] = {}
    for row in source.tablemetadata_set.all():
        entry: dict[str, Any] = {"role": row.role}
        for name in ("category", "description", "note"):
            if value := getattr(row, name):
                entry[name] = value
        if row.exclude_as_bridge_for:
            entry["exclude_as_bridge_for"] = list(row.exclude_as_bridge_for)
        if row.hidden:
            entry["hidden"] = True
        if row.suggested:
            entry["suggested"] = True
        metadata[row.table] = entry
    return {"version": VERSION, "relationships": relationships, "table_metadata": metadata}


def export_merged(source: DataSource) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for table in source.schema_tables.prefetch_related("columns"):
        columns = list(table.columns.all())
        tables[table.name] = {
            "columns": [c.name for c in columns],
            "unique_columns": [c.name for c in columns if c.unique or c.primary_key],
        }
    relationships = [relationship_document(r) for r in source.relationship_set.all()]
    return {"version": VERSION, "tables": tables, "relationships": relationships}


def export_secure_views(source: DataSource) -> dict[str, Any]:
    views = {
        row.table: {"view": row.view, "sensitive_columns": list(row.sensitive_columns)}
        for row in source.secureview_set.all()
    }
    return {"version": VERSION, "secure_views": views}


EXPORTERS = {
    DOMAIN: export_domain,
    DISPLAY: export_display,
    MANUAL: export_manual,
    MERGED: export_merged,
    SECURE_VIEWS: export_secure_views,
}


def export_all(source: DataSource) -> dict[str, dict[str, Any]]:
    """File name -> document, for every format."""
    return {FILENAMES[kind]: export(source) for kind, export in EXPORTERS.items()}


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_all(source: DataSource, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, document in export_all(source).items():
        path = folder / name
        path.write_text(dumps(document), encoding="utf-8")
        written.append(path)
    return written
