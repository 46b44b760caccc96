"""Read registry files into plain records, noting every problem with where it is.

Nothing here touches the database; `apply` checks the records against the schema and
stores them only when no file has any problem.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..models import MatchType, Provenance, Rank, RelationshipKind, TableRole
from ..models.tables import DISPLAY_FIELDS, METADATA_FIELDS, SECURE_VIEW_FIELDS
from .formats import (
    CARDINALITY_FROM_FILE,
    DISPLAY,
    DOMAIN,
    MANUAL,
    MERGED,
    SECURE_VIEWS,
    VERSION,
    Problem,
    detect_kind,
)

_SCALARS = (str, int, float, bool)


@dataclass
class ResolutionRecord:
    location: str
    rank: str
    tables: list[str]
    columns: list[str]
    match_type: str
    value: Any
    confidence: float


@dataclass
class TermRecord:
    location: str
    name: str
    entity: str
    description: str
    synonyms: list[str]
    suggested: bool
    resolutions: list[ResolutionRecord]


@dataclass
class DisplayRecord:
    location: str
    table: str
    display_columns: list[str]
    primary_label: list[str]
    suggested: bool


@dataclass
class MetadataRecord:
    location: str
    table: str
    role: str
    category: str
    description: str
    exclude_as_bridge_for: list[str]
    note: str
    hidden: bool
    suggested: bool


@dataclass
class RelationshipRecord:
    location: str
    from_table: str
    from_column: str
    to_table: str
    to_column: str
    kind: str
    confidence: float
    cardinality: str
    source: str | None
    validated: bool
    enabled: bool
    note: str

    @property
    def edge(self) -> tuple[str, str, str, str]:
        return (self.from_table, self.from_column, self.to_table, self.to_column)


@dataclass
class SecureViewRecord:
    location: str
    table: str
    view: str
    sensitive_columns: list[str]


@dataclass
class SchemaTableRecord:
    location: str
    table: str
    columns: list[str]


@dataclass
class Parsed:
    """Everything the files say, by kind; None for a kind no file carried."""

    terms: list[TermRecord] | None = None
    display: list[DisplayRecord] | None = None
    metadata: list[MetadataRecord] | None = None
    relationships: list[RelationshipRecord] | None = None
    relationship_files: set[str] = field(default_factory=set)  # manual and/or merged
    secure_views: list[SecureViewRecord] | None = None
    schema_tables: list[SchemaTableRecord] = field(default_factory=list)


class _Reader:
    """Type checks that record a problem and return a usable default instead of raising."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        self.file = file
        self.problems = problems

    def where(self, path: str) -> str:
        return f"{self.file}: {path}" if path else self.file

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.where(path), message))

    def mapping(self, value: Any, path: str) -> dict[str, Any]:
        if isinstance(value, dict):
            return value
        self.problem(path, f"expected an object, found {json.dumps(value)[:60]}")
        return {}

    def allowed(self, entry: dict[str, Any], keys: set[str], path: str) -> None:
        for unknown in sorted(set(entry) - keys):
            self.problem(
                f"{path}.{unknown}", f"unknown field (expected one of {', '.join(sorted(keys))})"
            )

    def text(self, entry: dict[str, Any], key: str, path: str, *, required: bool = False) -> str:
        if key not in entry:
            if required:
                self.problem(path, f"missing required field '{key}'")
            return ""
        value = entry[key]
        if not isinstance(value, str) or (required and not value.strip()):
            self.problem(
                f"{path}.{key}", "expected a non-empty string" if required else "expected a string"
            )
            return ""
        return value

    def texts(self, entry: dict[str, Any], key: str, path: str) -> list[str]:
        value = entry.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.problem(f"{path}.{key}", "expected a list of names")
            return []
        return list(value)

    def flag(self, entry: dict[str, Any], key: str, path: str, default: bool) -> bool:
        value = entry.get(key, default)
        if not isinstance(value, bool):
            self.problem(f"{path}.{key}", "expected true or false")
            return default
        return value

    def confidence(self, entry: dict[str, Any], path: str, default: float) -> float:
        value = entry.get("confidence", default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            self.problem(f"{path}.confidence", "expected a number from 0 to 1")
            return default
        return float(value)

    def choice(
        self, entry: dict[str, Any], key: str, path: str, choices: list[str], default: str
    ) -> str:
        value = entry.get(key, default)
        if value not in choices:
            self.problem(f"{path}.{key}", f"{json.dumps(value)} is not one of {', '.join(choices)}")
            return default
        return str(value)


def parse_files(files: list[tuple[str, str]], problems: list[Problem]) -> Parsed:
    """files: (name, text) pairs. Problems are appended; the result holds what could be read."""
    parsed = Parsed()
    for name, text in files:
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            problems.append(
                Problem(
                    f"{name}: line {error.lineno}, column {error.colno}",
                    f"not valid JSON: {error.msg}",
                )
            )
            continue
        reader = _Reader(name, problems)
        if not isinstance(document, dict):
            reader.problem("", "expected a JSON object at the top")
            continue
        kind = detect_kind(document)
        if kind is None:
            reader.problem(
                "",
                "cannot tell which registry this is: it has no terms, tables, relationships, "
                "table_metadata or secure_views",
            )
            continue
        if document.get("version") != VERSION:
            reader.problem(
                "version",
                f"expected version {VERSION}, found {json.dumps(document.get('version'))}",
            )
        if kind == DOMAIN:
            reader.allowed(document, {"version", "terms", "description"}, "")
            parsed.terms = (parsed.terms or []) + _terms(reader, document)
        elif kind == DISPLAY:
            reader.allowed(document, {"version", "tables", "description"}, "")
            parsed.display = (parsed.display or []) + _display(reader, document)
        elif kind == SECURE_VIEWS:
            reader.allowed(document, {"version", "secure_views", "description"}, "")
            parsed.secure_views = (parsed.secure_views or []) + _secure_views(reader, document)
        else:
            keys = {"version", "relationships", "description"}
            keys |= {"table_metadata"} if kind == MANUAL else {"tables"}
            reader.allowed(document, keys, "")
            parsed.relationship_files.add(kind)
            parsed.relationships = (parsed.relationships or []) + _relationships(reader, document)
            if kind == MANUAL and "table_metadata" in document:
                parsed.metadata = (parsed.metadata or []) + _metadata(reader, document)
            if kind == MERGED:
                parsed.schema_tables += _schema_tables(reader, document)
    return parsed


def _entries(
    reader: _Reader, document: dict[str, Any], key: str
) -> list[tuple[str, str, dict[str, Any]]]:
    section = reader.mapping(document.get(key), key)
    out = []
    for name, entry in section.items():
        path = f"{key}.{name}"
        if not name.strip():
            reader.problem(path, "empty name")
            continue
        out.append((name, path, reader.mapping(entry, path)))
    return out


def _checked_entries(
    reader: _Reader, document: dict[str, Any], key: str, keys: set[str]
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The entries of a section, each checked for unknown fields just before it is read."""
    for name, path, entry in _entries(reader, document, key):
        reader.allowed(entry, keys, path)
        yield name, path, entry


def _terms(reader: _Reader, document: dict[str, Any]) -> list[TermRecord]:
    records = []
    keys = {"entity", "description", "synonyms", "suggested", "resolution"}
    for name, path, entry in _checked_entries(reader, document, "terms", keys):
        resolution = reader.mapping(entry.get("resolution", {}), f"{path}.resolution")
        if not resolution:
            reader.problem(f"{path}.resolution", "a term needs at least a primary resolution")
        reader.allowed(resolution, {r.value for r in Rank}, f"{path}.resolution")
        resolutions = [
            _resolution(
                reader,
                rank,
                reader.mapping(resolution[rank], f"{path}.resolution.{rank}"),
                f"{path}.resolution.{rank}",
            )
            for rank in (r.value for r in Rank)
            if rank in resolution
        ]
        records.append(
            TermRecord(
                location=reader.where(path),
                name=name,
                entity=reader.text(entry, "entity", path),
                description=reader.text(entry, "description", path),
                synonyms=reader.texts(entry, "synonyms", path),
                suggested=reader.flag(entry, "suggested", path, False),
                resolutions=resolutions,
            )
        )
    return records


def _resolution(reader: _Reader, rank: str, entry: dict[str, Any], path: str) -> ResolutionRecord:
    keys = {"table", "tables", "column", "columns", "match_type", "value", "confidence"}
    reader.allowed(entry, keys, path)
    tables = (
        [reader.text(entry, "table", path)]
        if "table" in entry
        else reader.texts(entry, "tables", path)
    )
    tables = [t for t in tables if t]
    if not tables:
        reader.problem(path, "name the table ('table') or tables ('tables') this resolves to")
    columns = (
        [reader.text(entry, "column", path)]
        if "column" in entry
        else reader.texts(entry, "columns", path)
    )
    qualified = []
    for index, column in enumerate(c for c in columns if c):
        if "." in column:
            qualified.append(column)
        elif len(tables) == 1:
            qualified.append(f"{tables[0]}.{column}")
        else:
            reader.problem(
                f"{path}.columns[{index}]",
                f"'{column}' needs its table (table.column) when a resolution names several tables",
            )
    value = entry.get("value")
    if value is not None and not isinstance(value, _SCALARS):
        reader.problem(f"{path}.value", "expected a string, number or true/false")
        value = None
    return ResolutionRecord(
        location=reader.where(path),
        rank=rank,
        tables=tables,
        columns=qualified,
        match_type=reader.choice(
            entry, "match_type", path, [m.value for m in MatchType], "structural"
        ),
        value=value,
        confidence=reader.confidence(entry, path, 1.0),
    )


def _display(reader: _Reader, document: dict[str, Any]) -> list[DisplayRecord]:
    return [
        DisplayRecord(
            location=reader.where(path),
            table=table,
            display_columns=reader.texts(entry, "display_columns", path),
            primary_label=reader.texts(entry, "primary_label", path),
            suggested=reader.flag(entry, "suggested", path, False),
        )
        for table, path, entry in _checked_entries(reader, document, "tables", set(DISPLAY_FIELDS))
    ]


def _metadata(reader: _Reader, document: dict[str, Any]) -> list[MetadataRecord]:
    records = []
    roles = [r.value for r in TableRole]
    keys = set(METADATA_FIELDS)
    for table, path, entry in _checked_entries(reader, document, "table_metadata", keys):
        if "role" not in entry:
            reader.problem(path, "missing required field 'role'")
        records.append(
            MetadataRecord(
                location=reader.where(path),
                table=table,
                role=reader.choice(entry, "role", path, roles, "instance"),
                category=reader.text(entry, "category", path),
                description=reader.text(entry, "description", path),
                exclude_as_bridge_for=reader.texts(entry, "exclude_as_bridge_for", path),
                note=reader.text(entry, "note", path),
                hidden=reader.flag(entry, "hidden", path, False),
                suggested=reader.flag(entry, "suggested", path, False),
            )
        )
    return records


def _relationships(reader: _Reader, document: dict[str, Any]) -> list[RelationshipRecord]:
    section = document.get("relationships", [])
    if not isinstance(section, list):
        reader.problem("relationships", "expected a list")
        return []
    records = []
    keys = {"from_table", "from_column", "to_table", "to_column", "type", "confidence"}
    keys |= {"cardinality", "source", "validated", "enabled", "note"}
    for index, raw in enumerate(section):
        path = f"relationships[{index}]"
        entry = reader.mapping(raw, path)
        reader.allowed(entry, keys, path)
        source = entry.get("source")
        if source is not None and source not in Provenance.values:
            reader.problem(
                f"{path}.source",
                f"{json.dumps(source)} is not one of {', '.join(Provenance.values)}",
            )
            source = None
        records.append(
            RelationshipRecord(
                location=reader.where(path),
                from_table=reader.text(entry, "from_table", path, required=True),
                from_column=reader.text(entry, "from_column", path, required=True),
                to_table=reader.text(entry, "to_table", path, required=True),
                to_column=reader.text(entry, "to_column", path, required=True),
                kind=reader.choice(
                    entry, "type", path, [k.value for k in RelationshipKind], "manual"
                ),
                confidence=reader.confidence(entry, path, 1.0),
                cardinality=CARDINALITY_FROM_FILE.get(
                    reader.choice(entry, "cardinality", path, list(CARDINALITY_FROM_FILE), "N:1"),
                    "many_to_one",
                ),
                source=source,
                validated=reader.flag(entry, "validated", path, False),
                enabled=reader.flag(entry, "enabled", path, True),
                note=reader.text(entry, "note", path),
            )
        )
    return records


def _secure_views(reader: _Reader, document: dict[str, Any]) -> list[SecureViewRecord]:
    keys = set(SECURE_VIEW_FIELDS)
    return [
        SecureViewRecord(
            location=reader.where(path),
            table=table,
            view=reader.text(entry, "view", path, required=True),
            sensitive_columns=reader.texts(entry, "sensitive_columns", path),
        )
        for table, path, entry in _checked_entries(reader, document, "secure_views", keys)
    ]


def _schema_tables(reader: _Reader, document: dict[str, Any]) -> list[SchemaTableRecord]:
    keys = {"columns", "unique_columns"}
    return [
        SchemaTableRecord(reader.where(path), table, reader.texts(entry, "columns", path))
        for table, path, entry in _checked_entries(reader, document, "tables", keys)
    ]
