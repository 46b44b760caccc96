"""Reading a linked question's parts (`Intent`) from its words and links.

Each step takes the words it explains: values become conditions, a number after "more
than" a comparison on the measure next to it (or a count of rows when a table follows),
"for each X" a grouping, "ordered by X" an ordering, a superlative an ordering with a limit,
"no"/"without" before a table the rows that must be missing; the columns left over are
what the question asks for.
"""

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.conditions import ConditionSteps
from sqlagent.linking.intent import Intent, Ordering, Output
from sqlagent.linking.reading_base import Unreadable
from sqlagent.linking.schema_words import Element

__all__ = ["Reader", "Unreadable"]


class Reader(ConditionSteps):
    def read(self) -> Intent:
        self._counting()
        self._values()
        self._patterns()
        self._comparisons()
        self._numbered()
        self._groups()
        self._orders()
        self._superlatives()
        self._missing()
        self._joined()
        self._outputs()
        self._anchor_and_tables()
        return self.intent

    def _counting(self) -> None:
        for i in range(len(self.lows)):
            size = sig.phrase_at(self.lows, i, sig.COUNT_WORDS)
            if size and self._superlative_before(i):
                size = 0  # "the most number of orders": an ordering, read with superlatives
            measured = self.chosen.after(i + size - 1, within=2) or self.chosen.at(i)
            distinct = i + size < len(self.lows) and self.lows[i + size] in sig.DISTINCT_WORDS
            numeric = measured is not None and self.holds_numbers(measured.link.element)
            if numeric and not distinct and measured is not None and not measured.is_value:
                size = 0  # "the number of points", "the total number of customers" (a column)
            if size and not self.count:
                self.count = True
                self.use(i, i + size)
                for choice in self.chosen.choices:  # "number" is not apt_number here
                    if i <= choice.start < i + size and not choice.is_value:
                        self.take(choice)
                if i + size < len(self.lows) and self.lows[i + size] in sig.DISTINCT_WORDS:
                    self.count_distinct = True
                    self.use(i + size, i + size + 1)
            size = sig.phrase_at(self.lows, i, sig.EVERYTHING)
            if size:
                self.intent.star = True
                self.use(i, i + size)
            if self.lows[i] in sig.DISTINCT_WORDS and not self.count_distinct:
                self.intent.distinct = True
                self.use(i, i + 1)

    def _groups(self) -> None:
        for i in range(len(self.lows)):
            size = sig.phrase_at(self.lows, i, sig.GROUP_WORDS)
            if not size:
                continue
            target = self.next_choice(i + size)
            if target is None or target.is_value:
                continue
            self.use(i, i + size)
            element = self.take(target)
            self.intent.group = element if element.column else self.label(element.table)
            self.intent.need(element.table)
            return

    def _orders(self) -> None:
        for i in range(len(self.lows)):
            size = sig.phrase_at(self.lows, i, sig.ORDER_WORDS)
            if not size and self.lows[i] in sig.ORDER_VERBS:
                size = next((n + 1 for n in (1, 2, 3) if self.lows[i + n : i + n + 1] == ["by"]), 0)
            if not size:
                continue
            self.use(i, i + size)
            near = [
                c for c in self.chosen.choices
                if i + size <= c.start <= i + size + 3 and self.free(c) and not c.is_value
            ]  # fmt: skip
            columns = [c for c in near if not c.is_table]
            target = columns[0] if columns else (near[0] if near else None)
            window = set(self.lows[i : i + size + 6])
            descending = bool(window & sig.DESCENDING_ORDER)
            self.use(i + size, min(len(self.lows), i + size + 6))
            if target is not None and not target.is_value:
                element = self.take(target)
                shown = element if element.column else self.label(element.table)
                self.intent.order = Ordering(shown, descending)
                self.intent.need(element.table)
            return
        lows = set(self.lows)
        if sig.ALPHABETICAL.search(" ".join(self.lows)) or {"ascending", "descending"} & lows:
            self.intent.order = Ordering(None, "descending" in lows, aggregate="output")
            self.use(0, 0)

    def _superlative_before(self, i: int) -> bool:
        before = self.lows[i - 1] if i else ""
        superlative = before in sig.DESCENDING or before in sig.ASCENDING
        return (superlative or before in sig.EXTREMES) and self.lows[i - 2 : i - 1] != ["at"]

    def _superlatives(self) -> None:
        for i, low in enumerate(self.lows):
            counting = tuple(self.lows[i + 1 : i + 3]) in sig.COUNTED_BY
            if low not in sig.DESCENDING and low not in sig.ASCENDING:
                if self._extreme_count(i, counting):
                    return
                continue
            if i and self.lows[i - 1] == "at":  # "at least", "at most": a comparison
                continue
            if self._listed(i):
                continue  # an aggregate, read with the column it comes before
            descending = low in sig.DESCENDING
            if counting:  # read as a count or not at all: "number" is no column here
                if self._counted(i, descending):
                    return
                continue
            number = self.words[i + 1].number if i + 1 < len(self.words) else None
            if low in sig.ONLY_WITH_NUMBER and not number:
                continue
            before = self._number_before(i)
            if self._adjective_superlative(i, low, int(before) if before else 1):
                return
            limit = int(number) if number and low in ("top", "first", "last") else 1
            if before and not number:
                limit = int(before)  # "the five oldest people"
            if self._superlative_order(i, low, number) or (
                low in ("top", "first", "last") and number
            ):
                self.intent.limit = limit  # "the first 5" alone: a limit on another order
                self.use(i, i + (2 if number else 1))
                return

    def _listed(self, i: int) -> bool:
        """ "the highest and lowest prices", "the average and oldest age": a superlative
        listed beside another aggregate."""
        kinds = set(sig.AGGREGATES) | set(sig.LISTED_AGGREGATES)
        after = [w for w in self.lows[i + 1 : i + 4] if w != "the"]
        before = [w for w in self.lows[max(0, i - 3) : i] if w != "the"]
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
        if follows is None or follows.is_table or follows.is_value:
            return False
        if not follows.link.element.numeric:
            return False
        self.intent.order = Ordering(self.take(follows), sig.EXTREMES[low])
        self.intent.limit = 1
        self.use(i - 2, i + 1)
        return True

    def _superlative_order(self, i: int, low: str, number: float | None) -> bool:
        descending = low in sig.DESCENDING
        counts = low in ("most", "fewest", "least")
        follows = self.next_choice(i + (2 if number else 1), within=3)
        if follows is not None and follows.is_table and not counts:
            # "the greatest body weight": the measure after the table's word
            after = self.next_choice(follows.end, within=2)
            if after is not None and not after.is_table and after.link.element.numeric:
                follows = after
        if follows is not None and follows.is_table and counts:
            self.intent.counted = self.take(follows).table
            self.intent.need(self.intent.counted)
            self.intent.order = Ordering(None, descending, aggregate="count")
        elif (
            follows is not None
            and not follows.is_value
            and not follows.is_table
            and (follows.link.element.numeric or follows.start == i + 1)
        ):
            self.intent.order = Ordering(self.take(follows), descending)
        elif low in sig.DIMENSIONS and (element := self._dimension(sig.DIMENSIONS[low])):
            self.intent.order = Ordering(element, descending)
        else:
            return False
        return True

    def _counted(self, i: int, descending: bool) -> bool:
        """ "the most number of orders": rows of a table counted per row; "the largest number
        of bedrooms": a column that holds the count."""
        near = [
            c for c in self.chosen.choices
            if i < c.start <= i + 5 and self.free(c) and not c.is_value
        ]  # fmt: skip
        follows = next((c for c in near if c.end > i + 3), None)
        if follows is None:
            return False
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
        before = self._number_before(i)
        self.intent.limit = int(before) if before else 1
        self.use(i, i + 3)
        return True

    def _adjective_superlative(self, i: int, low: str, limit: int) -> bool:
        """ "the most expensive" (a measure's adjective), "the most common X" (a count)."""
        adjective = self.lows[i + 1] if i + 1 < len(self.lows) else ""
        if low in ("most", "least") and adjective in sig.DIMENSIONS:
            element = self._dimension(sig.DIMENSIONS[adjective])
            if element is None:
                return False
            self.intent.order = Ordering(element, low == "most")
        elif adjective in ("common", "popular", "frequent"):
            follows = self.next_choice(i + 2, within=3)
            before = self.chosen.before(i, within=4)
            # "the color that is most common (across all products)": what comes before
            if self._subject_before(before, i):
                follows = before
            if follows is None or follows.is_value:
                return False
            element = self.take(follows)
            self.intent.group = element if element.column else self.label(element.table)
            self.intent.order = Ordering(None, low in sig.DESCENDING, aggregate="count")
        else:
            return False
        self.intent.limit = limit
        self.use(i, i + 2)
        return True

    def _subject_before(self, before: Choice | None, i: int) -> bool:
        if before is None or before.is_table or before.is_value or not self.free(before):
            return False
        return set(self.lows[before.end : i]) <= sig.LINKING_WORDS

    def _missing(self) -> None:
        for i, low in enumerate(self.lows):
            if low not in sig.NEGATIONS or i in self.intent.used:
                continue
            target = self.next_choice(i + 1, within=5)
            if target is not None and target.is_table:
                self.intent.missing = self.take(target).table
                self.use(i, target.start)
                return

    def _outputs(self) -> None:
        for choice in self.chosen.choices:
            if not self.free(choice) or choice.is_value or choice.is_table:
                continue
            element = self._labelled(choice, self.take(choice))
            aggregates = self._aggregates_before(choice.start)
            if self.count and not aggregates and self.count_distinct:
                aggregates = ["count"]
            for aggregate in aggregates or [""]:
                distinct = aggregate == "count" and self.count_distinct
                self.intent.outputs.append(Output(element, aggregate or None, distinct=distinct))
        if not self.count and not any(o.element for o in self.intent.outputs):
            self._how_measure()
        self._postfix_aggregate()
        if self.count and not any(o.aggregate == "count" for o in self.intent.outputs):
            self.intent.outputs.append(Output(None, "count"))

    def _aggregates_before(self, index: int) -> list[str]:
        """ "the average and total capacity", "the highest and lowest price": each
        aggregate word before the column."""
        found: list[str] = []
        n = index - 1
        while n >= 0 and index - n <= 6:
            low = self.lows[n]
            if low in sig.AGGREGATES:
                found.insert(0, sig.AGGREGATES[low])
                self.use(n, n + 1)
            elif low in sig.LISTED_AGGREGATES and self._listed(n):
                found.insert(0, sig.LISTED_AGGREGATES[low])
                self.use(n, n + 1)
            elif low not in ("and", ",", "the", "or", "number", "amount", "of") and not (
                self._table_word(n)  # "the average room price"
            ):
                break
            n -= 1
        return found

    def _table_word(self, n: int) -> bool:
        found = self.chosen.at(n)
        return found is not None and found.is_table

    def _postfix_aggregate(self) -> None:
        """ "how old are the students on average": the measure asked for, then aggregated."""
        for i in range(len(self.lows)):
            found = [
                (p, a) for p, a in sig.POSTFIX_AGGREGATES if tuple(self.lows[i : i + len(p)]) == p
            ]
            if not found or i in self.intent.used:
                continue
            phrase, aggregate = found[0]
            outputs = self.intent.outputs
            plain = [
                n for n, o in enumerate(outputs)
                if o.element is not None and o.element.numeric and not o.aggregate
            ]  # fmt: skip
            if plain:
                outputs[plain[0]] = Output(outputs[plain[0]].element, aggregate)
                self.use(i, i + len(phrase))
            return

    def _how_measure(self) -> None:
        """ "how old", "how tall": the measure the adjective names is asked for."""
        for i in range(len(self.lows) - 1):
            if self.lows[i] != "how" or self.lows[i + 1] not in sig.HOW_MEASURES:
                continue
            element = self._dimension(sig.HOW_MEASURES[self.lows[i + 1]])
            if element is not None:
                self.intent.outputs.append(Output(element))
                self.use(i, i + 2)
            return

    def _labelled(self, choice: Choice, element: Element) -> Element:
        """ "the names of the aircraft": a name in no table the question names is the
        label of the table named right after it; "the id of the student" is its key."""
        tables = self.chosen.tables
        lemma = self.words[choice.start].lemma
        if tables and lemma == "id" and choice.end - choice.start == 1:
            following = self._table_after(choice.end)
            keys = [
                e for e in self.schema.elements
                if e.table == following and e.primary_key and e.names[0][0][-1:] == ("id",)
            ]  # fmt: skip
            return keys[0] if len(keys) == 1 else element
        if not tables or element.table in tables or lemma not in ("name", "title"):
            return element
        found = self.chosen.after(choice.end - 1, within=3)
        if found is not None and found.is_table:
            return self.named_label(found.table) or element
        return element

    def _table_after(self, end: int) -> str | None:
        """The table an "of the" after the asked columns names: "the id and name of the
        student"."""
        for n in range(end, min(len(self.lows), end + 8)):
            if self.lows[n] == "of":
                found = self.chosen.after(n, within=2)
                return found.table if found is not None and found.is_table else None
        return None

    def _anchor_and_tables(self) -> None:
        intent = self.intent
        tables = [t for t in self.chosen.tables if t != intent.missing]
        plain = [o for o in intent.outputs if o.element is not None]
        if any(o.element.table == intent.missing for o in plain if o.element):
            raise Unreadable(f"it asks about {intent.missing} rows and for ones that are missing")
        if tables:
            intent.anchor = tables[0]
        elif plain:
            assert plain[0].element is not None
            intent.anchor = plain[0].element.table
        elif intent.conditions:
            intent.anchor = intent.conditions[0].element.table
        else:
            raise Unreadable("the question names no table, column or value I know")
        for table in tables:
            intent.need(table)
        for choice in self.chosen.choices:
            if choice.is_table:
                self.use(choice.start, choice.end)
        self._settle_outputs()

    def _settle_outputs(self) -> None:
        """Grouping without a count or total lists pairs; an empty list shows labels."""
        intent = self.intent
        aggregated = any(o.aggregate for o in intent.outputs) or bool(
            intent.order and intent.order.aggregate == "count"
        )
        if intent.group is not None and not aggregated and intent.having is None:
            intent.outputs.insert(0, Output(intent.group))  # "for each delegate, the party"
            intent.group = None
        elif (
            intent.group is not None and intent.outputs and all(o.aggregate for o in intent.outputs)
        ):
            intent.outputs.insert(0, Output(intent.group))
        intent.outputs = list(dict.fromkeys(intent.outputs))
        if not intent.outputs and not intent.star:
            subject = intent.group or self.label(intent.anchor)
            if subject is None:
                raise Unreadable(f"I do not know what to show of {intent.anchor}")
            intent.outputs.append(Output(subject))
        used = [o.element for o in intent.outputs] + [c.element for c in intent.conditions]
        used += [c.element for c in intent.both] + [intent.group]
        used += [intent.order.element if intent.order else None]
        named = [e.table for e in used if e is not None and e.table != intent.missing]
        intent.tables = list(dict.fromkeys([intent.anchor, *intent.tables, *named]))
        if intent.missing in intent.tables:
            intent.tables.remove(intent.missing)
