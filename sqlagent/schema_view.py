"""What the agent may execute against: secure views in place of the base tables they hide,
and the tables that hold no personal data. Built once per semantic-layer version."""

import difflib
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings

from registries.services import SemanticLayer


@dataclass(frozen=True)
class ExecutableSchema:
    tables: dict[str, frozenset[str]]  # executable name -> its columns
    hidden: dict[str, str]  # base table of personal data -> the secure view to use
    logical: dict[str, str] = field(default_factory=dict)  # executable name -> logical name
    # MySQL and MariaDB read column names in any case: `pilot.name` is `Pilot.Name`.
    columns_any_case: bool = False

    def has_column(self, table: str, column: str) -> bool:
        columns = self.tables[table]
        if column in columns:
            return True
        return self.columns_any_case and column.lower() in {c.lower() for c in columns}

    def tables_with_column(self, column: str) -> list[str]:
        return sorted(self.logical.get(t, t) for t, cols in self.tables.items() if column in cols)

    def column_error(self, table: str, column: str) -> str:
        """The seed's error style: what is missing, where it really is, what is there."""
        shown = self.logical.get(table, table)
        message = f"column {shown}.{column} does not exist in {shown}."
        found = [t for t in self.tables_with_column(column) if t != shown]
        if found:
            message += f" Found in: {', '.join(found[:5])}."
        columns = sorted(self.tables.get(table, frozenset()))
        close = difflib.get_close_matches(column, columns, n=3, cutoff=0.6)
        if close:
            message += f" Did you mean {', '.join(close)}?"
        if columns:
            limit = settings.SQL_MAX_COLUMNS_IN_VALIDATION
            message += f" Columns of {shown}: {', '.join(columns[:limit])}"
        return message


@lru_cache(maxsize=16)
def executable_schema(layer: SemanticLayer) -> ExecutableSchema:
    tables: dict[str, frozenset[str]] = {}
    hidden: dict[str, str] = {}
    logical: dict[str, str] = {}
    for name, table in layer.tables.items():
        columns = frozenset(table.columns)
        if table.secure_view:
            tables[table.secure_view] = columns
            hidden[name] = table.secure_view
            logical[table.secure_view] = name
        else:
            tables[name] = columns
    return ExecutableSchema(
        tables=tables, hidden=hidden, logical=logical, columns_any_case=layer.dialect == "mysql"
    )
