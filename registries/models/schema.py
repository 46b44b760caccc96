"""The warehouse schema as introspected. Facts, refreshed by every introspection run."""

from django.db import models

from .base import DataSource


class DataType(models.TextChoices):
    TEXT = "text"
    INTEGER = "integer"
    DECIMAL = "decimal"
    BOOLEAN = "boolean"
    DATE = "date"
    DATETIME = "datetime"
    BINARY = "binary"
    OTHER = "other"


class SchemaTable(models.Model):
    data_source = models.ForeignKey(
        DataSource, on_delete=models.CASCADE, related_name="schema_tables"
    )
    name = models.CharField(max_length=255)
    is_view = models.BooleanField(default=False)
    row_estimate = models.BigIntegerField(default=0)
    comment = models.TextField(blank=True)
    introspected_at = models.DateTimeField()

    class Meta:
        ordering = ["data_source", "name"]
        constraints = [
            models.UniqueConstraint(fields=["data_source", "name"], name="schema_table_unique")
        ]

    def __str__(self) -> str:
        return self.name


class SchemaColumn(models.Model):
    table = models.ForeignKey(SchemaTable, on_delete=models.CASCADE, related_name="columns")
    name = models.CharField(max_length=255)
    position = models.PositiveIntegerField(default=0)
    data_type = models.CharField(max_length=10, choices=DataType.choices)
    db_type = models.CharField(max_length=100, blank=True)
    nullable = models.BooleanField(default=True)
    unique = models.BooleanField(default=False)
    primary_key = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "name"], name="schema_column_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table.name}.{self.name}"
