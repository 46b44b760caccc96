"""Calendar periods the question states ("last month", "in Q1 2026", "since March 2025",
"the last 30 days"): read by sqlagent.dates against today, and here placed on the date
they bound. A bare year ("in 2025", "after 2005") or a day written out is left to the
readings of years and dates, which know a year column from a date."""

import re

from sqlagent.dates import DateRange
from sqlagent.linking.intent import Condition, Output
from sqlagent.linking.question import Word
from sqlagent.linking.reading_base import ReaderBase, Unreadable
from sqlagent.linking.schema_words import Element, name_words, verb_root

# What makes a period more than a year or a day written out.
_CALENDAR = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\bq[1-4]\b"
    r"|\b(?:quarter|half|week|month|year|day)s?\b|\b(?:today|yesterday)\b"
)
# Words before a period that only introduce it ("in the last 30 days").
_INTRODUCING = frozenset({"in", "during", "for", "over", "within", "the"})


def period_words(words: tuple[Word, ...], period: DateRange | None) -> range | None:
    """The words that state a calendar period, with the words introducing it; None when
    the question states none (or only a year or a day)."""
    # "in the year 1999" is a bare year too
    if period is None or not _CALENDAR.search(re.sub(r"\byears?\s+\d{4}", "", period.text)):
        return None
    said = re.findall(r"[a-z0-9]+", period.text.lower())
    lows = [re.sub(r"[^a-z0-9]", "", w.lower) for w in words]
    for start in range(len(lows) - len(said) + 1):
        if lows[start : start + len(said)] == said:
            first = start
            while first > 0 and lows[first - 1] in _INTRODUCING:
                first -= 1
            return range(first, start + len(said))
    return None


class PeriodSteps(ReaderBase):
    def _period(self) -> None:
        """The period bounds the date a word right before it names ("hired last month"),
        else the date of a table the question names; with neither it is not read."""
        span, period = self.period_span, self.period
        if span is None or period is None:
            return
        self.use(span.start, span.stop)
        target = self.date_named_before(span.start) or self.date_column()
        if target is None:
            raise Unreadable(f"I could not tell which date {period.text!r} bounds")
        for op, day in ((">=", period.start), ("<", period.end)):
            if day is not None:
                condition = Condition(target, op, day.isoformat(), at=span.start)
                self.intent.conditions.append(condition)
        self.intent.need(target.table)
        self.intent.notes.append(f"{period.text!r}: {target} {period.describe()}")

    def _when(self) -> None:
        """ "When did the staff member Janessa Sawayn leave the company?": the date its verb
        names (`date_left_staff`), else the one date of the rows asked about. Columns the
        conditions read ("with first name as Janessa") are not what is asked."""
        conditioned = {c.element for c in self.intent.conditions}
        outputs = self.intent.outputs
        if self.lows[:1] != ["when"] or any(
            o.aggregate or (o.element and o.element not in conditioned) for o in outputs
        ):
            return
        dates = self.dates_of(self.question_tables())
        said = {verb_root(w.lower) for w in self.words[1:] if w.content}
        named = [e for e in dates if said & _own_roots(e)]
        found = named or dates
        if len(found) == 1:
            self.intent.outputs = [Output(found[0])]
            self.use(0, 1)


def _own_roots(date: Element) -> set[str]:
    """The words a date column's name adds to its table's and to "date": `date_left_staff`
    of Staff is "left"."""
    common = {"date", *name_words(date.table)}
    return {verb_root(w) for w in date.names[0][0] if w not in common}
