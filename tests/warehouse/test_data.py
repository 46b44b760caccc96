"""The generated data, without a database: deterministic, consistent and varied enough."""

from collections import Counter
from datetime import date, datetime
from typing import Any

from warehouse.data import AS_OF, END, START, Dataset, generate
from warehouse.schema import TABLE_BY_NAME, TABLES


def column(dataset: Dataset, table: str, name: str) -> list[Any]:
    index = TABLE_BY_NAME[table].column_names.index(name)
    return [row[index] for row in dataset[table]]


def test_the_same_seed_gives_the_same_rows(dataset: Dataset) -> None:
    again = generate()
    assert again.keys() == dataset.keys()
    for name, rows in dataset.items():
        assert again[name] == rows, name


def test_every_table_has_rows_and_every_foreign_key_points_at_a_row(dataset: Dataset) -> None:
    ids = {name: set(column(dataset, name, "id")) for name in dataset}
    for table in TABLES:
        assert dataset[table.name], f"{table.name} is empty"
        for fk in table.foreign_keys:
            values = {v for v in column(dataset, table.name, fk.name) if v is not None}
            missing = values - ids[fk.references or ""]
            assert not missing, f"{table.name}.{fk.name}: {sorted(missing)[:5]}"


def test_volumes_look_like_a_real_company(dataset: Dataset) -> None:
    assert 300 <= len(dataset["employee"]) <= 1000
    assert 300 <= len(dataset["customer"]) <= 1000
    for table in ("workOrder", "inspection", "workTime"):
        assert len(dataset[table]) >= 5000, table


def test_work_spans_the_fixed_two_years(dataset: Dataset) -> None:
    starts = column(dataset, "workOrder", "scheduledStart")
    assert min(starts).date() >= START and max(starts).date() <= END
    entries = column(dataset, "workTime", "date")
    assert min(entries) >= START and max(entries) <= AS_OF
    # Nothing happened after "today" inside the data, even for work scheduled later.
    for table, name in (
        ("workOrder", "completedAt"),
        ("workOrder", "createdAt"),
        ("payment", "paidOn"),
    ):
        moments = [m for m in column(dataset, table, name) if m is not None]
        assert max(m.date() if isinstance(m, datetime) else m for m in moments) <= AS_OF


def test_there_is_something_to_filter_on(dataset: Dataset) -> None:
    names = column(dataset, "asset", "name")
    assert sum("Crane" in n for n in names) > 100
    assert sum("Forklift" in n for n in names) > 100
    action_items = Counter(column(dataset, "inspectionQuestionAnswer", "isActionItem"))
    assert action_items[True] > 100 and action_items[False] > action_items[True]
    assert Counter(column(dataset, "employee", "isActive"))[False] > 10
    assert any(column(dataset, "workTimeType", "isOvertime"))
    statuses = set(column(dataset, "workOrder", "status"))
    assert {"completed", "scheduled", "in_progress", "cancelled"} <= statuses
    assert set(column(dataset, "inspection", "result")) >= {"pass", "fail", "conditional"}


def pairs(dataset: Dataset, table: str, key: str, value: str) -> list[tuple[Any, Any]]:
    return list(zip(column(dataset, table, key), column(dataset, table, value), strict=True))


def test_an_inspection_inspects_an_asset_of_its_work_orders_customer(dataset: Dataset) -> None:
    order_customer = dict(pairs(dataset, "workOrder", "id", "customerId"))
    asset_customer = dict(pairs(dataset, "asset", "id", "customerId"))
    for order, asset in pairs(dataset, "inspection", "workOrderId", "assetId"):
        assert order_customer[order] == asset_customer[asset]


def test_personal_data_is_plain_text_before_loading(dataset: Dataset) -> None:
    # The loader encrypts; the generator must hand it plain values.
    emails = column(dataset, "employee", "email")
    assert all(isinstance(e, str) and "@" in e for e in emails)
    assert all(isinstance(d, date) for d in column(dataset, "employee", "dateOfBirth"))
