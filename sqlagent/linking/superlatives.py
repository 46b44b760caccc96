"""The reading steps that find superlatives: an ordering with a limit ("the five oldest"),
a count per value ("the most common"), the extreme in each group ("the youngest person for
each job") or the extreme value asked ("what is the highest elevation")."""

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.intent import Ordering, Output
from sqlagent.linking.reading_base import ReaderBase
from sqlagent.linking.schema_words import Element, stem

# Superlatives of time and whether the latest comes first: "the oldest order".
_IN_TIME = {"oldest": False, "earliest": False, "first": False, "newest": True, "latest": True,
            "recent": True, "recently": True, "last": True, "youngest": True}  # fmt: skip


# Before a superlative's row that holds the rows asked about: "in the largest district".
_HOLDING = frozenset({"in", "on", "at", "from", "within", "into", "under", "inside"})


_STARTING = (["starting", "with"], ["beginning", "with"], ["starting", "from"])


_PICKING = (["with", "the"], ["has", "the"], ["have", "the"])  # "the room with the highest"


class SuperlativeSteps(ReaderBase):
    def _superlative_before(self, i: int) -> bool:
        before = self.lows[i - 1] if i else ""
        superlative = before in sig.DESCENDING or before in sig.ASCENDING
        return (superlative or before in sig.EXTREMES) and self.lows[i - 2 : i - 1] != ["at"]

    def _superlatives(self) -> None:
        """The first superlative read; "the top 10 airlines that operate the most routes":
        a limit, then the superlative that orders."""
        top = self._superlatives_from(0)
        if top:
            self.intent.limit = top
        else:
            self._extreme_asked()

    def _extreme_asked(self) -> None:
        """ "What is the highest elevation of an airport in Iceland?", "Return the maximum
        number of points": the extreme value itself is asked, not the row that has it."""
        order = self.intent.order
        if order is None or order.element is None or order.aggregate or self.intent.limit != 1:
            return
        first = next((n for n, low in enumerate(self.lows) if low not in sig.ASKING), None)
        if first is None or self.lows[first] not in sig.SUPERLATIVES:
            return
        named = self.chosen.after(first, within=4)
        if named is None or named.link.element != order.element:
            return
        self.intent.outputs.append(Output(order.element, "max" if order.descending else "min"))
        self.intent.order, self.intent.limit = None, None

    def _superlatives_from(self, start: int) -> int:
        """Reads the first superlative from `start` on; returns the limit a "top N" before
        it sets (0 when none)."""
        for i, low in enumerate(self.lows):
            if i < start or i in self.intent.used:  # "the last 30 days": a period, read
                continue
            counting = tuple(self.lows[i + 1 : i + 3]) in sig.COUNTED_BY
            if low not in sig.DESCENDING and low not in sig.ASCENDING:
                if self._extreme_count(i, counting):
                    return 0
                continue
            if i and self.lows[i - 1] == "at":  # "at least", "at most": a comparison
                continue
            if self._names_a_column(i):
                self.use(i, i + 1)
                continue
            if self._listed(i):
                continue  # an aggregate, read with the column it comes before
            descending = low in sig.DESCENDING
            if counting:  # read as a count or not at all: "number" is no column here
                if self._counted(i, descending):
                    self._picked_holder(i)
                    return 0
                continue
            number = self.words[i + 1].number if i + 1 < len(self.words) else None
            if low in sig.ONLY_WITH_NUMBER and not number:
                continue
            read = self._superlative_at(i, low, number)
            if read is not None:
                return read
        return 0

    def _superlative_at(self, i: int, low: str, number: float | None) -> int | None:
        """The superlative at `i` read (None when it is not one): 0, or the limit of a "top
        N" that leaves the ordering to a later superlative."""
        before = self._number_before(i)
        if self._adjective_superlative(i, low, int(before) if before else 1):
            return 0
        limit = int(number) if number and low in ("top", "first", "last") else 1
        if before and not number:
            limit = int(before)  # "the five oldest people"
        if self._superlative_order(i, low, number):
            self.use(i, i + (2 if number else 1))
            if not before and not number:
                limit = self._rows_kept(i) or limit
            if self._order_from(i):
                return 0  # every row, in that order
            picked = self.lows[max(0, i - 2) : i] in _PICKING
            if picked or not self._extreme_per_group():
                self.intent.limit = limit
            self._picked_holder(i)
            return 0
        if low in ("top", "first", "last") and number:
            self.use(i, i + 2)  # "the first 5" alone: a limit on another order
            self.intent.limit = limit
            self._superlatives_from(i + 2)
            return limit
        return None

    def _names_a_column(self, i: int) -> bool:
        """ "the latest logon" beside `date_of_latest_logon`: a superlative that is a word of
        the column named right next to it is part of that name and orders nothing, unless
        a row is picked by it ("the catalog with the latest revision date")."""
        if self.lows[max(0, i - 2) : i] in _PICKING:
            return False
        return any(
            (choice.start in (i + 1, i + 2) or choice.end in (i, i - 1))
            and not choice.is_table
            and not choice.is_value
            and any(self.lows[i] in words for words, _ in choice.link.element.names)
            for choice in self.chosen.choices
        )

    def _kept_count(self, rows: Choice) -> Element | None:
        """A column of another table the question names that keeps the count of `rows`
        (`Number_of_hosts`, `host_count`): what "the most hosts" orders by there."""
        if not rows.is_table:
            return None
        said = self.words[rows.end - 1].lemma
        names = (("number", "of", said), ("number", said), (said, "count"), (said, "number"))
        kept = {tuple(stem(w) for w in name) for name in names}
        named = {c.table for c in self.chosen.choices} - {rows.table}
        found = [
            e
            for e in self.schema.elements
            if e.table in named and e.numeric and tuple(stem(w) for w in e.names[0][0]) in kept
        ]
        return found[0] if len(found) == 1 else None

    def _order_from(self, i: int) -> bool:
        """ "from the most recent to the oldest", "starting with the oldest": the order of
        all the rows, not the one at the top."""
        at = i - (self.lows[i - 1 : i] == ["the"])
        end = next((n for n in range(i + 1, min(i + 5, len(self.lows))) if self.lows[n] == "to"), 0)
        # "from" alone may say where the rows are ("stores from the largest district")
        to_other_end = bool(end) and bool(set(self.lows[end + 1 : end + 3]) & sig.SUPERLATIVES)
        from_to = self.lows[at - 1 : at] == ["from"] and to_other_end
        if not from_to and self.lows[at - 2 : at] not in _STARTING:
            return False
        if to_other_end:
            self.use(end, end + 3)  # "to the oldest": the same order's other end
        return True

    def _rows_kept(self, i: int) -> int:
        """ "the names of 5 users followed by the largest number of other users": a number
        said right before the rows asked about is how many to keep (0: none said)."""
        for n in range(i - 1):
            rows = self.chosen.at(n + 1)
            number = self.words[n].number
            if number is None or n in self.intent.used or rows is None or not rows.is_table:
                continue
            if rows.start == n + 1 and number == int(number) > 1:
                self.use(n, n + 1)
                return int(number)
        return 0

    def _extreme_per_group(self) -> bool:
        """ "the youngest person for each job", "the smallest salary in every department":
        the measure's extreme in each group, not the one row at the top."""
        order, group = self.intent.order, self.intent.group
        if order is None or group is None or order.aggregate or order.element is None:
            return False
        if order.element == group or not order.element.column:
            return False
        aggregate = "max" if order.descending else "min"
        self.intent.outputs.append(Output(order.element, aggregate))
        self.intent.order = None
        return True

    def _listed(self, i: int) -> bool:
        """ "the highest and lowest prices", "the average and oldest age": a superlative
        listed beside another aggregate."""
        kinds = set(sig.AGGREGATES) | set(sig.LISTED_AGGREGATES)
        after = [w for w in self.lows[i + 1 : i + 4] if w != "the"]
        before = [w for w in self.lows[max(0, i - 3) : i] if w != "the"]
        if after[:1] and after[0] in kinds and after[1:2] == ["and"]:
            return True  # "the highest, lowest and average cost" (commas are no words)
        said = self.chosen.at(i + 1)
        if said is not None and not said.is_table and not said.is_value:
            # "the highest cost, lowest cost and average cost": each with its column
            others = [w for w in self.lows[said.end : said.end + 2] if w != "and"]
            if others[:1] and others[0] in kinds:
                return True
            heads = [w for w in self.lows[max(0, i - 3) : i] if w != "and"]
            if len(heads) >= 2 and heads[-2] in kinds and self.chosen.at(i - 1) is not None:
                return True
        return (after[:1] in (["and"], [","]) and after[1:2] != [] and after[1] in kinds) or (
            before[-1:] in (["and"], [","]) and len(before) > 1 and before[-2] in kinds
        )

    def _extreme_count(self, i: int, counting: bool) -> bool:
        """ "the maximum number of stops", but not "the maximum and minimum number"; "the
        room with the maximum occupancy" (the room, not the maximum)."""
        low = self.lows[i]
        if low not in sig.EXTREMES or self.lows[i - 1 : i] in (["and"], ["or"], [","]):
            return False
        if counting:
            return self._counted(i, sig.EXTREMES[low])
        if self.lows[max(0, i - 2) : i] not in (["with", "the"], ["has", "the"], ["had", "the"]):
            return False
        follows = self.next_choice(i + 1, within=2)
        here = self.chosen.at(i)
        if here is not None and here.start == i:
            follows = here  # `maxOccupancy` named with its extreme: still the room's order
        if follows is None or follows.is_table or follows.is_value:
            return False
        if not follows.link.element.numeric:
            return False
        self.intent.order = Ordering(self.take(follows), sig.EXTREMES[low])
        self.intent.limit = 1
        self.use(i - 2, i + 1)
        self._picked_holder(i)
        return True

    def _picked_holder(self, i: int) -> None:
        """ "the cities in the county with the most police officers", "the stores in the
        largest district": the superlative picks the row that holds the rows asked about
        (all of them), not one of those rows."""
        order = self.intent.order
        if order is None or order.element is None or self.intent.limit != 1:
            return
        holder = self.chosen.after(i, within=1)  # "in the largest district"
        at = i - 1
        if self.lows[i - 2 : i] in (["with", "the"], ["has", "the"], ["have", "the"]):
            at = i - 2 - (self.lows[i - 3 : i - 2] in (["that"], ["which"], ["who"]))
            holder = self.chosen.before(at, within=1)  # "in the county with the most"
            at = holder.start - 1 if holder is not None else at
        if holder is None or not holder.is_table or holder.table != order.element.table:
            return
        if (
            self.lows[at : at + 1] == ["the"]
            and self.lows[at - 1 : at]
            and (self.lows[at - 1] in _HOLDING)
        ):
            self.intent.picked = holder.table

    def _superlative_order(self, i: int, low: str, number: float | None) -> bool:
        descending = low in sig.DESCENDING
        counts = low in ("most", "fewest", "least")
        follows = self.next_choice(i + (2 if number else 1), within=3)
        if follows is not None and follows.is_table and not counts:
            # "the greatest body weight": the measure after the table's word, or after
            # "in terms of" ("the top 3 players in terms of overall rating")
            in_terms = self.lows[follows.end : follows.end + 3] == ["in", "terms", "of"]
            after = self.next_choice(follows.end + 3 * in_terms, within=2)
            if after is not None and not after.is_table and after.link.element.numeric:
                follows = after
        kept = self._kept_count(follows) if follows is not None and counts else None
        if follows is not None and kept is not None:
            self.take(follows)  # "the party with the most hosts": party.Number_of_hosts
            self.unsaid.add(follows.start)  # the hosts themselves are not read
            self.intent.order = Ordering(kept, descending)
        elif follows is not None and follows.is_table and counts:
            self.intent.counted = self.take(follows).table
            self.intent.need(self.intent.counted)
            self.intent.order = Ordering(None, descending, aggregate="count")
        elif (
            follows is not None
            and not follows.is_value
            and not follows.is_table
            and (follows.link.element.numeric or follows.start == i + 1)
            and not (low in sig.DIMENSIONS and self._names_a_row(follows.link.element))
        ):
            # "the highest total gross": the aggregate of each row's measure
            said = [n for n in range(i + 1, follows.start) if self.lows[n] in sig.AGGREGATES]
            aggregate = sig.AGGREGATES[self.lows[said[0]]] if said else None
            self.use(i + 1, follows.start)
            if _a_rank(follows.link.element) and low in _OF_PLACE:
                descending = not descending  # "the highest rank" is rank 1
            self.intent.order = Ordering(self.take(follows), descending, aggregate=aggregate)
        elif low in sig.DIMENSIONS and (element := self._dimension(sig.DIMENSIONS[low])):
            self.intent.order = Ordering(element, descending)
        elif low in _IN_TIME and (element := self._time_of(follows)):
            # "the oldest order": the earliest date; "the most recent crime": the latest
            self.intent.order = Ordering(element, _IN_TIME[low])
        else:
            return False
        return True

    def _names_a_row(self, element: Element) -> bool:
        """A key, or a column holding another table's key: "the youngest winning pilot" is
        the pilot with the least age, not the least `Winning_Pilot` id."""
        return self.a_key(element) or (element.table, element.column) in self.schema.referring

    def _time_of(self, named: Choice | None) -> Element | None:
        """When the rows happened: a date of the table named, else its year ("the oldest
        movie": `Movie.year`, not the date another table's rows were made), else a date of
        the question's tables, else their year."""
        if named is not None and named.is_table:
            dates = self.dates_of([named.table])
            if len(dates) == 1:
                return dates[0]
            if not dates and (year := self._measure_in(named.table, ("year",))):
                return year
        return self.date_column() or self._dimension(("year",))

    def _counted(self, i: int, descending: bool) -> bool:
        """ "the most number of orders": rows of a table counted per row; "the largest number
        of bedrooms": a column that holds the count."""
        near = [
            c for c in self.chosen.choices
            if i < c.start <= i + 5 and self.free(c) and not c.is_value
        ]  # fmt: skip
        follows = next((c for c in near if c.end > i + 3), None)
        if follows is None:
            return self._most_times(i, descending)
        if follows.is_table:
            self.intent.counted = follows.table
            self.intent.need(follows.table)
            self.intent.order = Ordering(None, descending, aggregate="count")
        elif follows.link.element.numeric:
            self.intent.order = Ordering(follows.link.element, descending)
        else:  # "the most number of allergies": the rows holding them, counted
            self.intent.order = Ordering(None, descending, aggregate="count")
        for choice in near:  # "number" is not apt_number here
            if choice.start < follows.end:
                self.take(choice)
        before = self._number_before(i) or self._rows_kept(i)
        self.intent.limit = int(before) if before else 1
        self.use(i, i + 3)
        return True

    def _most_times(self, i: int, descending: bool) -> bool:
        """ "has used party services the greatest number of times": the rows each one has,
        counted ("the least amount of time" is a length of time, no count)."""
        at = i + 1 + sig.phrase_at(self.lows, i + 1, sig.COUNTED_BY)
        if at >= len(self.lows) or self.lows[at] not in sig.ROW_NOUNS:
            return False
        if self.words[at].lemma == self.lows[at]:
            return False
        self.intent.order = Ordering(None, descending, aggregate="count")
        before = self._number_before(i) or self._rows_kept(i)
        self.intent.limit = int(before) if before else 1
        self.use(i, at + 1)
        return True

    def _adjective_superlative(self, i: int, low: str, limit: int) -> bool:
        """ "the most expensive" (a measure's adjective), "the most common X" (a count)."""
        adjective = self.lows[i + 1] if i + 1 < len(self.lows) else ""
        if low in ("most", "least") and adjective in sig.DIMENSIONS:
            element = self._dimension(sig.DIMENSIONS[adjective])
            if element is None and adjective in _IN_TIME:
                # "the appointment that started most recently": the date said before it,
                # else the date of the rows asked about
                element = self.date_named_before(i) or self.date_column()
            if element is None:
                return False
            self.intent.order = Ordering(element, low == "most")
        elif adjective in sig.FREQUENCY:
            follows = self.next_choice(i + 2, within=3)
            # "the color that is most common (across all products)": what comes before
            before = self._subject_before(i)
            if before is not None:
                follows = before
            if follows is None or follows.is_value:
                return False
            element = self.take(follows)
            self.intent.group = element if element.column else self.label(element.table)
            self.intent.order = Ordering(None, low in sig.DESCENDING, aggregate="count")
        else:
            return False
        self.use(i, i + 2)
        # "from the most recent to the oldest": every row in that order
        self.intent.limit = None if self._order_from(i) else limit
        return True

    def _subject_before(self, i: int) -> Choice | None:
        """ "the color that is most common", "the job id that employees hold most often":
        the column before linking words, or before a relative clause of a few words."""
        before = self.chosen.before(i, within=4)
        named = self.free_column(before) or (
            before is not None
            and before.is_table
            and self.free(before)
            and self.lows[before.start - 1 : before.start] in (["which"], ["what"])
            and set(self.lows[before.end : i]) <= sig.LINKING_WORDS
        )  # "which allergy type is the least common": the rows asked about, by their label
        if (
            named
            and before is not None
            and len(set(self.lows[before.end : i]) - sig.LINKING_WORDS) <= 1
        ):
            return before  # "the method (that is) used the most often": a verb at most
        clause = [n for n in range(max(0, i - 5), i) if self.lows[n] in ("that", "which")]
        if not clause:
            return None
        before = self.chosen.before(clause[-1], within=2)
        linked = not set(self.lows[clause[-1] + 1 : i]) - sig.LINKING_WORDS
        if before is not None and before.is_table and linked:  # "the class of races that is"
            of = before.start - 1 - (self.lows[before.start - 1 : before.start] == ["the"])
            before = self.chosen.before(of, within=1) if self.lows[of : of + 1] == ["of"] else None
        return before if self.free_column(before) else None


# Superlatives of a place in an order: the highest or best rank is the first.
_OF_PLACE = frozenset({"highest", "best", "top", "lowest", "worst"})


def _a_rank(element: Element) -> bool:
    """A column that holds places in an order ("Rank", `ranking`): 1 comes first."""
    return any(name and name[-1] in ("rank", "ranking") for name, _ in element.names)
