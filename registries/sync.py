"""Store an introspected schema and its relationships, keeping what people edited.

Schema tables and columns are facts and follow the database. Relationships found by
introspection or inferred from names are created and refreshed, and dropped when they no
longer hold, except rows a person edited: those are never touched by a re-run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from .inclusion import check_inclusion
from .inference import InferredRelationship, infer_relationships
from .introspection import IntrospectedSchema, read_schema
from .models import (
    DataSource,
    Provenance,
    Relationship,
    RelationshipKind,
    SchemaColumn,
    SchemaTable,
)
from .models.base import MACHINE_PROVENANCE
from .shared_columns import shared_column_edges
from .signals import one_bump

COLUMN_FIELDS = ("position", "data_type", "db_type", "nullable", "unique", "primary_key")
EDGE_FIELDS = ("kind", "confidence", "cardinality", "validated", "source")


@dataclass
class IntrospectionReport:
    data_source: str
    tables: int = 0
    views: int = 0
    columns: int = 0
    foreign_keys: int = 0
    inferred: int = 0
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept_person_edits: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.data_source}: {self.tables} tables, {self.views} views, {self.columns} "
            f"columns, {self.foreign_keys} foreign keys, {self.inferred} inferred relationships; "
            f"{len(self.created)} rows created, {len(self.updated)} updated, "
            f"{len(self.removed)} removed, {len(self.kept_person_edits)} person edits kept"
        )


def introspect(source: DataSource, *, infer: bool = True) -> IntrospectionReport:
    """Read the data source's database and bring its registry rows up to date."""
    url = source.resolved_url()
    schema = read_schema(url)
    return store(source, schema, infer=infer, url=url)


@transaction.atomic
def store(
    source: DataSource, schema: IntrospectedSchema, *, infer: bool = True, url: str | None = None
) -> IntrospectionReport:
    """`url`: the database to check inferred relationships against (none: names only)."""
    report = IntrospectionReport(source.name)
    inferred = infer_relationships(schema) if infer else []
    if url is not None and infer:
        inferred = check_inclusion(url, inferred)
        inferred += shared_column_edges(url, schema, inferred)
    with one_bump(source.pk):
        _store_schema(source, schema, report)
        _store_relationships(source, schema, report, inferred)
        source.introspected_at = timezone.now()
        source.save(update_fields=["introspected_at"])
    return report


def _store_schema(
    source: DataSource, schema: IntrospectedSchema, report: IntrospectionReport
) -> None:
    now = timezone.now()
    existing = {t.name: t for t in SchemaTable.objects.filter(data_source=source)}
    wanted = {t.name for t in schema.tables}
    stale = [name for name in existing if name not in wanted]
    SchemaTable.objects.filter(data_source=source, name__in=stale).delete()
    report.removed += [f"table {name}" for name in stale]
    for info in schema.tables:
        row = existing.get(info.name)
        if row is None:
            row = SchemaTable(data_source=source, name=info.name)
            report.created.append(f"table {info.name}")
        row.is_view, row.row_estimate, row.comment = info.is_view, info.row_estimate, info.comment
        row.introspected_at = now
        row.save()
        columns = {c.name: c for c in row.columns.all()}
        keep = set()
        changed, new = [], []
        for position, column in enumerate(info.columns):
            keep.add(column.name)
            values = {
                "position": position,
                "data_type": column.data_type,
                "db_type": column.db_type,
                "nullable": column.nullable,
                "unique": column.unique,
                "primary_key": column.primary_key,
            }
            current = columns.get(column.name)
            if current is None:
                new.append(SchemaColumn(table=row, name=column.name, **values))
            elif any(getattr(current, k) != v for k, v in values.items()):
                for k, v in values.items():
                    setattr(current, k, v)
                changed.append(current)
        SchemaColumn.objects.bulk_create(new)
        SchemaColumn.objects.bulk_update(changed, COLUMN_FIELDS)
        gone = [name for name in columns if name not in keep]
        row.columns.filter(name__in=gone).delete()
        report.removed += [f"column {info.name}.{name}" for name in gone]
        report.columns += len(info.columns)
        report.views += info.is_view
        report.tables += not info.is_view


def _store_relationships(
    source: DataSource,
    schema: IntrospectedSchema,
    report: IntrospectionReport,
    inferred: list[InferredRelationship],
) -> None:
    unique = {(t.name, c.name) for t in schema.tables for c in t.columns if c.unique}
    wanted: dict[tuple[str, str, str, str], dict[str, object]] = {}
    for fk in schema.foreign_keys:
        single = (fk.from_table, fk.from_column) in unique
        wanted[(fk.from_table, fk.from_column, fk.to_table, fk.to_column)] = {
            "kind": RelationshipKind.FOREIGN_KEY,
            "confidence": 1.0,
            "cardinality": "one_to_one" if single else "many_to_one",
            "validated": True,  # the database enforces it
            "source": Provenance.INTROSPECTION,
        }
    report.foreign_keys = len(wanted)
    if inferred:
        for edge in inferred:
            wanted.setdefault(
                (edge.from_table, edge.from_column, edge.to_table, edge.to_column),
                {
                    "kind": RelationshipKind.INFERRED,
                    "confidence": edge.confidence,
                    "cardinality": edge.cardinality,
                    "validated": False,
                    "source": Provenance.INFERENCE,
                    "note": edge.reason,
                },
            )
        report.inferred = len(wanted) - report.foreign_keys
    existing = {
        (r.from_table, r.from_column, r.to_table, r.to_column): r
        for r in Relationship.objects.filter(data_source=source)
    }
    for edge_key, row in existing.items():
        label = "relationship {}.{} -> {}.{}".format(*edge_key)
        values = wanted.get(edge_key)
        if row.edited_by_person:
            if values is not None:
                report.kept_person_edits.append(label)
            continue
        if values is None:
            if row.source in MACHINE_PROVENANCE:
                row.delete()
                report.removed.append(label)
            continue
        if row.source not in MACHINE_PROVENANCE:
            continue  # an imported or demo edge was written on purpose; it stays as written
        if any(getattr(row, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(row, k, v)
            row.save()
            report.updated.append(label)
    new = [
        Relationship(
            data_source=source,
            from_table=k[0],
            from_column=k[1],
            to_table=k[2],
            to_column=k[3],
            **values,
        )
        for k, values in wanted.items()
        if k not in existing
    ]
    Relationship.objects.bulk_create(new)
    report.created += [
        "relationship {}.{} -> {}.{}".format(*k) for k in wanted if k not in existing
    ]
