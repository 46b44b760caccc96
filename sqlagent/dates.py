"""Dates and date ranges in questions: "between Oct 6-12", "in March 2025", "last month",
"since 2025-01-01", "in Q2 2026", "the last 30 days".

Every range is half-open, [start, end), so that it compiles to `col >= start AND
col < end` and holds for DATE and DATETIME columns alike. A date written without a year
is the latest such date not after today.
"""

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_YEAR = r"((?:19|20)\d\d)"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?(?!\d)"
# One calendar day, as written: 2025-10-06, Oct 6, October 6 2025, 6 October 2025.
_DAY_TEXT = rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+{_DAY}(?:,?\s+{_YEAR})?|{_DAY}\s+{_MONTH}(?:,?\s+{_YEAR})?)"  # noqa: E501
_SEPARATOR = r"\s*(?:-|\u2013|to|until|through|and)\s*"  # \u2013: en dash


# Words that say which date a range applies to, by the stem a column name shares.
DATE_VERBS = {
    "complet": "complet", "finish": "complet", "done": "complet", "clos": "complet", "hire": "hire",
    "schedul": "schedul", "plann": "schedul", "issu": "issu", "invoic": "issu",
    "expir": "expir", "perform": "perform", "log": "date", "work": "date", "paid": "paid",
    "receiv": "paid", "certif": "certif", "incur": "incur", "answer": "answer",
    "rais": "answer", "creat": "creat", "start": "start", "terminat": "terminat",
}  # fmt: skip


@dataclass(frozen=True)
class DateRange:
    start: date | None  # inclusive; None: unbounded
    end: date | None  # exclusive; None: unbounded
    text: str  # the words it came from

    def describe(self) -> str:
        if self.start and self.end:
            return f"{self.start.isoformat()} to {(self.end - timedelta(days=1)).isoformat()}"
        if self.start:
            return f"from {self.start.isoformat()}"
        return f"before {self.end.isoformat()}" if self.end else "any date"


def month_number(word: str) -> int:
    return list(calendar.month_abbr).index(word.rstrip(".")[:3].title())


def parse_day(text: str, today: date) -> date | None:
    """One calendar day in any of the _DAY_TEXT forms, or today/yesterday."""
    text = text.strip().lower().rstrip(",")
    if text == "today":
        return today
    if text == "yesterday":
        return today - timedelta(days=1)
    if m := re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text):
        return date(int(m[1]), int(m[2]), int(m[3]))
    if m := re.fullmatch(rf"{_MONTH}\s+{_DAY}(?:,?\s+{_YEAR})?", text):
        month, day, year = month_number(m[1]), int(m[2]), m[3]
    elif m := re.fullmatch(rf"{_DAY}\s+{_MONTH}(?:,?\s+{_YEAR})?", text):
        month, day, year = month_number(m[2]), int(m[1]), m[3]
    else:
        return None
    try:
        return date(int(year), month, day) if year else _latest(month, day, today)
    except ValueError:
        return None  # "Feb 30"


def _latest(month: int, day: int, today: date) -> date:
    candidate = date(today.year, month, day)
    return candidate if candidate <= today else candidate.replace(year=today.year - 1)


def _next_month(day: date) -> date:
    return date(day.year + (day.month == 12), day.month % 12 + 1, 1)


def _shift_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _month(month: int, year: int | None, today: date) -> tuple[date, date]:
    if year is None:
        year = today.year if month <= today.month else today.year - 1
    start = date(year, month, 1)
    return start, _next_month(start)


def _period(unit: str, day: date) -> tuple[date, date]:
    if unit == "week":
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7)
    if unit == "month":
        start = day.replace(day=1)
        return start, _next_month(start)
    if unit == "quarter":
        start = date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)
        return start, _shift_months(start, 3)
    return date(day.year, 1, 1), date(day.year + 1, 1, 1)


def _between(q: str, today: date) -> DateRange | None:
    pattern = rf"(?:between|from)\s+(?P<first>{_DAY_TEXT}){_SEPARATOR}(?P<second>{_DAY_TEXT})"
    if m := re.search(pattern, q):
        first, second = parse_day(m["first"], today), parse_day(m["second"], today)
        if first and second:
            # A year written once ("March 3 and April 2 2025") belongs to both ends.
            first_year, second_year = (re.search(_YEAR, t) for t in m.group("first", "second"))
            if second_year and not first_year:
                first = first.replace(year=second.year)
                if first > second:
                    first = first.replace(year=second.year - 1)
            elif first_year and not second_year:
                second = second.replace(year=first.year)
            if second < first:
                second = second.replace(year=second.year + 1)
            return DateRange(first, second + timedelta(days=1), m.group(0))
    # "from January to March 2025", "between May and July": whole months, both ends in
    if m := _MONTH_SPAN.search(q):
        return _months(m, today)
    # "Oct 6-12", "October 6 to 12, 2025": one month, a span of days
    if m := re.search(rf"{_MONTH}\s+{_DAY}{_SEPARATOR}{_DAY}\b(?:,?\s+{_YEAR})?", q):
        month = month_number(m[1])
        first_day, last_day = int(m[2]), int(m[3])
        start = date(int(m[4]), month, first_day) if m[4] else _latest(month, first_day, today)
        return DateRange(start, start.replace(day=last_day) + timedelta(days=1), m.group(0))
    return None


# Two months, either with a day ("from January to March 5, 2025"; both with days are read
# above): a bare month is all of it, from its first day or to its last.
_END = rf"{_MONTH}\b(?:\s+{_DAY}\b)?(?:\s*,?\s+{_YEAR})?"
_MONTH_SPAN = re.compile(rf"(?:between|from)\s+{_END}{_SEPARATOR}{_END}")


def _months(m: re.Match[str], today: date) -> DateRange:
    """From the first month (its first day unless a day is said) to the end of the second
    (its last day unless a day is said). A year written once belongs to both; none: the
    second month is the latest one begun by today."""
    first, first_day, first_year_said = month_number(m[1]), m[2], m[3]
    second, second_day, second_year_said = month_number(m[4]), m[5], m[6]
    if second_year_said:
        second_year = int(second_year_said)
    elif first_year_said:
        second_year = int(first_year_said) + (second < first)
    else:
        second_year = today.year if second <= today.month else today.year - 1
    first_year = int(first_year_said) if first_year_said else second_year - (first > second)
    start = date(first_year, first, int(first_day or 1))
    if second_day:
        end = date(second_year, second, int(second_day)) + timedelta(days=1)
    else:
        end = _next_month(date(second_year, second, 1))
    return DateRange(start, end, m.group(0))


def _relative(q: str, today: date) -> DateRange | None:
    if m := re.search(r"\b(?:last|past|previous) (\d+) (day|week|month|year)s?\b", q):
        n, unit = int(m[1]), m[2]
        if unit == "day":
            start = today - timedelta(days=n)
        elif unit == "week":
            start = today - timedelta(days=7 * n)
        else:
            start = _shift_months(today, -n * (12 if unit == "year" else 1))
        return DateRange(start, today + timedelta(days=1), m.group(0))
    if m := re.search(r"\b(this|last|previous|past) (week|month|year|quarter)\b", q):
        start, end = _period(m[2], today)
        if m[1] != "this":
            start, end = _period(m[2], start - timedelta(days=1))
        return DateRange(start, end, m.group(0))
    if m := re.search(r"\b(today|yesterday)\b", q):
        day = parse_day(m[1], today)
        assert day is not None
        return DateRange(day, day + timedelta(days=1), m.group(0))
    return None


_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
             "4th": 4}  # fmt: skip


def _ordinal_period(q: str, today: date) -> DateRange | None:
    """ "the first quarter of 2025", "the second half of 2024", "the last quarter in 2025"
    (before "last quarter" is read as the one before today's)."""
    ordinal = rf"\b({'|'.join(_ORDINALS)}|last)\s+(quarter|half)\s+(?:of\s+|in\s+)?{_YEAR}\b"
    if m := re.search(ordinal, q):
        months = 3 if m[2] == "quarter" else 6
        number = _ORDINALS.get(m[1], 12 // months)  # "last": the year's last one
        if number * months <= 12:
            start = date(int(m[3]), months * (number - 1) + 1, 1)
            return DateRange(start, _shift_months(start, months), m.group(0))
    return None


def _named_period(q: str, today: date) -> DateRange | None:
    if m := re.search(rf"\bq([1-4])\s+(?:of\s+)?{_YEAR}\b", q):
        start = date(int(m[2]), 3 * int(m[1]) - 2, 1)
        return DateRange(start, _shift_months(start, 3), m.group(0))
    if m := re.search(rf"\b{_MONTH}\s*,?\s+{_YEAR}\b", q):
        start, end = _month(month_number(m[1]), int(m[2]), today)
        return DateRange(start, end, m.group(0))
    if m := re.search(rf"\b(?:in|during|for|of)\s+{_MONTH}(?![\w\s]*\d)", q):
        start, end = _month(month_number(m[1]), None, today)
        return DateRange(start, end, m.group(0))
    if m := re.search(rf"\b(?:in|during|for|of|year)\s+{_YEAR}\b", q):
        year = int(m[1])
        return DateRange(date(year, 1, 1), date(year + 1, 1, 1), m.group(0))
    return None


def _open_ended(q: str, today: date) -> DateRange | None:
    # "before the end of 2026" is before 2027; "by the end of" says until; "since the start
    # of 2025" is since 2025.
    m = re.search(
        rf"\b(since|after|from|before|until|prior to|by(?= the end))\s+"
        rf"(?:the\s+(end|start|beginning)\s+of\s+)?({_DAY_TEXT}|{_MONTH}\s+{_YEAR}|{_YEAR})",
        q,
    )
    if not m:
        return None
    word, edge, text = m[1], m[2], m[3]
    day = parse_day(text, today)
    if day is not None:
        first, after = day, day + timedelta(days=1)  # the day itself, the day after it
    elif year := re.fullmatch(_YEAR, text):
        first, after = date(int(year[1]), 1, 1), date(int(year[1]) + 1, 1, 1)
    else:
        month_year = re.fullmatch(rf"{_MONTH}\s+{_YEAR}", text)
        assert month_year is not None
        first, after = _month(month_number(month_year[1]), int(month_year[2]), today)
    if edge:  # one edge of the period: both bounds fall on it
        first = after = after if edge == "end" else first
    if word in ("since", "from"):
        return DateRange(first, None, m.group(0))
    if word == "after":
        return DateRange(after, None, m.group(0))
    if word in ("until", "by"):
        return DateRange(None, after, m.group(0))
    return DateRange(None, first, m.group(0))  # before, prior to


def _one_day(q: str, today: date) -> DateRange | None:
    if m := re.search(rf"\b(?:on\s+)?({_DAY_TEXT})", q):
        day = parse_day(m[1], today)
        if day:
            return DateRange(day, day + timedelta(days=1), m.group(0))
    return None


_FINDERS = (_between, _ordinal_period, _relative, _open_ended, _named_period, _one_day)


def find_date_range(question: str, today: date) -> DateRange | None:
    """The first date range the question states, or None."""
    q = question.lower()
    for finder in _FINDERS:
        if found := finder(q, today):
            return found
    return None
