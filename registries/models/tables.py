"""What people say about tables: display columns, semantic roles, secure views."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from ..semantic_layer import NEVER_BRIDGE_ROLES
from ..validation import SchemaIndex
from .base import RegistryRow, SuggestableRow


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


def _add(errors: dict[str, list[str]], name: str, problems: list[str]) -> None:
    if problems:
        errors.setdefault(name, []).extend(problems)


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
        if self.data_source_id is None:
            return
        index = SchemaIndex.load(self.data_source_id)
        errors: dict[str, list[str]] = {}
        _add(errors, "table", [p] if (p := index.table_problem(self.table)) else [])
        if not errors:
            _add(
                errors, "display_columns", index.columns_problems(self.table, self.display_columns)
            )
            _add(errors, "primary_label", index.columns_problems(self.table, self.primary_label))
        if errors:
            raise ValidationError(errors)


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
        if self.data_source_id is None:
            return
        index = SchemaIndex.load(self.data_source_id)
        errors: dict[str, list[str]] = {}
        _add(errors, "table", [p] if (p := index.table_problem(self.table)) else [])
        _add(
            errors,
            "exclude_as_bridge_for",
            [p for t in self.exclude_as_bridge_for if (p := index.table_problem(t))],
        )
        if errors:
            raise ValidationError(errors)


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
        if self.data_source_id is None:
            return
        index = SchemaIndex.load(self.data_source_id)
        errors: dict[str, list[str]] = {}
        _add(errors, "table", [p] if (p := index.table_problem(self.table)) else [])
        _add(errors, "view", [p] if (p := index.table_problem(self.view)) else [])
        if "table" not in errors:
            _add(
                errors,
                "sensitive_columns",
                index.columns_problems(self.table, self.sensitive_columns),
            )
        if errors:
            raise ValidationError(errors)
