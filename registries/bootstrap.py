"""Suggestions for a database nobody has described yet, from its schema alone.

Display attributes from name-, title- and label-like columns; table roles from shape (a
table that is mostly two foreign keys is a bridge, a one-row-per-parent table of extras is
a satellite); terms from table and flag-column names with plurals. Everything is marked
`suggested` until a person confirms it, and nothing that already exists is touched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction

from .models import (
    DataSource,
    DisplayAttributes,
    Provenance,
    Rank,
    Relationship,
    SchemaTable,
    SecureView,
    TableMetadata,
    Term,
    TermResolution,
)
from .naming import human, human_plural, key, singular, words
from .signals import one_bump

MAX_DISPLAY = 5
_TIMESTAMPS = {"createdat", "updatedat", "modifiedat", "createdon", "updatedon", "deletedat"}
_SECRET = ("password", "passwd", "hash", "token", "secret", "salt")
_LABEL_WORDS = ("name", "title", "label")
_CODE_WORDS = ("number", "code", "num", "no", "reference", "sku")
_SATELLITE_WORDS = {"attachment", "attachments", "signature", "signatures", "photo", "photos"}
_SATELLITE_WORDS |= {"image", "images", "file", "files", "document", "documents"}
_CONFIG_WORDS = {"config", "configuration", "configurations", "setting", "settings"}
_CONFIG_WORDS |= {"preference", "preferences"}
_PERMISSION_WORDS = {"permission", "permissions", "rate", "rates"}
_CONTACT_WORDS = {"postal", "zip", "phone", "fax", "email", "address", "street", "line"}
_ASSIGNMENT_WORDS = {"assignment", "assignments", "member", "members", "membership"}
_ASSIGNMENT_WORDS |= {"attendee", "attendees", "participant", "participants"}
_JOINING_WORDS = {"in", "of", "to", "and", "for", "on", "at", "by", "per", "has", "with"}


@dataclass(frozen=True)
class Col:
    name: str
    data_type: str
    primary_key: bool
    unique: bool


@dataclass
class Shape:
    name: str
    columns: list[Col]
    outgoing: dict[str, str] = field(default_factory=dict)  # column -> referenced table
    referenced_by: int = 0

    @property
    def primary_key(self) -> list[str]:
        return [c.name for c in self.columns if c.primary_key]

    def payload(self) -> list[Col]:
        """Columns that carry meaning: not a plain surrogate key, not bookkeeping stamps."""
        surrogate = set(self.primary_key) if len(self.primary_key) == 1 else set()
        return [
            c
            for c in self.columns
            if (c.name not in surrogate or c.name in self.outgoing)
            and key(c.name) not in _TIMESTAMPS
        ]


@dataclass
class BootstrapReport:
    display_attributes: int = 0
    roles: int = 0
    terms: int = 0
    skipped_existing: int = 0

    def summary(self) -> str:
        return (
            f"suggested {self.display_attributes} display attributes, {self.roles} table roles, "
            f"{self.terms} terms; {self.skipped_existing} already described, left as they were"
        )


def _secret(column: Col) -> bool:
    return any(word in column.name.lower() for word in _SECRET) or column.data_type == "binary"


def _contact(column: Col) -> bool:
    """Address parts and contact details: never a label, and noise in a short listing."""
    return bool(set(words(column.name)) & _CONTACT_WORDS)


def label_columns(shape: Shape) -> list[str]:
    usable = [c for c in shape.columns if not _secret(c)]
    by_key = {key(c.name): c.name for c in usable}
    for name_key, name in by_key.items():  # firstName + lastName, customer_first_name + ...
        if name_key.endswith("firstname"):
            last = by_key.get(name_key[: -len("firstname")] + "lastname")
            if last:
                return [name, last]
    for exact in ("name", "fullname", "displayname", "title", "label"):
        if exact in by_key:
            return [by_key[exact]]
    text = [c for c in usable if c.data_type == "text" and not _contact(c)]
    stem = key(shape.name)
    named = [c for c in text if words(c.name)[-1:] and words(c.name)[-1] in _LABEL_WORDS]
    if named:  # prefer product_name in Products over a contact_name
        named.sort(key=lambda c: (not stem.startswith(words(c.name)[0]), len(c.name)))
        return [named[0].name]
    # invoiceNumber in invoice, code in anything: identifiers people quote
    coded = [
        c
        for c in usable
        if c.name not in shape.outgoing
        and not c.primary_key
        and words(c.name)[-1:]
        and words(c.name)[-1] in _CODE_WORDS
        and (len(words(c.name)) == 1 or stem.startswith(words(c.name)[0]))
    ]
    if coded:
        return [coded[0].name]
    described = [c for c in text if words(c.name)[-1:] in (["description"], ["subject"])]
    if described:
        return [described[0].name]
    return shape.primary_key[:1]


def display_columns(shape: Shape, labels: list[str]) -> list[str]:
    chosen = shape.primary_key + [c for c in labels if c not in shape.primary_key]

    def add(predicate: Callable[[Col], bool]) -> None:
        for column in shape.columns:
            if len(chosen) >= MAX_DISPLAY:
                return
            if column.name in chosen or column.name in shape.outgoing or _secret(column):
                continue
            if key(column.name) in _TIMESTAMPS or _contact(column):
                continue
            if predicate(column):
                chosen.append(column.name)

    add(lambda c: words(c.name)[-1:] in (["status"], ["type"]))
    add(lambda c: bool(words(c.name)[-1:]) and words(c.name)[-1] in _CODE_WORDS)
    add(lambda c: c.data_type in ("date", "datetime"))
    add(lambda c: c.data_type == "decimal")
    add(lambda c: c.data_type == "text")
    return chosen


def _names_both(me: str, parents: list[str], name: str = "") -> bool:
    """PlaylistTrack, employeeSkill, Product_Suppliers, Participants_in_Events: a name made
    of two parents' names (a joining word between them aside)."""
    for first in parents:
        rest = me[len(first) :] if me.startswith(first) else ""
        if rest and any(rest.rstrip("s") == other.rstrip("s") for other in parents):
            return True
    parts = [singular(w) for w in words(name) if w not in _JOINING_WORDS]
    return any(
        "".join(parts[:i]) in parents and "".join(parts[i:]) in parents
        for i in range(1, len(parts))
    )


def suggest_role(shape: Shape) -> str:
    name_words = set(words(shape.name))
    payload = shape.payload()
    fks = [c for c in payload if c.name in shape.outgoing]
    others = [c for c in payload if c.name not in shape.outgoing]
    me = key(shape.name)
    parents = sorted(
        {human(shape.outgoing[c.name]).replace(" ", "") for c in fks} - {human(shape.name)},
        key=len,
        reverse=True,
    )
    if name_words & _CONFIG_WORDS or (fks and name_words & _PERMISSION_WORDS):
        return "configuration"
    if fks and len(name_words) > 1 and name_words & _SATELLITE_WORDS:
        return "satellite"
    if len(fks) >= 2 and _names_both(me, parents, shape.name):
        return "bridge"  # before the words: Participants_in_Events joins its two parents
    if len(fks) >= 2 and name_words & _ASSIGNMENT_WORDS:
        return "assignment"
    if name_words & {"template", "templates"}:
        return "template"
    for fk in fks:
        one_per_parent = fk.unique or shape.primary_key == [fk.name]
        if one_per_parent and shape.outgoing[fk.name] != shape.name:
            return "satellite"  # one row of extras per parent row
    parent = next((p for p in parents if me.startswith(p) and me != p), None)
    if parent:
        return "content_child"
    if len(fks) >= 2 and len(others) <= 2 and all(c.data_type != "text" for c in others):
        return "bridge"
    dated = any(c.data_type in ("date", "datetime") for c in others)
    if shape.referenced_by and len(fks) <= 1 and len(others) <= 5 and not dated:
        return "reference"
    return "instance"


def _shapes(source: DataSource) -> dict[str, Shape]:
    hidden = set(SecureView.objects.filter(data_source=source).values_list("view", flat=True))
    shapes: dict[str, Shape] = {}
    tables = SchemaTable.objects.filter(data_source=source, is_view=False)
    for table in tables.prefetch_related("columns"):
        if table.name in hidden:
            continue
        shapes[table.name] = Shape(
            table.name,
            [Col(c.name, c.data_type, c.primary_key, c.unique) for c in table.columns.all()],
        )
    edges = Relationship.objects.filter(data_source=source, enabled=True, confidence__gte=0.7)
    for edge in edges:
        if edge.from_table in shapes and edge.to_table in shapes:
            shapes[edge.from_table].outgoing[edge.from_column] = edge.to_table
            if edge.to_table != edge.from_table:
                shapes[edge.to_table].referenced_by += 1
    return shapes


@transaction.atomic
def bootstrap(source: DataSource) -> BootstrapReport:
    report = BootstrapReport()
    shapes = _shapes(source)
    common = {"data_source": source, "source": Provenance.BOOTSTRAP, "suggested": True}
    with one_bump(source.pk):
        described = set(
            DisplayAttributes.objects.filter(data_source=source).values_list("table", flat=True)
        )
        roles = set(
            TableMetadata.objects.filter(data_source=source).values_list("table", flat=True)
        )
        for shape in shapes.values():
            labels = label_columns(shape)
            if shape.name in described:
                report.skipped_existing += 1
            else:
                DisplayAttributes.objects.create(
                    table=shape.name,
                    display_columns=display_columns(shape, labels),
                    primary_label=labels,
                    **common,
                )
                report.display_attributes += 1
            if shape.name in roles:
                report.skipped_existing += 1
            else:
                TableMetadata.objects.create(table=shape.name, role=suggest_role(shape), **common)
                report.roles += 1
        report.terms = _suggest_terms(source, shapes, common)
    return report


def _suggest_terms(source: DataSource, shapes: dict[str, Shape], common: dict[str, object]) -> int:
    taken = {
        n.lower() for n in Term.objects.filter(data_source=source).values_list("name", flat=True)
    }
    created = 0

    def term(name: str, synonyms: list[str], entity: str, resolution: dict[str, object]) -> None:
        nonlocal created
        if not name or name in taken:
            return
        taken.add(name)
        made = Term.objects.create(
            name=name,
            synonyms=[s for s in dict.fromkeys(synonyms) if s.lower() != name],
            entity=entity,
            **common,
        )
        TermResolution.objects.create(term=made, rank=Rank.PRIMARY, **resolution)
        created += 1

    for shape in shapes.values():
        name = human(shape.name)
        term(
            name,
            [human_plural(name), shape.name],
            shape.name,
            {"tables": [shape.name], "match_type": "structural", "confidence": 0.6},
        )
    flags: Counter[str] = Counter()
    found: list[tuple[Shape, Col, str]] = []
    for shape in shapes.values():
        for column in shape.columns:
            parts = words(column.name)
            if column.data_type == "boolean" and len(parts) > 1 and parts[0] in ("is", "has"):
                flag = " ".join(parts[1:])
                flags[flag] += 1
                found.append((shape, column, flag))
    for shape, column, flag in found:
        if flags[flag] == 1:  # a flag every table has (isActive) says nothing about one thing
            term(
                flag,
                [human_plural(flag), column.name],
                shape.name,
                {
                    "tables": [shape.name],
                    "columns": [f"{shape.name}.{column.name}"],
                    "match_type": "boolean",
                    "value": True,
                    "confidence": 0.7,
                },
            )
    return created
