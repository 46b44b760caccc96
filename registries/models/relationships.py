"""Join relationships between tables: the edges of the join graph."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from ..validation import SchemaIndex, check_references
from .base import RegistryRow


class RelationshipKind(models.TextChoices):
    FOREIGN_KEY = "foreign_key", "foreign key"
    ASSOCIATION = "association"
    INFERRED = "inferred"
    MANUAL = "manual"


class Cardinality(models.TextChoices):
    MANY_TO_ONE = "many_to_one", "N:1"
    ONE_TO_ONE = "one_to_one", "1:1"
    ONE_TO_MANY = "one_to_many", "1:N"
    MANY_TO_MANY = "many_to_many", "N:N"


class Relationship(RegistryRow):
    from_table = models.CharField(max_length=255)
    from_column = models.CharField(max_length=255)
    to_table = models.CharField(max_length=255)
    to_column = models.CharField(max_length=255)
    kind = models.CharField(
        max_length=12, choices=RelationshipKind.choices, default=RelationshipKind.MANUAL
    )
    confidence = models.FloatField(
        default=1.0, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)]
    )
    cardinality = models.CharField(
        max_length=12, choices=Cardinality.choices, default=Cardinality.MANY_TO_ONE
    )
    validated = models.BooleanField(default=False, help_text="A person or the database vouches.")
    enabled = models.BooleanField(default=True, help_text="Disabled edges are never joined on.")
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["data_source", "from_table", "from_column"]
        constraints = [
            models.UniqueConstraint(
                fields=["data_source", "from_table", "from_column", "to_table", "to_column"],
                name="relationship_unique_edge",
            )
        ]

    def __str__(self) -> str:
        return f"{self.from_table}.{self.from_column} -> {self.to_table}.{self.to_column}"

    def reference_problems(self, index: SchemaIndex | None = None) -> dict[str, list[str]]:
        index = index or SchemaIndex.load(self.data_source_id)
        errors: dict[str, list[str]] = {}
        for side in ("from", "to"):
            table, column = getattr(self, f"{side}_table"), getattr(self, f"{side}_column")
            if problem := index.table_problem(table):
                errors[f"{side}_table"] = [problem]
            elif problem := index.column_problem(table, column):
                errors[f"{side}_column"] = [problem]
        return errors

    def clean(self) -> None:
        check_references(self.data_source_id, self.reference_problems)

    def save(self, *args: Any, **kwargs: Any) -> None:
        # An edge to a column that does not exist would send the agent into broken SQL, so
        # it cannot be stored whatever path (admin, shell, import) tries to store it.
        if errors := self.reference_problems():
            raise ValidationError(errors)
        super().save(*args, **kwargs)
