from datetime import date

import pytest

from sqlagent.dates import find_date_range

TODAY = date(2026, 11, 21)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("employees with work time between Oct 6-12", "2026-10-06", "2026-10-13"),
        ("between October 6 and October 12, 2025", "2025-10-06", "2025-10-13"),
        ("between March 3 and April 2 2025", "2025-03-03", "2025-04-03"),
        ("between Dec 20 and Jan 5", "2025-12-20", "2026-01-06"),
        ("from 2025-01-01 to 2025-02-01", "2025-01-01", "2025-02-02"),
        ("inspections in March 2025", "2025-03-01", "2025-04-01"),
        ("inspections in March", "2026-03-01", "2026-04-01"),
        ("hours logged in 2025", "2025-01-01", "2026-01-01"),
        ("work orders last month", "2026-10-01", "2026-11-01"),
        ("this year", "2026-01-01", "2027-01-01"),
        ("in the last 30 days", "2026-10-22", "2026-11-22"),
        ("in Q2 2026", "2026-04-01", "2026-07-01"),
        ("on 2025-06-01", "2025-06-01", "2025-06-02"),
        ("yesterday", "2026-11-20", "2026-11-21"),
        ("jobs completed in the first quarter of 2025", "2025-01-01", "2025-04-01"),
        ("in the 3rd quarter of 2025", "2025-07-01", "2025-10-01"),
        ("during the last quarter of 2024", "2024-10-01", "2025-01-01"),
        ("the second half of 2025", "2025-07-01", "2026-01-01"),
        ("invoices from January to March 2025", "2025-01-01", "2025-04-01"),
        ("between November 2024 and February 2025", "2024-11-01", "2025-03-01"),
        ("from November to February 2026", "2025-11-01", "2026-03-01"),
        ("between May and July", "2026-05-01", "2026-08-01"),
        ("from January to March 5, 2025", "2025-01-01", "2025-03-06"),
        ("from March 10 to May 2025", "2025-03-10", "2025-06-01"),
    ],
)
def test_closed_ranges(question: str, start: str, end: str) -> None:
    found = find_date_range(question, TODAY)
    assert found is not None
    assert (found.start, found.end) == (date.fromisoformat(start), date.fromisoformat(end))


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("since 2026-01-01", "2026-01-01", None),
        ("after March 2025", "2025-04-01", None),
        ("after 2025-03-01", "2025-03-02", None),
        ("before 2025", None, "2025-01-01"),
        ("until 2025-06-30", None, "2025-07-01"),
        ("expire before the end of 2026", None, "2027-01-01"),
        ("done by the end of March 2026", None, "2026-04-01"),
        ("since the start of 2025", "2025-01-01", None),
        ("after the end of 2025", "2026-01-01", None),
        ("before the beginning of June 2025", None, "2025-06-01"),
    ],
)
def test_open_ranges(question: str, start: str | None, end: str | None) -> None:
    found = find_date_range(question, TODAY)
    assert found is not None
    assert found.start == (date.fromisoformat(start) if start else None)
    assert found.end == (date.fromisoformat(end) if end else None)


@pytest.mark.parametrize(
    "question",
    [
        "top 5 customers",
        "how many cranes",
        "model 2500 cranes",
        "Feb 30 2025",
        "work orders by the branch",
    ],
)
def test_no_date(question: str) -> None:
    assert find_date_range(question, TODAY) is None
