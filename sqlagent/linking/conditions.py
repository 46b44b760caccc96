"""The reading steps that find conditions: stored values, comparisons with numbers, dates
and averages, a row named by its number, and how conditions are joined."""

from itertools import pairwise

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.intent import Condition, Output
from sqlagent.linking.number_pairs import plain
from sqlagent.linking.reading_base import Unreadable
from sqlagent.linking.schema_words import Element
from sqlagent.linking.value_conditions import ValueConditionSteps

# Words between a column and the number said of it: "whose advisor is not 2192".
_SAID_OF = frozenset({"is", "was", "are", "were", "equal", "equals", "to", "of", "either",
                      "not", "isnt", "wasnt", "=", "number", "numbered", "that",
                      "which"})  # fmt: skip

# Number words that are seldom a stored number: "one of", "twice as many".
_NOT_A_VALUE = frozenset({"one", "once", "twice", "thrice"})

# Words after which a number of rows is a count those rows must have: "tracks with 1 race".
_HAVING = frozenset({"with", "has", "have", "had", "having"})
# Words after "N times" that make it a multiple, not a count: "3 times the average".
_MULTIPLIED = (["the"], ["as"], ["that"], ["more"], ["less"], ["larger"], ["bigger"],
               ["higher"], ["greater"], ["smaller"], ["lower"])  # fmt: skip


def _exclusive(first: Condition, second: Condition) -> bool:
    """Whether no value meets both conditions on one column: two values, or two bounds
    that leave nothing between them."""
    if first.op == second.op == "=":
        return bool(first.value != second.value)
    for low, high in ((first, second), (second, first)):
        if low.op in (">", ">=") and high.op in ("<", "<=") and low.second is high.second is None:
            try:
                top, bottom = float(high.value), float(low.value)
            except (TypeError, ValueError):
                return False
            strict = low.op == ">" or high.op == "<"
            return top <= bottom if strict else top < bottom
    return False


_IS = frozenset({"is", "are", "was", "were"})


def _a_year(number: float) -> bool:
    return number.is_integer() and 1800 <= number <= 2100


class ConditionSteps(ValueConditionSteps):
    def _comparisons(self) -> None:
        i = 0
        while i < len(self.lows):
            found = sig.comparator_at(self.lows, i)
            tail = tuple(self.lows[i + 1 : i + 3])
            if not found and self.words[i].number is not None and tail in sig.AFTER_NUMBER:
                found = ("", 0)  # "two or more jobs": the operator follows the number
            if not found and self._counted_exactly(i):
                found = ("=", 0)
            ranged = sig.range_said(self.lows, i) if not found else 0
            between = self.lows[i] == "between" or ranged > 0
            if not found and not between:
                i += 1
                continue
            op, size = found if found else ("between", ranged or 1)
            if op in (">", "<") and self.lows[max(0, i - 2) : i] in (["in", "or"], ["on", "or"]):
                op += "="  # "in or after 2005": the year itself counts
                self.use(i - 2, i)
            at = i + size
            number = self.words[at].number if at < len(self.words) else None
            named = self._column_then_number(at) if number is None else None
            if named is not None:  # "after year 1989", "over the age of 30"
                column, end = named
                self.use(i, end + 1)
                value = plain(self.words[end].number or 0.0)
                self.intent.conditions.append(Condition(self.take(column), op, value, at=i))
                i = end + 1
                continue
            if number is None and at < len(self.words) and sig.DATE.match(self.lows[at]):
                i = self._compare_date(i, op, at)
                continue
            if number is None:
                i = self._against_average(i, op, at) if found else i + 1
                continue
            second = None
            if between and at + 2 < len(self.words) and self.lows[at + 1] in ("and", "to"):
                second = self.words[at + 2].number
            end = at + (3 if second is not None else 1)
            tail = tuple(self.lows[end : end + 2])
            if tail in sig.AFTER_NUMBER and not self._bound_follows(end + 2):
                # "200 or more"; not "taller than 200 or lower than 190", "below 3 or above 5"
                op, end = sig.AFTER_NUMBER[tail], end + 2
            self._compare(i, op, size, number, second, end)
            i = end

    def _bound_follows(self, at: int) -> bool:
        """Whether words at `at` go on to a bound of their own ("than 190", "5")."""
        return self.lows[at : at + 1] == ["than"] or (
            at < len(self.words) and self.words[at].number is not None
        )

    def _counted_exactly(self, i: int) -> bool:
        """ "tracks with 1 race", "locations with only 1 station", "positions that have 3
        players", "booked 3 times": a number of rows, with no bound said, is the count they
        must have (none is rows that are missing, another reading)."""
        if not self.words[i].number or i in self.intent.used:
            return False
        if self.lows[i + 1 : i + 2] in (["time"], ["times"]):
            return self.lows[i + 2 : i + 3] not in _MULTIPLIED  # not "3 times the average"
        before = self.lows[max(0, i - 2) : i]
        lead = (before[-1:] == ["only"] and before[:1]) or before[-1:]
        after = self.chosen.at(i + 1)
        if not set(lead) & _HAVING or after is None:
            return False
        return after.is_table or self._counts_rows_of(after)  # "positions with 3 players"

    def _column_then_number(self, at: int) -> tuple[Choice, int] | None:
        """The column named between a comparison's words and its number, and where the
        number is, if there is one."""
        named = self.chosen.at(at + (self.lows[at : at + 1] == ["the"]))
        if not self.free_column(named) or not self.holds_numbers(named.link.element):
            return None
        rest = range(named.end, min(named.end + 2, len(self.words)))
        number = next((n for n in rest if self.words[n].number is not None), None)
        if number is None or not set(self.lows[named.end : number]) <= {"of"}:
            return None
        return named, number

    def _compare(
        self, i: int, op: str, size: int, number: float, second: float | None, end: int
    ) -> None:
        after = self._named_after(end)
        self.use(i, end)
        # "used more than 3 times", "has at least two records": the rows, counted
        rows = end < len(self.lows) and self.lows[end] in sig.ROW_NOUNS
        times = rows or self.lows[i + size] in sig.TIMES
        # "cities with more than 3 airports", "counties with two delegates": rows counted
        counted = after is not None and (after.is_table or self._counts_rows_of(after))
        before_count = None if counted or times else self._counted_before(i)
        if before_count is not None:  # "number of tracks greater than 100"
            after, counted = before_count, True
        if counted or times:
            if after is not None:
                self.intent.counted = self.take(after).table
                self.intent.need(self.intent.counted)
            self.use(end, end + 1)
            self.intent.having = (op, number, second)
            return
        target = None
        dimension = self._dimension_said(i)
        before = self.chosen.before(i, within=4)
        if after is not None and self.holds_numbers(after.link.element):
            target = self.take(after)
        if target is None and dimension:  # "student ids who are older than 20": the age
            target = self._dimension(dimension)
        if self._aggregated(before, target, op, (number, second)):
            return
        if before is not None and self.free(before):
            said = before.link.element
            if self.holds_numbers(said) and target in (None, said):
                target = self.take(before)
        if target is None:
            target = self._measured_by_unit(end) or self._compared_before(i)
        if target is None and self._compare_year(i, op, number):
            return
        target = target or self._age_of_rows(i, before)
        if target is None:
            raise Unreadable(f"I could not tell what '{self.words[i].text} {number:g}' compares")
        value = int(number) if number.is_integer() else number
        upper = None if second is None else (int(second) if second.is_integer() else second)
        self.intent.conditions.append(Condition(target, op, value, upper, at=i))

    def _counted_before(self, i: int) -> Choice | None:
        """ "playlists with a number of tracks greater than 100": the table named right
        before the comparison after "number of", whose rows are counted."""
        named = self.chosen.before(i, within=2)
        if named is None or not named.is_table or set(self.lows[named.end : i]) - _IS:
            return None
        if tuple(self.lows[named.start - 2 : named.start]) not in sig.COUNTED_BY:
            return None
        self.use(named.start - 2, named.start)
        return named

    def _age_of_rows(self, i: int, before: Choice | None) -> Element | None:
        """ "students under 20", "people over 30": a bound said of the rows is their age."""
        if self.lows[i] in ("under", "over") and (before is None or before.is_table):
            return self._dimension(("age",))
        return None

    def _dimension_said(self, i: int) -> tuple[str, ...] | None:
        """The measure a bound's own word names ("older than"), or the verb before it
        ("hotels that cost more than 10000": their price)."""
        said = sig.DIMENSIONS.get(self.lows[i])
        return said or (sig.measure_of_verb(self.words[i - 1].lemma) if i else None)

    def _compared_before(self, i: int) -> Element | None:
        """ "taller than 200 or lower than 190": a bound right after another, with no
        measure of its own, is on the same measure."""
        if self.lows[i - 1 : i] not in (["or"], ["and"]):
            return None
        bounds = [c for c in self.intent.conditions if c.at < i and c.op in ("<", "<=", ">", ">=")]
        if not bounds:
            return None
        last = max(bounds, key=lambda c: c.at)
        between = range(last.at + 1, i - 1)
        return last.element if all(self.chosen.at(n) is None for n in between) else None

    def _named_after(self, end: int) -> Choice | None:
        """What a number is of, named right after it (a table may be named twice)."""
        after = self.chosen.after(end - 1, within=2)
        if after is None or (not after.is_table and not self.free(after)):
            return None
        if set(self.lows[end : after.start]) & {"and", "or", ","}:
            return None  # "above 50 and managers ...": the next clause, not what is counted
        return after

    def _aggregated(
        self,
        column: Choice | None,
        target: Element | None,
        op: str,
        bounds: tuple[float, float | None],
    ) -> bool:
        """ "studios whose average gross is above 4500000", "customers with a total amount
        of more than 1000": the aggregate of each group compared (HAVING)."""
        if column is None or not self.free(column) or self.intent.having is not None:
            return False
        said = column.link.element
        if not self.holds_numbers(said) or target not in (None, said):
            return False
        at = column.start - 1
        aggregate = sig.AGGREGATES.get(self.lows[at]) if at >= 0 else None
        if aggregate is None:
            return False
        self.use(at, at + 1)
        self.intent.having = (op, plain(bounds[0]), bounds[1])
        self.intent.having_of = Output(self.take(column), aggregate)
        self.intent.need(column.table)
        return True

    def _counts_rows_of(self, column: Choice) -> bool:
        """ "at least two delegates", where a delegate is a column of a table the question
        does not name: that table's rows are counted."""
        element = column.link.element
        if column.is_table or column.is_value or self.holds_numbers(element):
            return False
        others = {c.table for c in self.chosen.choices if c is not column}
        if bool(others) and element.table not in others:
            return True
        # "colleges that have at least two players": a text column counted can only be its
        # rows, as no number is stored in it
        return self.words[column.start].lower.endswith("s") and not self.a_key(element)

    def _measured_by_unit(self, end: int) -> Element | None:
        """ "at least 25 years old": the measure the words after the number name."""
        for n in range(end, min(end + 2, len(self.lows))):
            if self.lows[n] in sig.DIMENSIONS and n not in self.intent.used:
                target = self._dimension(sig.DIMENSIONS[self.lows[n]])
                if target is not None:
                    self.use(end, n + 1)
                return target
        return None

    def _compare_year(self, i: int, op: str, number: float) -> bool:
        """ "books made after 1989", "movies before 2000": a year bounds the year column,
        or a date, of a table the question names."""
        if not _a_year(number):
            return False
        year = self._dimension(("year",))
        if year is not None and year.numeric:
            self.intent.conditions.append(Condition(year, op, int(number), at=i))
            return True
        date = self.date_column()
        if date is None:
            return False
        after = op in (">", "<=")  # the year's last day bounds "after" and "at most"
        bound = f"{int(number)}-12-31 23:59:59" if after else f"{int(number)}-01-01"
        self.intent.conditions.append(Condition(date, op, bound, at=i))
        return True

    def _numbered(self) -> None:
        """A number right after a column or table names a row: "department 90", "id 2",
        "whose advisor is not 2192", "of age 24 or 25"; a year after "in": "in 1995"."""
        for i, word in enumerate(self.words):
            if word.number is None or i in self.intent.used:
                continue
            if self.lows[i - 1 : i] in (["top"], ["bottom"]):
                continue  # "the top three total passengers": how many rows, read as a limit
            if not word.lower[:1].isdigit():
                if word.lower not in _NOT_A_VALUE:  # "two beds"; "one of the rooms" is not
                    self._number_of_unit(i, word.number)
                continue
            if self._both_numbers(i, word.number):
                continue
            if self._in_year(i, word.number) or self._of_age(i, word.number):
                continue
            named, op = self._named_before(i)
            if named is None:
                if not self._number_of_unit(i, word.number):
                    self._stored_number(i, word.number)
                continue
            element = named.link.element
            if element.is_table:
                key = next(
                    (e for e in self.schema.elements if e.table == element.table and e.primary_key),
                    None,
                )
                if key is None:
                    continue
                self.intent.need(element.table)
                element = key
            self.take(named)
            self.use(named.end, i + 1)
            self.intent.conditions.append(Condition(element, op, plain(word.number), at=i))
            self._or_number(i, element)

    def _of_age(self, i: int, number: float) -> bool:
        """ "students who are 18 years old": the age of the rows asked about."""
        if self.lows[i + 1 : i + 3] not in (["years", "old"], ["year", "old"]):
            return False
        age = self._dimension(sig.DIMENSIONS["old"])
        if age is None:
            return False
        self.use(i, i + 3)
        self.intent.conditions.append(Condition(age, "=", plain(number), at=i))
        return True

    def _number_of_unit(self, i: int, number: float) -> bool:
        """ "movies with a 5 star rating": a number right before the number column it
        counts in is that column's value."""
        unit = self.chosen.at(i + 1)
        other = self.words[i + 2].number if self.lows[i + 1 : i + 2] == ["or"] else None
        if other is not None and i + 3 < len(self.words):
            unit = self.chosen.at(i + 3)  # "3 or 4 stars": either value of the stars
        if not self.free_column(unit) or not unit.link.element.numeric:
            return False
        self.use(i, i + 1)
        self.intent.conditions.append(Condition(unit.link.element, "=", plain(number), at=i))
        if other is not None:
            self.use(i + 1, i + 2)
            self.intent.any_of = True
            return True  # the unit is taken with the number after "or"
        self.take(unit)
        return True

    def _named_before(self, i: int) -> tuple[Choice | None, str]:
        """The column or table a number is said of, and how: right before it, or before
        "is", "is not", "either"."""
        named = self.chosen.before(i, within=4)  # "a department id that is not 40"
        if named is None or named.is_value or not self.free(named):
            return None, "="
        between = self.lows[named.end : i]
        if between and (named.is_table or not set(between) <= _SAID_OF):
            return None, "="
        if between and not self.holds_numbers(named.link.element):
            return None, "="
        return named, "!=" if set(between) & sig.NEGATIONS else "="

    def _in_year(self, i: int, number: float) -> bool:
        """ "hired in 2024": the date named before; "published in 1995": the year column, or
        a date column, of a table the question names."""
        in_words = self.lows[i - 1 : i] in (["in"], ["during"]) or self.lows[i - 2 : i] in (
            ["month", "of"],
            ["months", "of"],
            ["in", "both"],
            ["in", "either"],
        )  # "in each month of 2025"
        following = self.chosen.after(i, within=1)  # "our 2025 revenue", "2024 hires"
        before_noun = following is not None and not following.is_value and i > 0
        if not (in_words or before_noun) or not _a_year(number):
            return False
        date = self.date_named_before(i - 1) if in_words else None
        year = self._dimension(("year",))
        if date is None and year is not None and year.data_type in ("integer", "decimal"):
            self.use(i - 1 if in_words else i, i + 1)
            self.intent.conditions.append(Condition(year, "=", int(number), at=i))
            return True
        date = date or self.date_column()
        if date is None:
            return False
        self.use(i - 1 if in_words else i, i + 1)
        first, last = f"{int(number)}-01-01", f"{int(number)}-12-31 23:59:59"
        self.intent.conditions.append(Condition(date, "between", first, last, at=i))
        return True

    def _compare_date(self, i: int, op: str, at: int) -> int:
        """The column a date bounds: the date named before it, else the date of a table
        the question names, else a text column named before it; "between" takes the date
        after "and" as its upper bound. Returns where the comparison ends."""
        before = self.chosen.before(i, within=4)
        named = before if self.free(before) else None
        kind = named.link.element.data_type if named is not None else ""
        target: Element | None = None
        if named is not None and kind in ("date", "datetime"):
            target = self.take(named)
        else:
            target = self.date_column() or self._dimension(("date", "time", "day"))
            if target is None and named is not None and kind == "text":
                target = self.take(named)
        if target is None:
            raise Unreadable(f"I could not tell which date '{self.words[at].text}' bounds")
        second, end = None, at + 1
        upper = self.lows[at + 2] if at + 2 < len(self.words) else ""
        if op == "between" and self.lows[at + 1 : at + 2] == ["and"] and sig.DATE.match(upper):
            second, end = self.words[at + 2].text, at + 3
        self.use(i, end)
        self.intent.conditions.append(Condition(target, op, self.words[at].text, second, at=i))
        return end

    def _against_average(self, i: int, op: str, at: int) -> int:
        """ "more than the average number of points": the column against its own average;
        "whose height is lower than the average", "younger than average": the measure said
        before, or the one the comparison's adjective names."""
        words = self.lows[at : at + 3]
        if not {"average", "mean"} & set(words):
            return i + 1
        start = at + next(n for n, w in enumerate(words) if w in ("average", "mean")) + 1
        measured = next(
            (
                c
                for c in self.chosen.choices
                if start <= c.start <= start + 2 and self.free_column(c) and c.link.element.numeric
            ),
            None,
        )  # "the average checking balance": past the table's name
        before = self.chosen.before(i, within=4)
        said = before if self.free_column(before) and before.link.element.numeric else None
        end = start
        if measured is not None and (
            said is None or measured.start == start or said.link.element == measured.link.element
        ):
            element = self.take(measured)
            end = measured.end
            if said is not None and said.link.element == element:
                self.take(said)
        elif said is not None:
            element = self.take(said)
        else:
            found = self._dimension(sig.DIMENSIONS.get(self.lows[i], ()))
            if found is None:
                return i + 1
            element = found
        self.use(i, end)
        self.intent.conditions.append(Condition(element, op, None, against="avg", at=i))
        return end

    def _joined(self) -> None:
        """Conditions joined by "or" are alternatives; two on one column where the question
        says "both", or that no one row can meet, must each hold for some row (INTERSECT)."""
        conditions = sorted(self.intent.conditions, key=lambda c: c.at)
        for first, second in pairwise(conditions):
            neither = first.op == second.op == "!=" and first.element == second.element
            if "or" in self.lows[first.at : second.at] and not neither:
                self.intent.any_of = True
        if self.intent.both or self.intent.any_of:
            return
        said = "both" in self.lows
        for first, second in pairwise(conditions):
            # "published in 1989 and in 1990": no one row holds both, so each holds in some
            if first.element == second.element and (said or _exclusive(first, second)):
                self.intent.conditions.remove(first)
                self.intent.conditions.remove(second)
                self.intent.both = [first, second]
                if said:
                    self.use(self.lows.index("both"), self.lows.index("both") + 1)
                return
