"""The generator's working state: rows per table, seeded randomness and the fixed calendar."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from ..schema import TABLES, Table

T = TypeVar("T")

# The data covers two fixed years so that every question has one right answer forever.
START = date(2024, 11, 1)
END = date(2026, 10, 31)
# "Today" inside the data: later work is still scheduled, earlier work is done.
AS_OF = date(2026, 10, 15)
# When reference data and long-standing records were entered.
SETUP_AT = datetime(2024, 10, 1, 8, 0)

Row = dict[str, Any]
Dataset = dict[str, list[tuple[Any, ...]]]


class World:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rows: dict[str, list[Row]] = {t.name: [] for t in TABLES}

    def rng(self, purpose: str) -> random.Random:
        """A generator of its own per purpose, so adding data elsewhere shifts nothing here."""
        return random.Random(f"{self.seed}:{purpose}")

    def add(self, table: str, **values: Any) -> int:
        rows = self.rows[table]
        values["id"] = len(rows) + 1
        rows.append(values)
        return values["id"]

    def row(self, table: str, row_id: int) -> Row:
        return self.rows[table][row_id - 1]

    def where(self, table: str, **match: Any) -> list[Row]:
        return [r for r in self.rows[table] if all(r[k] == v for k, v in match.items())]

    def dataset(self) -> Dataset:
        return {t.name: [_as_tuple(t, r) for r in self.rows[t.name]] for t in TABLES}


def _as_tuple(table: Table, row: Row) -> tuple[Any, ...]:
    if "createdAt" in table.column_index:
        row.setdefault("createdAt", SETUP_AT)
        row.setdefault("updatedAt", row["createdAt"])
    unknown = row.keys() - table.column_index.keys()
    if unknown:
        raise ValueError(f"{table.name}: unknown columns {sorted(unknown)}")
    values = []
    for column in table.columns:
        value = row.get(column.name)
        if value is None and not column.nullable:
            raise ValueError(f"{table.name}.{column.name} is missing in row {row['id']}")
        values.append(value)
    return tuple(values)


# Small helpers used by every domain generator.


def money(value: float) -> Decimal:
    return Decimal(f"{value:.2f}")


def one_decimal(value: float) -> Decimal:
    return Decimal(f"{value:.1f}")


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute))


def days_between(rng: random.Random, first: date, last: date) -> date:
    return first + timedelta(days=rng.randint(0, (last - first).days))


def weighted(rng: random.Random, choices: Sequence[tuple[T, float]]) -> T:
    return rng.choices([c for c, _ in choices], weights=[w for _, w in choices])[0]


def sample_upto(rng: random.Random, items: Sequence[T], low: int, high: int) -> list[T]:
    return rng.sample(list(items), min(len(items), rng.randint(low, high)))


def add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year = day.year + month // 12
    month = month % 12 + 1
    return date(year, month, min(day.day, 28))


def phone(rng: random.Random) -> str:
    return f"({rng.randint(201, 989)}) {rng.randint(200, 999)}-{rng.randint(1000, 9999)}"


def group_by(rows: Iterable[Row], key: str) -> dict[Any, list[Row]]:
    groups: dict[Any, list[Row]] = {}
    for row in rows:
        groups.setdefault(row[key], []).append(row)
    return groups
