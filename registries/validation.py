"""Checks that registry rows name real tables and columns, with "did you mean" help.

The messages follow the SQL agent's pre-validation style, so a data steward reads the same
wording the agent's correction step does:
"Column 'crew.isLead' does not exist in table 'crew'. Found in: employeeCrew. ..."
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError

from .models.base import DataSource
from .models.schema import SchemaColumn, SchemaTable

MAX_LISTED = 12


def _close(word: str, candidates: list[str], n: int = 3) -> list[str]:
    """Closest candidates, ignoring case (a wrong case is the most common slip)."""
    by_lower: dict[str, str] = {}
    for candidate in candidates:
        by_lower.setdefault(candidate.lower(), candidate)
    matches = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=0.6)
    return [by_lower[m] for m in matches]


def _listed(names: list[str]) -> str:
    shown = ", ".join(names[:MAX_LISTED])
    return shown + (f", ... ({len(names)} in all)" if len(names) > MAX_LISTED else "")


@dataclass
class SchemaIndex:
    """Table name -> column names of one data source's introspected schema."""

    source_name: str
    tables: dict[str, list[str]]
    views: frozenset[str] = frozenset()
    _columns: dict[str, set[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._columns = {table: set(columns) for table, columns in self.tables.items()}

    @classmethod
    def load(cls, data_source_id: int) -> SchemaIndex:
        source = DataSource.objects.get(pk=data_source_id)
        tables: dict[str, list[str]] = {}
        views = set()
        for name, is_view in SchemaTable.objects.filter(data_source_id=data_source_id).values_list(
            "name", "is_view"
        ):
            tables[name] = []
            if is_view:
                views.add(name)
        rows = SchemaColumn.objects.filter(table__data_source_id=data_source_id).order_by(
            "table__name", "position"
        )
        for table, column in rows.values_list("table__name", "name"):
            tables[table].append(column)
        return cls(source.name, tables, frozenset(views))

    @property
    def empty(self) -> bool:
        return not self.tables

    def has(self, table: str, column: str | None = None) -> bool:
        if column is None:
            return table in self._columns
        return column in self._columns.get(table, set())

    def not_introspected(self) -> str:
        return (
            f"The schema of data source '{self.source_name}' has not been introspected yet: "
            "run `manage.py introspect_schema` or the admin's Introspect action first."
        )

    def table_problem(self, table: str) -> str | None:
        if self.empty:
            return self.not_introspected()
        if table in self._columns:
            return None
        message = f"Table '{table}' does not exist in the schema of '{self.source_name}'."
        suggestions = _close(table, list(self.tables))
        if suggestions:
            message += f" Did you mean: {', '.join(suggestions)}?"
        return message

    def column_problem(self, table: str, column: str) -> str | None:
        problem = self.table_problem(table)
        if problem or column in self._columns[table]:
            return problem
        message = f"Column '{table}.{column}' does not exist in table '{table}'."
        found_in = [t for t, columns in self.tables.items() if column in columns]
        if not found_in:
            found_in = [
                t for t, cols in self.tables.items() if column.lower() in {c.lower() for c in cols}
            ]
        # A secure view repeats its table's columns; name the table, which is what to use.
        found_in = [t for t in found_in if t not in self.views] or found_in
        if found_in:
            message += f" Found in: {_listed(sorted(found_in))}."
        suggestions = _close(column, self.tables[table])
        if suggestions:
            message += f" Did you mean: {', '.join(f'{table}.{s}' for s in suggestions)}?"
        message += f" Available columns in {table}: {_listed(self.tables[table])}."
        return message

    def qualified_column_problem(self, reference: str) -> str | None:
        """For "table.column" references (resolutions name columns that way)."""
        table, dot, column = reference.partition(".")
        if not dot or not table or not column:
            return f"'{reference}' is not a table.column reference."
        return self.column_problem(table, column)

    def columns_problems(self, table: str, columns: list[str]) -> list[str]:
        problem = self.table_problem(table)
        if problem:
            return [problem]
        return [p for c in columns if (p := self.column_problem(table, c))]


Problems = dict[str, list[str]]  # field name -> what is wrong with it


def check_references(
    data_source_id: int | None, problems: Callable[[SchemaIndex], Problems]
) -> None:
    """A model's clean(): the names a row of a known data source gives must exist."""
    if data_source_id is None:
        return
    if found := problems(SchemaIndex.load(data_source_id)):
        raise ValidationError(found)
