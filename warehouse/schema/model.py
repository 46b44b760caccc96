"""The vocabulary the warehouse schema is written in: engine-neutral tables and columns.

Every table gets an `id` primary key first and, unless told otherwise, `createdAt` and
`updatedAt` last. Foreign keys always point at `id`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Role(StrEnum):
    """What a table is for; the join planner uses it to tell real bridges from traps."""

    INSTANCE = "instance"  # a thing that happened or exists: workOrder, inspection, workTime
    TEMPLATE = "template"  # the structure instances are made from: inspectionTemplate
    BRIDGE = "bridge"  # a many-to-many junction that is meant to be joined through
    CONTENT_CHILD = "content_child"  # rows inside a parent: inspectionQuestionAnswer
    SATELLITE = "satellite"  # side data (signatures, attachments): never a bridge
    ASSIGNMENT = "assignment"  # membership (employeeCrew): never a bridge
    CONFIGURATION = "configuration"  # settings/permissions (employeeRoleWorkTimeType)
    REFERENCE = "reference"  # small lookup lists: workTimeType, assetType


class Kind(StrEnum):
    INT = "int"
    STRING = "string"
    TEXT = "text"
    BOOL = "bool"
    DATE = "date"
    TIMESTAMP = "timestamp"
    DECIMAL = "decimal"


@dataclass(frozen=True)
class Column:
    name: str
    kind: Kind
    length: int = 0  # STRING only
    scale: tuple[int, int] = (12, 2)  # DECIMAL only: precision, scale
    nullable: bool = False
    references: str | None = None  # target table; the target column is always `id`
    pii: bool = False  # stored encrypted, readable only through the secure view
    unique: bool = False


@dataclass(frozen=True)
class Table:
    name: str
    role: Role
    columns: tuple[Column, ...]
    doc: str
    # Ownership link for row-level scope when a table has several customer-owned parents
    # (see security.py); by default the first foreign key to a scoped table.
    scope_via: str | None = None
    column_index: dict[str, Column] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "column_index", {c.name: c for c in self.columns})

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    @property
    def foreign_keys(self) -> tuple[Column, ...]:
        return tuple(c for c in self.columns if c.references)

    @property
    def pii_columns(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns if c.pii)

    def column(self, name: str) -> Column:
        return self.column_index[name]


def table(
    name: str, role: Role, doc: str, *columns: Column, timestamps: bool = True, scope_via: str = ""
) -> Table:
    cols = [Column("id", Kind.INT), *columns]
    if timestamps:
        cols += [Column("createdAt", Kind.TIMESTAMP), Column("updatedAt", Kind.TIMESTAMP)]
    return Table(name, role, tuple(cols), doc, scope_via or None)


def attachment(name: str, doc: str, owner: Column, *columns: Column) -> Table:
    """A file attached to the owner row: its name and content type, then `columns`."""
    file = (string("fileName", 160), string("contentType", 60))
    return table(name, Role.SATELLITE, doc, owner, *file, *columns)


# Column helpers: one short call per column keeps the table declarations readable.


def ref(name: str, target: str, *, null: bool = False) -> Column:
    return Column(name, Kind.INT, nullable=null, references=target)


def string(
    name: str, length: int = 100, *, null: bool = False, pii: bool = False, unique: bool = False
) -> Column:
    return Column(name, Kind.STRING, length=length, nullable=null, pii=pii, unique=unique)


def text(name: str, *, null: bool = True, pii: bool = False) -> Column:
    return Column(name, Kind.TEXT, nullable=null, pii=pii)


def flag(name: str) -> Column:
    return Column(name, Kind.BOOL)


def integer(name: str, *, null: bool = False) -> Column:
    return Column(name, Kind.INT, nullable=null)


def decimal(name: str, precision: int = 12, scale: int = 2, *, null: bool = False) -> Column:
    return Column(name, Kind.DECIMAL, scale=(precision, scale), nullable=null)


def day(name: str, *, null: bool = False, pii: bool = False) -> Column:
    return Column(name, Kind.DATE, nullable=null, pii=pii)


def moment(name: str, *, null: bool = False) -> Column:
    return Column(name, Kind.TIMESTAMP, nullable=null)
