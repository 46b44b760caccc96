"""The reading steps that find an ordering: "ordered by X", "in descending order of the
number of Y", and which way it goes ("highest first")."""

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.intent import Ordering
from sqlagent.linking.reading_base import ReaderBase

ORDER_VERBS = [[verb] for verb in sig.ORDER_VERBS]

_DIRECTIONS = [["decreasing"], ["increasing"], ["descending"], ["ascending"]]

# Superlatives whose direction depends on what is ordered: an age, or a date.
_OF_AGE_OR_DATE = frozenset({"oldest", "youngest"})


# Words before "order" that make it a direction: "in alphabetical order".
_SAYS_ORDER = frozenset({"alphabetical", "alphabetic", "ascending", "descending", "increasing",
                         "decreasing", "reverse", "lexicographic", "lexicographical"})  # fmt: skip

# What a sorting verb's key follows: "sorted by", "sort the rooms according to the price".
_BY = (["by"], ["according", "to"], ["based", "on"])

# Words between two keys of an order: "and", "then", "and then by".
_THEN = frozenset({"and", "then", "by", "the"})


def _direction(words: list[str], otherwise: bool) -> bool:
    """Descending or not, as the words say (the first direction word), else `otherwise`."""
    for word in words:
        if word in ("descending", "decreasing", "desc"):
            return True
        if word in ("ascending", "increasing", "asc"):
            return False
    return otherwise


class OrderSteps(ReaderBase):
    def _orders(self) -> None:
        if self._by_aggregate():
            return
        for i in range(len(self.lows)):
            size = sig.phrase_at(self.lows, i, sig.ORDER_WORDS)
            said = i
            if not size and self.lows[i] in sig.ORDER_VERBS:
                said, size = self._by_after_verb(i)
            if not size:
                continue
            self.unsay(i, i + 1)  # "in ascending order of rank": no `Order_Year`
            self.unsay(said, i + size)  # what the rooms are sorted by, not the rooms
            window = set(self.lows[i : i + size + 6])
            descending = self._which_first(i + size)
            if descending is None:
                descending = bool(window & sig.DESCENDING_ORDER)
            if self._order_by_count(i + size, descending):
                return
            # "sorted by the ones with the highest revenue first": a few words may come first
            near = [
                c for c in self.chosen.choices
                if i + size <= c.start <= i + size + 5 and self.free(c) and not c.is_value
            ]  # fmt: skip
            columns = [c for c in near if not c.is_table]
            target = columns[0] if columns else (near[0] if near else None)
            if target is None and sig.ALPHABETICAL.search(" ".join(self.lows)):
                break  # "ordered by alphabetical order": read below
            if target is None:
                return
            self.use(i + size, min(len(self.lows), i + size + 6))
            element = self.take(target)
            shown = element if element.column else self.label(element.table)
            then = self._then_by(target.end)
            if then is not None:  # each key's own direction word, where it says one
                descending = _direction(self.lows[target.end : then[1]], descending)
            self.intent.order = Ordering(shown, descending)
            self.intent.then = then[0] if then else None
            self.intent.need(element.table)
            return
        lows = set(self.lows)
        if self._counts_in_order():
            return
        alphabetical = bool(sig.ALPHABETICAL.search(" ".join(self.lows)))
        if alphabetical or {"ascending", "descending"} & lows:
            backwards = "descending" in lows or "reverse" in lows  # "reverse alphabetical"
            # A bare direction beside a count or total shown with labels orders by that
            # measure ("the denominations and the number of schools in descending order");
            # alphabetical order is the labels' own.
            by = "output" if alphabetical else "shown"
            self.intent.order = Ordering(None, backwards, aggregate=by)
            self._order_word()

    def _by_after_verb(self, i: int) -> tuple[int, int]:
        """ "sorted by", "sort all the rooms by", "sort the rooms according to the price":
        where the words saying what the order is by start, and how many words from the verb
        its key starts after (0: none follows). Not a noun: "the rank of every company"."""
        if self.lows[i + 1 : i + 2] == ["of"]:
            return i, 0
        for n in range(1, 6):
            said = next((b for b in _BY if self.lows[i + n : i + n + len(b)] == b), None)
            if said:
                return i + n, n + len(said)
        return i, 0

    def _order_word(self) -> None:
        """ "in alphabetical order": the word "order" says the direction, it names no
        column (`authOrder`)."""
        for i, low in enumerate(self.lows[1:], start=1):
            if low != "order" or self.lows[i - 1] not in _SAYS_ORDER:
                continue
            self.unsay(i, i + 1)

    def _then_by(self, end: int) -> tuple[Ordering, int] | None:
        """A second key after the first: "by price decreasing and name ascending", "by
        age, then by name"; with where its words start. Ascending unless said."""
        at = end
        while at < min(len(self.lows), end + 2) and [self.lows[at]] in _DIRECTIONS:
            at += 1
        joined = 0
        while at + joined < len(self.lows) and self.lows[at + joined] in _THEN:
            joined += 1
        if not joined or not {"and", "then"} & set(self.lows[at : at + joined]):
            return None
        second = self.chosen.at(at + joined)
        if not self.free_column(second) or second.is_value:
            return None
        after = self.lows[second.end : second.end + 3]
        self.use(at, second.end + sum(1 for w in after[:1] if [w] in _DIRECTIONS))
        element = self.take(second)
        self.intent.need(element.table)
        return Ordering(element, _direction(after[:3], False)), at

    def _counts_in_order(self) -> bool:
        """ "the number of airports per country, ordered from most to least", "for each
        city, how many stores, in descending order": counts in groups, ordered by the
        count when the order names nothing else."""
        if not self.count or self.intent.group is None:
            return False
        span = sig.from_to(self.lows)
        if span is not None:
            self.use(*span[:2])
            descending = span[2]
        elif {"ascending", "descending"} & set(self.lows):
            descending = "descending" in self.lows
        else:
            return False
        self.intent.order = Ordering(None, descending, aggregate="count")
        return True

    def _after_by(self, i: int) -> bool:
        """Whether word i follows "by" and its determiners ("by the number of ...")."""
        while i > 0 and self.lows[i - 1] in sig.DETERMINERS:
            i -= 1
        return self.lows[i - 1 : i] == ["by"]

    def _by_aggregate(self) -> bool:
        """ "the top 5 customers by total invoiced amount", "sorted by average rating", "the
        top 10 customers by number of work orders": the rows ordered by an aggregate of a
        measure, or by the rows of another table counted, per row (highest first unless
        said)."""
        for i, low in enumerate(self.lows):
            terms = self.lows[max(0, i - 2) : i + 1] == ["in", "terms", "of"]  # as "by"
            if (low != "by" and not terms) or i in self.intent.used:
                continue
            at = i + 1 + (self.lows[i + 1 : i + 2] == ["the"])
            at += self.lows[at : at + 1] in _DIRECTIONS  # "by decreasing number of airports"
            first = max(0, i - 1) if self.lows[i - 1 : i] in ORDER_VERBS else i
            first = i - 2 if terms else first
            if sig.phrase_at(self.lows, at, sig.COUNT_WORDS) and not self.count:
                if self._order_by_count(at, self._by_direction(at)):
                    self.use(first, at)
                    return True
                continue
            aggregate = sig.AGGREGATES.get(self.lows[at]) if at < len(self.lows) else None
            measured = self._measure_after(at) if aggregate else None
            if measured is None:
                continue
            self.use(first, at + 1)
            element = self.take(measured)
            descending = self._by_direction(at)
            self.intent.order = Ordering(element, descending, aggregate=aggregate)
            self.intent.need(element.table)
            return True
        return False

    def _by_direction(self, at: int) -> bool:
        """Which way rows "by" something go: as said after it ("fewest first"), else
        highest first after "top" or a word for it, lowest after a bare "sorted by"."""
        said = self._which_first(at)
        if said is not None:
            return said
        lows = set(self.lows)
        descending = bool(lows & (sig.DESCENDING_ORDER | {"top"}))
        return descending and not lows & (sig.ASCENDING | {"ascending", "bottom"})

    def _measure_after(self, at: int) -> Choice | None:
        """The first measure named within three words ("total invoiced amount")."""
        return next(
            (
                c for c in self.chosen.choices
                if at < c.start <= at + 3 and not c.is_value and not c.is_table
                and self.free(c) and self.holds_numbers(c.link.element)
            ),
            None,
        )  # fmt: skip

    def _which_first(self, start: int) -> bool | None:
        """ "highest first", "lowest last": the direction, in words that are no column
        (not `first_name`), "from low to high"; None where the order does not say which
        comes first."""
        span = sig.from_to(self.lows)
        if span is not None:
            self.use(*span[:2])
            return span[2]
        for n in range(start + 1, min(len(self.lows), start + 7)):
            said, before = self.lows[n], self.lows[n - 1]
            high, low = before in sig.DESCENDING | sig.DESCENDING_ORDER, before in sig.ASCENDING
            if said in ("first", "last") and (high or low):
                self.use(n - 1, n + 1)
                self.taken.add(n)  # not the column the word meets
                if before in _OF_AGE_OR_DATE:
                    return None  # "oldest first": the greatest age, or the earliest date
                return high == (said == "first")
        return None

    def _order_by_count(self, at: int, descending: bool) -> bool:
        """ "sorted by the number of airports", "in descending order of the count": rows
        counted, not a column, when a count is asked for too or a table follows."""
        while at < len(self.lows) and (
            self.lows[at] in sig.DETERMINERS or [self.lows[at]] in _DIRECTIONS
        ):
            at += 1  # "in descending order of their corresponding number of guests"
        frequency = self.lows[at : at + 1] == ["frequency"]  # how often each value occurs
        size = sig.phrase_at(self.lows, at, sig.COUNT_WORDS) or int(frequency)
        if not size:
            return False
        named = self.chosen.at(at)  # "number of apartments" as apt_number: the rows counted
        if named is not None and self.free(named) and not named.is_value:
            if self.holds_numbers(named.link.element):
                return False
            self.take(named)
        counted = self.chosen.after(at + size - 1, within=2)
        if counted is not None and not counted.is_table:
            if self.holds_numbers(counted.link.element):
                return False  # "the number of points": a column that holds it
            counted = None
        if counted is None and not self.count and not frequency:
            return False
        if counted is not None and self.free(counted):
            self.intent.counted = self.take(counted).table
            self.intent.need(self.intent.counted)
        self.intent.order = Ordering(None, descending, aggregate="count")
        self.use(at, at + size + (counted is not None))
        return True
