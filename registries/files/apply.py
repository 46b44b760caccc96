"""Check parsed registry files against the schema and store them, all or nothing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from ..models import (
    DataSource,
    DisplayAttributes,
    Provenance,
    Relationship,
    SecureView,
    TableMetadata,
    Term,
    TermResolution,
)
from ..models.base import MACHINE_PROVENANCE
from ..models.tables import (
    DISPLAY_FIELDS,
    METADATA_FIELDS,
    SECURE_VIEW_FIELDS,
    display_problems,
    metadata_problems,
    secure_view_problems,
)
from ..models.terms import resolution_problems
from ..signals import one_bump
from ..validation import Problems, SchemaIndex
from .formats import MANUAL, ImportFailed, Problem
from .parse import Parsed, SchemaTableRecord, TermRecord, parse_files


@dataclass
class ImportReport:
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    unchanged: Counter[str] = field(default_factory=Counter)
    removed: Counter[str] = field(default_factory=Counter)
    kept_person_edits: list[str] = field(default_factory=list)

    def summary(self) -> str:
        def show(counter: Counter[str]) -> str:
            return ", ".join(f"{n} {kind}" for kind, n in sorted(counter.items())) or "nothing"

        text = (
            f"created {show(self.created)}; updated {show(self.updated)}; "
            f"unchanged {show(self.unchanged)}; removed {show(self.removed)}"
        )
        if self.kept_person_edits:
            text += f"; kept {len(self.kept_person_edits)} rows a person edited"
        return text


def import_files(
    source: DataSource,
    files: list[tuple[str, str]],
    *,
    provenance: str = Provenance.IMPORT,
    keep_person_edits: bool = True,
    replace: bool = False,
    replace_from: str | None = None,
) -> ImportReport:
    """Import (name, text) files; raise ImportFailed listing every problem, changing nothing.

    keep_person_edits leaves rows a person saved in the admin as they are; replace removes
    rows of the imported kinds that the files no longer mention (with replace_from, only
    rows of that provenance: what an earlier import of the same files wrote).
    """
    problems: list[Problem] = []
    parsed = parse_files(files, problems)
    index = SchemaIndex.load(source.pk)
    _check(parsed, index, problems)
    if problems:
        raise ImportFailed(problems)
    report = ImportReport()
    with transaction.atomic(), one_bump(source.pk):
        removing = replace or replace_from is not None
        _Store(source, report, provenance, keep_person_edits, removing, replace_from).all(parsed)
    return report


def _duplicates(keys: list[tuple[Any, str]], what: str, problems: list[Problem]) -> None:
    seen: dict[Any, str] = {}
    for key, location in keys:
        if key in seen:
            problems.append(Problem(location, f"{what} already given at {seen[key]}"))
        else:
            seen[key] = location


def _check(parsed: Parsed, index: SchemaIndex, problems: list[Problem]) -> None:
    if index.empty and any(
        (parsed.terms, parsed.display, parsed.metadata, parsed.relationships, parsed.secure_views)
    ):
        problems.append(Problem("schema", index.not_introspected()))
        return
    _check_terms(parsed.terms or [], index, problems)
    for row in parsed.display or []:
        _add(problems, row.location, display_problems(index, row))
    for meta in parsed.metadata or []:
        _add(problems, meta.location, metadata_problems(index, meta))
    for view in parsed.secure_views or []:
        _add(problems, view.location, secure_view_problems(index, view))
    for edge in parsed.relationships or []:
        for side in ("from", "to"):
            table, column = getattr(edge, f"{side}_table"), getattr(edge, f"{side}_column")
            if table and column and (found := index.column_problem(table, column)):
                problems.append(Problem(f"{edge.location}.{side}_column", found))
    for table in parsed.schema_tables:
        _add(problems, table.location, _schema_table_problems(index, table))
    for what, keys in (
        ("this table is", [(d.table, d.location) for d in parsed.display or []]),
        ("this table is", [(m.table, m.location) for m in parsed.metadata or []]),
        ("this table is", [(v.table, v.location) for v in parsed.secure_views or []]),
        ("this relationship is", [(e.edge, e.location) for e in parsed.relationships or []]),
    ):
        _duplicates(keys, what, problems)


def _check_terms(terms: list[TermRecord], index: SchemaIndex, problems: list[Problem]) -> None:
    for term in terms:
        for r in term.resolutions:
            found = resolution_problems(index, r.tables, r.columns, r.match_type, r.value)
            _add(problems, r.location, found)
    _duplicates([(t.name.lower(), t.location) for t in terms], "this term is", problems)


def _schema_table_problems(index: SchemaIndex, record: SchemaTableRecord) -> Problems:
    if problem := index.table_problem(record.table):
        return {"table": [problem]}
    return {"columns": index.columns_problems(record.table, record.columns)}


def _add(problems: list[Problem], location: str, found: Problems) -> None:
    """A row's problems per field; those of its table name stand at the row itself."""
    for name, messages in found.items():
        where = location if name == "table" else f"{location}.{name}"
        problems.extend(Problem(where, message) for message in messages)


class _Store:
    def __init__(
        self,
        source: DataSource,
        report: ImportReport,
        provenance: str,
        keep: bool,
        replace: bool,
        replace_from: str | None = None,
    ) -> None:
        self.source = source
        self.report = report
        self.provenance = provenance
        self.keep = keep
        self.replace = replace
        self.replace_from = replace_from

    def all(self, parsed: Parsed) -> None:
        if parsed.terms is not None:
            self.terms(parsed)
        for model, kind, records, fields in (
            (DisplayAttributes, "display attributes", parsed.display, DISPLAY_FIELDS),
            (TableMetadata, "table metadata", parsed.metadata, METADATA_FIELDS),
            (SecureView, "secure views", parsed.secure_views, SECURE_VIEW_FIELDS),
        ):
            if records is not None:
                wanted = {r.table: {k: getattr(r, k) for k in fields} for r in records}
                self.rows(model, kind, wanted)
        if parsed.relationships is not None:
            self.relationships(parsed)

    def _removable(self, row: Any, label: str) -> bool:
        if self.replace_from is not None and row.source != self.replace_from:
            return False
        return not self._protected(row, label)

    def _protected(self, row: Any, label: str) -> bool:
        if self.keep and row.edited_by_person:
            self.report.kept_person_edits.append(label)
            return True
        return False

    def _update(self, row: Any, values: dict[str, Any], kind: str) -> None:
        if all(getattr(row, k) == v for k, v in values.items()):
            self.report.unchanged[kind] += 1
            return
        for k, v in values.items():
            setattr(row, k, v)
        row.source, row.edited_by_person = self.provenance, False
        row.save()
        self.report.updated[kind] += 1

    def rows(self, model: Any, kind: str, wanted: dict[str, dict[str, Any]]) -> None:
        existing = {r.table: r for r in model.objects.filter(data_source=self.source)}
        for table, values in wanted.items():
            row = existing.get(table)
            if row is None:
                model.objects.create(
                    data_source=self.source, table=table, source=self.provenance, **values
                )
                self.report.created[kind] += 1
            elif not self._protected(row, f"{kind} {table}"):
                self._update(row, values, kind)
        if self.replace:
            for table, row in existing.items():
                if table not in wanted and self._removable(row, f"{kind} {table}"):
                    row.delete()
                    self.report.removed[kind] += 1

    def terms(self, parsed: Parsed) -> None:
        existing = {
            t.name: t
            for t in Term.objects.filter(data_source=self.source).prefetch_related("resolutions")
        }
        wanted = {t.name for t in parsed.terms or []}
        for record in parsed.terms or []:
            values = {
                "entity": record.entity,
                "description": record.description,
                "synonyms": record.synonyms,
                "suggested": record.suggested,
            }
            resolutions = [
                {
                    "rank": r.rank,
                    "tables": r.tables,
                    "columns": r.columns,
                    "match_type": r.match_type,
                    "value": r.value,
                    "confidence": r.confidence,
                }
                for r in record.resolutions
            ]
            term = existing.get(record.name)
            if term is None:
                term = Term.objects.create(
                    data_source=self.source, name=record.name, source=self.provenance, **values
                )
                self.report.created["terms"] += 1
            elif self._protected(term, f"term {record.name}"):
                continue
            else:
                current = [
                    {
                        k: getattr(r, k)
                        for k in ("rank", "tables", "columns", "match_type", "value", "confidence")
                    }
                    for r in term.resolutions.all()
                ]
                if current == resolutions and all(getattr(term, k) == v for k, v in values.items()):
                    self.report.unchanged["terms"] += 1
                    continue
                for k, v in values.items():
                    setattr(term, k, v)
                term.source, term.edited_by_person = self.provenance, False
                term.save()
                term.resolutions.all().delete()
                self.report.updated["terms"] += 1
            for values_ in resolutions:
                TermResolution.objects.create(term=term, **values_)
        if self.replace:
            for name, term in existing.items():
                if name not in wanted and self._removable(term, f"term {name}"):
                    term.delete()
                    self.report.removed["terms"] += 1

    def relationships(self, parsed: Parsed) -> None:
        existing = {
            (r.from_table, r.from_column, r.to_table, r.to_column): r
            for r in Relationship.objects.filter(data_source=self.source)
        }
        wanted = set()
        for record in parsed.relationships or []:
            wanted.add(record.edge)
            values = {
                "kind": record.kind,
                "confidence": record.confidence,
                "cardinality": record.cardinality,
                "validated": record.validated,
                "enabled": record.enabled,
                "note": record.note,
            }
            label = "relationship {}.{} -> {}.{}".format(*record.edge)
            row = existing.get(record.edge)
            source = record.source or self.provenance
            if row is None:
                Relationship.objects.create(
                    data_source=self.source,
                    from_table=record.from_table,
                    from_column=record.from_column,
                    to_table=record.to_table,
                    to_column=record.to_column,
                    source=source,
                    **values,
                )
                self.report.created["relationships"] += 1
            elif not self._protected(row, label):
                if all(getattr(row, k) == v for k, v in values.items()) and row.source == source:
                    self.report.unchanged["relationships"] += 1
                    continue
                for k, v in values.items():
                    setattr(row, k, v)
                row.source, row.edited_by_person = source, False
                row.save()
                self.report.updated["relationships"] += 1
        if self.replace:
            only_manual = parsed.relationship_files == {MANUAL}
            for edge, row in existing.items():
                if edge in wanted or (only_manual and row.source in MACHINE_PROVENANCE):
                    continue
                if self._removable(row, "relationship {}.{} -> {}.{}".format(*edge)):
                    row.delete()
                    self.report.removed["relationships"] += 1
