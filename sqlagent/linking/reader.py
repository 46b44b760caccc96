"""Reading a linked question's parts (`Intent`) from its words and links.

Each step takes the words it explains: values become conditions, a number after "more
than" a comparison on the measure next to it (or a count of rows when a table follows),
"for each X" a grouping, "ordered by X" an ordering, a superlative an ordering with a limit,
"no"/"without" before a table the rows that must be missing; the columns left over are
what the question asks for.
"""

from itertools import pairwise

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice, Chosen
from sqlagent.linking.intent import Condition, Intent, Ordering, Output
from sqlagent.linking.question import Word
from sqlagent.linking.schema_words import Element, SchemaWords


class Unreadable(Exception):
    """The question's parts could not be placed; the message says which."""


class Reader:
    def __init__(self, words: tuple[Word, ...], chosen: Chosen, schema: SchemaWords) -> None:
        self.words = words
        self.lows = sig.lowers(words)
        self.chosen = chosen
        self.schema = schema
        self.taken: set[int] = set()  # indexes of choices already given a part
        self.intent = Intent(anchor="")
        self.count = False
        self.count_distinct = False

    # -- helpers -------------------------------------------------------------------------
    def use(self, start: int, end: int) -> None:
        self.intent.used.update(range(start, end))

    def take(self, choice: Choice) -> Element:
        self.taken.add(choice.start)
        self.use(choice.start, choice.end)
        return choice.link.element

    def free(self, choice: Choice | None) -> bool:
        return choice is not None and choice.start not in self.taken

    def next_choice(self, index: int, within: int = 3) -> Choice | None:
        found = self.chosen.after(index - 1, within=within)
        return found if self.free(found) else None

    def column_of(self, table: str, words: tuple[str, ...]) -> Element | None:
        for element in self.schema.elements:
            named = any(set(words) & set(name) for name, _ in element.names)
            if element.table == table and element.column and named:
                return element
        return None

    def named_label(self, table: str) -> Element | None:
        """The column that names the table's rows: a name, title or label."""
        columns = [e for e in self.schema.elements if e.table == table and e.column]
        for word in ("name", "title", "label"):
            for element in columns:
                if element.names[0][0][-1:] == (word,):
                    return element
        return None

    def label(self, table: str) -> Element | None:
        """What to show of a table's rows: its name, else its first text column (a guess
        the evidence records), else its key."""
        found = self.named_label(table)
        if found is not None:
            return found
        self.intent.guessed_label = True
        columns = [e for e in self.schema.elements if e.table == table and e.column]
        text = [e for e in columns if e.data_type == "text" and not e.primary_key]
        return text[0] if text else next((e for e in columns if e.primary_key), None)

    # -- the steps -----------------------------------------------------------------------
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
            measured = self.chosen.after(i + size - 1, within=2)
            if measured is not None and measured.link.element.numeric and not measured.is_value:
                size = 0  # "the number of points", "how many milliseconds": a measure
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

    def _values(self) -> None:
        values = [c for c in self.chosen.choices if c.is_value]
        for n, choice in enumerate(values):
            element = self.take(choice)
            since = values[n - 1].end if n else 0
            before = self.lows[max(since, choice.start - 7) : choice.start]
            op = "like" if set(before[-4:]) & sig.LIKE_WORDS else "="
            if set(before) & sig.NEGATIONS and not self._negates_table(
                choice.start - len(before), choice.start
            ):
                op = "!="
                self.use(choice.start - len(before), choice.start)
            named = self.chosen.before(choice.start, within=3)
            if (
                self.free(named)
                and named is not None
                and not named.is_value
                and (
                    named.link.element == element
                    or (named.is_table and named.table == choice.table)
                    or self._names(named, element)
                )
            ):
                self.take(named)  # "the city Boston", "whose detail is 'Vincent'"
            value = choice.link.value if op != "like" else self.words[choice.start].text
            earlier = values[n - 1] if n else None
            joined = self.lows[earlier.end : choice.start] if earlier else []
            condition = Condition(element, op, value, at=choice.start)
            if earlier is not None and earlier.link.element == element and "or" in joined:
                self.intent.any_of = True
            if earlier is not None and earlier.link.element == element and "and" in joined:
                self.intent.both.append(condition)
                continue
            self.intent.conditions.append(condition)
        if self.intent.both:  # the first value of the pair is the other half
            first = next(
                c for c in self.intent.conditions if c.element == self.intent.both[0].element
            )
            self.intent.conditions.remove(first)
            self.intent.both.insert(0, first)

    def _comparisons(self) -> None:
        i = 0
        while i < len(self.lows):
            found = sig.comparator_at(self.lows, i)
            tail = tuple(self.lows[i + 1 : i + 3])
            if not found and self.words[i].number is not None and tail in sig.AFTER_NUMBER:
                found = ("", 0)  # "two or more jobs": the operator follows the number
            between = self.lows[i] == "between"
            if not found and not between:
                i += 1
                continue
            op, size = found if found else ("between", 1)
            at = i + size
            number = self.words[at].number if at < len(self.words) else None
            if number is None and at < len(self.words) and sig.DATE.match(self.lows[at]):
                self._compare_date(i, op, at)
                i = at + 1
                continue
            if number is None:
                i = self._against_average(i, op, at) if found else i + 1
                continue
            second = None
            if between and at + 2 < len(self.words) and self.lows[at + 1] == "and":
                second = self.words[at + 2].number
            end = at + (3 if second is not None else 1)
            tail = tuple(self.lows[end : end + 2])
            if tail in sig.AFTER_NUMBER:
                op, end = sig.AFTER_NUMBER[tail], end + 2
            self._compare(i, op, size, number, second, end)
            i = end

    def _compare(
        self, i: int, op: str, size: int, number: float, second: float | None, end: int
    ) -> None:
        after = self.next_choice(end, within=2)
        if after is not None and set(self.lows[end : after.start]) & {"and", "or", ","}:
            after = None  # "above 50 and managers ...": the next clause, not what is counted
        self.use(i, end)
        times = self.lows[end : end + 1] == ["times"] or self.lows[i + size] in sig.TIMES
        if (after is not None and after.is_table) or times:
            if after is not None:
                self.intent.counted = self.take(after).table
                self.intent.need(self.intent.counted)
            self.use(end, end + 1)
            self.intent.having = (op, number, second)
            return
        target = None
        dimension = sig.DIMENSIONS.get(self.lows[i])
        if after is not None and after.link.element.numeric:
            target = self.take(after)
        if target is None:
            before = self.chosen.before(i, within=4)
            if self.free(before) and before is not None and before.link.element.numeric:
                target = self.take(before)
        if target is None and dimension:
            target = self._dimension(dimension)
        if target is None:
            raise Unreadable(f"I could not tell what '{self.words[i].text} {number:g}' compares")
        value = int(number) if number.is_integer() else number
        upper = None if second is None else (int(second) if second.is_integer() else second)
        self.intent.conditions.append(Condition(target, op, value, upper, at=i))

    def _negates_table(self, start: int, end: int) -> bool:
        """ "tracks that do not have a race in class GT": the negation is of the table."""
        return any(c.is_table and start <= c.start < end for c in self.chosen.choices)

    def _names(self, choice: Choice, element: Element) -> bool:
        said = {w.lemma for w in self.words[choice.start : choice.end]}
        return any(said <= set(name) for name, _ in element.names)

    def _patterns(self) -> None:
        """ "names that contain the word 'film'", "starting with 'A'": text matched in part."""
        for i, word in enumerate(self.words):
            if not word.quoted or i in self.intent.used or self.chosen.at(i) is not None:
                continue
            said = set(self.lows[max(0, i - 4) : i])
            if not said & sig.LIKE_WORDS:
                continue
            op = "starts" if said & sig.STARTS else "ends" if said & sig.ENDS else "like"
            before = [c for c in self.chosen.choices if c.end <= i and not c.is_value]
            columns = [c for c in before if not c.is_table and self.free(c)]
            target = self.take(columns[-1]) if columns else None
            if target is None and before:
                target = self.label(before[-1].table)
            if target is None:
                continue
            self.use(i - 4, i + 1)
            self.intent.conditions.append(Condition(target, op, word.text, at=i))

    def _numbered(self) -> None:
        """A number right after a column or table names a row: "department 90", "id 2"."""
        for i, word in enumerate(self.words):
            if word.number is None or i in self.intent.used or not word.lower[:1].isdigit():
                continue
            named = self.chosen.before(i, within=1)
            if named is None or named.is_value or not self.free(named):
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
            self.use(i, i + 1)
            number = word.number
            value = int(number) if number.is_integer() else number
            self.intent.conditions.append(Condition(element, "=", value, at=i))

    def _compare_date(self, i: int, op: str, at: int) -> None:
        before = self.chosen.before(i, within=4)
        if (
            self.free(before)
            and before is not None
            and before.link.element.data_type in ("date", "datetime", "text")
        ):
            target: Element | None = self.take(before)
        else:
            target = self._dimension(("date", "time", "day"))
        if target is None:
            raise Unreadable(f"I could not tell which date '{self.words[at].text}' bounds")
        self.use(i, at + 1)
        self.intent.conditions.append(Condition(target, op, self.words[at].text, at=i))

    def _against_average(self, i: int, op: str, at: int) -> int:
        """ "more than the average number of points": the column against its own average."""
        words = self.lows[at : at + 3]
        if not {"average", "mean"} & set(words):
            return i + 1
        start = at + next(n for n, w in enumerate(words) if w in ("average", "mean")) + 1
        measured = self.next_choice(start, within=3)
        if measured is None or not measured.link.element.numeric:
            return i + 1
        element = self.take(measured)
        before = self.chosen.before(i, within=4)
        if self.free(before) and before is not None and before.link.element == element:
            self.take(before)
        self.use(i, measured.end)
        self.intent.conditions.append(Condition(element, op, None, against="avg", at=i))
        return measured.end

    def _dimension(self, names: tuple[str, ...]) -> Element | None:
        tables = self.chosen.tables or [c.table for c in self.chosen.choices]
        for table in tables:
            element = self.column_of(table, names)
            if element is not None and element.data_type in (
                "integer",
                "decimal",
                "date",
                "datetime",
            ):
                return element
        return None

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

    def _superlatives(self) -> None:
        for i, low in enumerate(self.lows):
            if low not in sig.DESCENDING and low not in sig.ASCENDING:
                continue
            if i and self.lows[i - 1] == "at":  # "at least", "at most": a comparison
                continue
            descending = low in sig.DESCENDING
            number = self.words[i + 1].number if i + 1 < len(self.words) else None
            if low in sig.ONLY_WITH_NUMBER and not number:
                continue
            before = self._number_before(i)
            if self._adjective_superlative(i, low, int(before) if before else 1):
                return
            limit = int(number) if number and low in ("top", "first", "last") else 1
            if before and not number:
                limit = int(before)  # "the five oldest people"
            follows = self.next_choice(i + (2 if number else 1), within=3)
            if follows is not None and follows.is_table and low in ("most", "fewest", "least"):
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
            elif low in ("top", "first", "last") and number:
                pass  # "the first 5": a limit on the order read elsewhere
            else:
                continue
            self.intent.limit = limit
            self.use(i, i + (2 if number else 1))
            return

    def _number_before(self, i: int) -> float | None:
        """ "the five oldest", "the three cities with the most": a count of rows to keep."""
        for n in range(i - 1, max(-1, i - 5), -1):
            word = self.words[n]
            if word.number is not None and n not in self.intent.used:
                if self.lows[n - 1 : n] in (["the"], ["top"], ["first"]) or n == i - 1:
                    self.use(n, n + 1)
                    return word.number
                return None
        return None

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
        if self.count and not any(o.aggregate == "count" for o in self.intent.outputs):
            self.intent.outputs.append(Output(None, "count"))

    def _joined(self) -> None:
        """Conditions joined by "or" are alternatives; two on one column where the question
        says "both" must each hold for some row (INTERSECT)."""
        conditions = sorted(self.intent.conditions, key=lambda c: c.at)
        for first, second in pairwise(conditions):
            if "or" in self.lows[first.at : second.at]:
                self.intent.any_of = True
        if "both" in self.lows and not self.intent.both and not self.intent.any_of:
            for first, second in pairwise(conditions):
                if first.element == second.element:
                    self.intent.conditions.remove(first)
                    self.intent.conditions.remove(second)
                    self.intent.both = [first, second]
                    self.use(self.lows.index("both"), self.lows.index("both") + 1)
                    return

    def _aggregates_before(self, index: int) -> list[str]:
        """ "the average and total capacity": each aggregate word before the column."""
        found: list[str] = []
        n = index - 1
        while n >= 0 and index - n <= 5:
            low = self.lows[n]
            if low in sig.AGGREGATES:
                found.insert(0, sig.AGGREGATES[low])
                self.use(n, n + 1)
            elif low not in ("and", ",", "the", "or", "number", "amount", "of"):
                break
            n -= 1
        return found

    def _labelled(self, choice: Choice, element: Element) -> Element:
        """ "the names of the aircraft": a name in no table the question names is the
        label of the table named right after it."""
        tables = self.chosen.tables
        if (
            not tables
            or element.table in tables
            or self.words[choice.start].lemma not in ("name", "title")
        ):
            return element
        following = self.chosen.after(choice.end - 1, within=3)
        if following is not None and following.is_table:
            return self.named_label(following.table) or element
        return element

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
