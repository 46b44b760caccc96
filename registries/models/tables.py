"""What people say about tables: display columns, semantic roles, secure views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.db import models

from ..semantic_layer import NEVER_BRIDGE_ROLES
from ..validation import Problems, SchemaIndex, check_references
from .base import RegistryRow, SuggestableRow

# What a person (in the admin) or a registry file says about a table, beside its name.
DISPLAY_FIELDS = ("display_columns", "primary_label", "suggested")
METADATA_FIELDS = (
    "role",
    "category",
    "description",
    "exclude_as_bridge_for",
    "note",
    "hidden",
    "suggested",
)
SECURE_VIEW_FIELDS = ("view", "sensitive_columns")


class TableRole(models.TextChoices):
    """The semantic layer's ROLES (a test keeps the two lists equal)."""

    INSTANCE = "instance"
    TEMPLATE = "template"
    BRIDGE = "bridge"
    CONTENT_CHILD = "content_child", "content child"
    SATELLITE = "satellite"
    ASSIGNMENT = "assignment"
    CONFIGURATION = "configuration"
    REFERENCE = "reference"


# The names a check reads, which a model row and an imported file's record both carry.
class DisplayLike(Protocol):
    table: str
    display_columns: list[str]
    primary_label: list[str]


class MetadataLike(Protocol):
    table: str
    exclude_as_bridge_for: list[str]


class SecureViewLike(Protocol):
    table: str
    view: str
    sensitive_columns: list[str]


def _add(errors: Problems, name: str, problems: Sequence[str | None]) -> None:
    if found := [p for p in problems if p]:
        errors.setdefault(name, []).extend(found)


def display_problems(index: SchemaIndex, row: DisplayLike) -> Problems:
    """Problems per field: names that do not exist in the schema (columns only of a table
    that does)."""
    errors: Problems = {}
    _add(errors, "table", [index.table_problem(row.table)])
    if not errors:
        _add(errors, "display_columns", index.columns_problems(row.table, row.display_columns))
        _add(errors, "primary_label", index.columns_problems(row.table, row.primary_label))
    return errors


def metadata_problems(index: SchemaIndex, row: MetadataLike) -> Problems:
    errors: Problems = {}
    _add(errors, "table", [index.table_problem(row.table)])
    _add(
        errors,
        "exclude_as_bridge_for",
        [index.table_problem(t) for t in row.exclude_as_bridge_for],
    )
    return errors


def secure_view_problems(index: SchemaIndex, row: SecureViewLike) -> Problems:
    errors: Problems = {}
    _add(errors, "table", [index.table_problem(row.table)])
    _add(errors, "view", [index.table_problem(row.view)])
    if "table" not in errors:
        _add(errors, "sensitive_columns", index.columns_problems(row.table, row.sensitive_columns))
    return errors


class DisplayAttributes(SuggestableRow):
    table = models.CharField(max_length=255)
    display_columns = models.JSONField(
        default=list, help_text="Columns to select when showing rows of this table."
    )
    primary_label = models.JSONField(
        default=list, blank=True, help_text="Columns that name a row to a person."
    )

    class Meta:
        verbose_name_plural = "display attributes"
        ordering = ["data_source", "table"]
        constraints = [
            models.UniqueConstraint(fields=["data_source", "table"], name="display_unique_table")
        ]

    def __str__(self) -> str:
        return self.table

    def clean(self) -> None:
        check_references(self.data_source_id, lambda index: display_problems(index, self))


class TableMetadata(SuggestableRow):
    table = models.CharField(max_length=255)
    role = models.CharField(max_length=20, choices=TableRole.choices)
    category = models.CharField(max_length=60, blank=True)
    description = models.TextField(blank=True)
    exclude_as_bridge_for = models.JSONField(
        "never a bridge for",
        default=list,
        blank=True,
        help_text="Tables this one must never be used to connect.",
    )
    note = models.TextField(blank=True)
    hidden = models.BooleanField(
        default=False, help_text="Keep the table away from the agent (bookkeeping, staging)."
    )

    class Meta:
        verbose_name = "table metadata"
        verbose_name_plural = "table metadata"
        ordering = ["data_source", "table"]
        constraints = [
            models.UniqueConstraint(fields=["data_source", "table"], name="metadata_unique_table")
        ]

    def __str__(self) -> str:
        return self.table

    @property
    def never_bridge(self) -> bool:
        return self.role in NEVER_BRIDGE_ROLES

    def clean(self) -> None:
        check_references(self.data_source_id, lambda index: metadata_problems(index, self))


class SecureView(RegistryRow):
    """A table the agent reads only through a view that decrypts and scopes its rows."""

    table = models.CharField("logical table", max_length=255)
    view = models.CharField("secure view", max_length=255)
    sensitive_columns = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["data_source", "table"]
        constraints = [
            models.UniqueConstraint(fields=["data_source", "table"], name="secure_view_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table} -> {self.view}"

    def clean(self) -> None:
        check_references(self.data_source_id, lambda index: secure_view_problems(index, self))
