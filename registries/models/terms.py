"""Domain terms: the business words people use, and where each lives in the schema."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from ..validation import SchemaIndex, check_references
from .base import SuggestableRow


class Rank(models.TextChoices):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    FALLBACK = "fallback"


RANK_ORDER = {Rank.PRIMARY: 0, Rank.SECONDARY: 1, Rank.FALLBACK: 2}


class MatchType(models.TextChoices):
    TEXT_SEARCH = "text_search", "text search"
    SEMANTIC = "semantic"
    BOOLEAN = "boolean"
    STRUCTURAL = "structural"
    EXACT = "exact"


class Term(SuggestableRow):
    name = models.CharField(max_length=120, help_text="The word as people say it: crane, overtime.")
    synonyms = models.JSONField(default=list, blank=True)
    entity = models.CharField(max_length=120, blank=True, help_text="What kind of thing it is.")
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["data_source", "name"]
        constraints = [
            models.UniqueConstraint(fields=["data_source", "name"], name="term_unique_name")
        ]

    def __str__(self) -> str:
        return self.name


class TermResolution(models.Model):
    """One way to find a term in the schema; primary first, then secondary, then fallback."""

    term = models.ForeignKey(Term, on_delete=models.CASCADE, related_name="resolutions")
    rank = models.CharField(max_length=10, choices=Rank.choices, default=Rank.PRIMARY)
    position = models.PositiveSmallIntegerField(default=0, editable=False)
    tables = models.JSONField(default=list)
    columns = models.JSONField(default=list, blank=True, help_text="table.column references.")
    match_type = models.CharField(
        max_length=12, choices=MatchType.choices, default=MatchType.STRUCTURAL
    )
    value = models.JSONField(null=True, blank=True)
    confidence = models.FloatField(
        default=1.0, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)]
    )

    class Meta:
        ordering = ["term", "position"]
        constraints = [
            models.UniqueConstraint(fields=["term", "rank"], name="term_resolution_unique_rank")
        ]

    def __str__(self) -> str:
        return f"{self.term.name}: {self.rank}"

    def save(self, *args: object, **kwargs: object) -> None:
        self.position = RANK_ORDER[Rank(self.rank)]
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def clean(self) -> None:
        term = getattr(self, "term", None)
        check_references(
            term.data_source_id if term is not None else None,
            lambda index: resolution_problems(
                index, self.tables, self.columns, self.match_type, self.value
            ),
        )


def resolution_problems(
    index: SchemaIndex, tables: list[str], columns: list[str], match_type: str, value: object
) -> dict[str, list[str]]:
    """Problems per field of a resolution: names that do not exist, or a filter missing parts."""
    problems: dict[str, list[str]] = {}
    if not tables:
        problems.setdefault("tables", []).append("Name at least one table.")
    for table in tables:
        if problem := index.table_problem(table):
            problems.setdefault("tables", []).append(problem)
    for reference in columns:
        if problem := index.qualified_column_problem(reference):
            problems.setdefault("columns", []).append(problem)
        elif reference.partition(".")[0] not in tables:
            problems.setdefault("columns", []).append(
                f"'{reference}' is not in one of this resolution's tables ({', '.join(tables)})."
            )
    needs_columns = {MatchType.TEXT_SEARCH, MatchType.SEMANTIC, MatchType.BOOLEAN, MatchType.EXACT}
    if match_type in needs_columns and not columns:
        problems.setdefault("columns", []).append(f"A {match_type} match needs a column.")
    if match_type in {MatchType.BOOLEAN, MatchType.EXACT} and value is None:
        problems.setdefault("value", []).append(f"A {match_type} match needs a value.")
    if match_type == MatchType.BOOLEAN and value is not None and not isinstance(value, bool):
        problems.setdefault("value", []).append("A boolean match takes true or false.")
    return problems
