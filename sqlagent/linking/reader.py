"""Reading a linked question's parts (`Intent`) from its words and links.

Each step takes the words it explains: values become conditions, a number after "more
than" a comparison on the measure next to it (or a count of rows when a table follows),
"for each X" a grouping, "ordered by X" an ordering, a superlative an ordering with a limit,
"no"/"without" before a table the rows that must be missing; the columns left over are
what the question asks for.
"""

from dataclasses import replace

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice, Chosen
from sqlagent.linking.conditions import ConditionSteps
from sqlagent.linking.counting import CountSteps
from sqlagent.linking.flags import FlagSteps
from sqlagent.linking.intent import Intent, Ordering, Output
from sqlagent.linking.missing_rows import MissingSteps
from sqlagent.linking.orders import OrderSteps
from sqlagent.linking.output_words import OutputWordSteps
from sqlagent.linking.owners import OwnerSteps
from sqlagent.linking.patterns import PatternSteps
from sqlagent.linking.periods import PeriodSteps
from sqlagent.linking.reading_base import Unreadable
from sqlagent.linking.schema_words import Element
from sqlagent.linking.subjects_apart import ApartSteps
from sqlagent.linking.superlatives import SuperlativeSteps

__all__ = ["Reader", "Unreadable"]


# Words that ask for everything stored about the rows when no column is so called.
_ALL_ABOUT = frozenset({"details", "information", "info"})

# Words that list columns with the rows they are of: "branches with the city".
_WITH = frozenset({("with",), ("and", "their"), ("and", "its"), ("along", "with")})


class Reader(
    ApartSteps,
    CountSteps,
    ConditionSteps,
    FlagSteps,
    MissingSteps,
    OrderSteps,
    OutputWordSteps,
    OwnerSteps,
    PatternSteps,
    PeriodSteps,
    SuperlativeSteps,
):
    def read(self) -> Intent:
        self._glued_kinds()
        self._flags()
        self._counting()
        self._period()
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
        self._subject_apart()
        self._anchor_and_tables()
        self._rows_apart()
        self._order_as_number()
        self._quantity_summed()
        self._ranked_limit()
        return self.intent

    def _ranked_limit(self) -> None:
        """ "the top 5 countries by number of invoices, and how many do they have": rows
        kept need what ranks them. A count asked beside them ranks them, most first;
        with nothing to rank by, which rows are kept would be a guess."""
        outputs = self.intent.outputs
        if self.intent.limit is None or self.intent.order is not None:
            return
        if any(o.aggregate not in (None, "count") for o in outputs):
            return  # a total of the rows kept: composing it says what is amiss
        if any(o.aggregate == "count" and o.element is None for o in outputs):
            self.intent.order = Ordering(None, True, aggregate="count")
            return
        raise Unreadable(f"it keeps {self.intent.limit} rows without knowing what ranks them")

    def _order_as_number(self) -> None:
        order = self.intent.order
        element = order.element if order is not None else None
        if order is None or element is None or element.numeric or order.aggregate:
            return
        if self.holds_numbers(element):
            self.intent.order = replace(order, as_number=True)

    def _count_words_at(self, i: int) -> int:
        """How many words at `i` ask for a count (0: none do)."""
        size = sig.phrase_at(self.lows, i, sig.COUNT_WORDS)
        again = sig.phrase_at(self.lows, i + size + 1, sig.COUNT_WORDS)
        if size and again and self.lows[i + size] == "the":
            size += 1 + again  # "count the number of different ..."
        if size and (self._superlative_before(i) or self._after_by(i)):
            return 0  # "the most number of orders", "by the number of orders": orderings
        inside = self.chosen.at(i)
        if size and inside is not None and inside.start < i and not inside.is_value:
            return 0  # "the phone number of employees": the end of a column's name
        return size

    def _counting(self) -> None:
        for i in range(len(self.lows)):
            size = self._count_words_at(i)
            measured = self.chosen.after(i + size - 1, within=2) or self.chosen.at(i)
            if size and measured is not None and measured.is_value:
                measured = self._quantity_after(measured) or measured
            distinct = i + size < len(self.lows) and self.lows[i + size] in sig.DISTINCT_WORDS
            distinct |= bool(size) and self.lows[i - 1 : i] in (["distinct"], ["different"])
            # "the number of times": the word "number" alone is no column (invoice_number)
            itself = measured is not None and (measured.start, measured.end) == (i, i + 1)
            numeric = (
                measured is not None
                and not itself
                and not self._counts_nothing(measured.link.element)  # "how many schools": School_ID
            )
            if numeric and not distinct and measured is not None and not measured.is_value:
                if size:  # "the number of points", "the total number of customers" (a column)
                    self.quantity = measured.link.element
                size = 0
            if size and not self.count:
                self.count = True
                self.use(i, i + size)
                self.intent.count_of = self._words_counted(i + size)
                self._counted_rows(i + size, distinct)
                for choice in self.chosen.choices:  # "number" is not apt_number here
                    if i <= choice.start < i + size and not choice.is_value:
                        self.take(choice)
                if distinct:
                    self.count_distinct = True
                    self.use(i + size, i + size + 1)
            size = sig.phrase_at(self.lows, i, sig.EVERYTHING)
            if not size and self.lows[i] in _ALL_ABOUT and self.chosen.at(i) is None:
                size = 1  # "the details for all chip models", where no column is so called
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
            if self._by_period(i, size):
                return
            target = self.next_choice(i + size)
            if target is None or target.is_value:
                continue
            self.use(i, i + size)
            element = self.take(target)
            said = self.chosen.at(target.end)  # "each product type": the table's column
            if target.is_table and self.free_column(said) and said.table == target.table:
                element = self.take(said)
            self.intent.group = element if element.column else self._group_of(element.table)
            self.intent.need(element.table)
            referred = self._referred_label(target, element)
            if referred is not None:  # "incidents of each type": by the type's name too
                self.intent.outputs.append(Output(referred))
                self.intent.need(referred.table)
            return

    def _referred_label(self, target: Choice, element: Element) -> Element | None:
        """The label of the table a key column refers to, where the words said the column
        without its "id" (`incidentTypeId` for "type"): the rows of that table are meant."""
        said = target.link.score < 0.9 and not element.primary_key
        if not said or not element.column or element.names[0][0][-1:] != ("id",):
            return None
        words, refers = element.names[0][0][:-1], self.schema.refers
        referred = [
            e.table
            for e in self.schema.elements
            if e.is_table and e.names[0][0] == words and (element.table, e.table) in refers
        ]
        return self.named_label(referred[0]) if len(referred) == 1 else None

    def _group_of(self, table: str) -> Element | None:
        """ "how many residents does each property have": each row, by its name, else by
        its key (not by the first text column, which many rows may share). Rows counted
        in their own table are not grouped by its key: each group would be one row."""
        named = self.named_label(table)
        counted = self.intent.counted
        if named is not None or counted is None or counted == table:
            return named or self.label(table)
        keys = [e for e in self.schema.elements if e.table == table and e.primary_key]
        return keys[0] if len(keys) == 1 else self.label(table)

    def _by_period(self, i: int, size: int) -> bool:
        """ "for each year", "in each month of 2025" where no column holds the year: the
        year or month of a date of the rows asked about."""
        at = i + size
        part = self.lows[at] if at < len(self.lows) else ""
        if part not in ("year", "month"):
            return False
        named = self.chosen.at(at)
        tables = self.chosen.tables
        if named is not None and (
            not self.free(named)
            or (named.link.element.numeric and (not tables or named.table in tables))
        ):
            return False  # a column that holds the year itself
        date = self.date_named_before(i) or self.date_column()  # "issued in each month"
        if date is None:
            return False
        if named is not None:
            self.take(named)
        self.use(i, at + 1)
        self.intent.group, self.intent.period = date, part
        self.intent.need(date.table)
        return True

    def _outputs(self) -> None:
        last: tuple[Choice, list[str]] | None = None  # the column asked before, its aggregates
        for choice in self.chosen.choices:
            if not self.free(choice) or choice.is_value or choice.is_table:
                continue
            if self._said_as_verb(choice):
                continue  # left unexplained: the reading's evidence says so
            if self._name_of_column(choice):
                self.use(choice.start, choice.end)
                continue
            element = self._labelled(choice, self.take(choice))
            if self._had(choice) and (self.intent.outputs or self.count):
                self.intent.need(element.table)  # "students who have treasurer votes": a join
                self.intent.joined_by.append(element)
                continue
            full = self._full_name(choice, element)
            if full:
                self.intent.outputs += [Output(part) for part in full]
                continue
            aggregates = self._aggregates_before(choice.start) or self._shared(choice, last)
            last = (choice, aggregates)
            if self.count and not aggregates and self.count_distinct:
                aggregates = ["count"]
            if not aggregates and self._aggregated_over(choice, element):
                continue
            for aggregate in aggregates or [""]:
                distinct = aggregate == "count" and self.count_distinct
                self.intent.outputs.append(Output(element, aggregate or None, distinct=distinct))
        if not any(o.element for o in self.intent.outputs):
            self._how_measure()
        self._when()
        self._postfix_aggregate()
        if self.count and not any(o.aggregate == "count" for o in self.intent.outputs):
            self.intent.outputs.append(Output(None, "count"))
        self._listed_with()

    def _aggregated_over(self, choice: Choice, element: Element) -> bool:
        """ "the maximum level of managers in countries that are not Australia", "the total
        enrollment of all schools": with an aggregate and no grouping asked, a column the
        conditions already read, or all of whose rows are meant, is what is aggregated
        over, not a group. A count with no groups asked is one number ("how many rooms
        have a king bed": a column said after what is counted is no group), and a column
        shown with its aggregate is not shown again."""
        if self.intent.group is not None or self.intent.having is not None:
            return False
        conditioned = any(c.element == element for c in self.intent.conditions)
        counted = self.intent.count_of
        if self.count:
            after = bool(counted) and choice.start >= counted.stop
            return after and (conditioned or not self._in_groups())
        if not any(o.aggregate for o in self.intent.outputs):
            return False
        if any(o.aggregate and o.element == element for o in self.intent.outputs):
            return True
        said_before = set(self.lows[max(0, choice.start - 2) : choice.start])
        # "for each", "per", "by" ask for groups; an "and" alone does not
        grouped = self.groups_said(frozenset({"by"}))
        of_rows = bool(said_before & {"of", "across", "among"}) and not grouped
        return conditioned or of_rows or self.lows[choice.start - 1 : choice.start] == ["all"]

    def _listed_with(self) -> None:
        """ "List our branches with the city and state": the rows by their name, then the
        columns listed with them."""
        if any(o.aggregate for o in self.intent.outputs) or self.intent.having:
            return  # "students with different sex": what is counted or averaged by
        shown = [o.element for o in self.intent.outputs if o.element]
        for choice in self.chosen.choices:
            if not choice.is_table or not shown:
                continue
            joined = next(
                (
                    size
                    for size in (1, 2)
                    if tuple(self.lows[choice.end : choice.end + size]) in _WITH
                ),
                0,
            )
            listed = self.chosen.after(choice.end + joined - 1, within=2)
            if not joined or listed is None or listed.link.element not in shown:
                continue
            label = self.named_label(choice.table)
            if label is not None and label not in shown:
                self.intent.outputs.insert(0, Output(label))
            break
        self._tables_listed(shown)

    def _tables_listed(self, shown: list[Element]) -> None:
        """ "with their employee number, role and branch": a table listed among the
        columns asked is its rows' name."""
        listed = set(shown)
        for choice in self.chosen.choices:
            before = self.chosen.before(choice.start, within=2)
            said = self.lows[before.end : choice.start] if before is not None else []
            if not choice.is_table or before is None or said not in ([], ["and"]):
                continue  # (commas are not words)
            label = self.named_label(choice.table)
            if before.link.element in listed and label is not None:
                self.intent.outputs.append(Output(label))
                listed.add(choice.link.element)

    def _said_as_verb(self, choice: Choice) -> bool:
        """ "pilots who did not win", "phones use", "the doctor named Zach": a word that
        meets a column only by its root, right after its subject or a relative or auxiliary
        word, is a verb, not the column asked for."""
        if choice.end - choice.start != 1 or not self.by_root(choice):
            return False
        if choice.start < 2:
            return False  # "Who directed Avatar?", "Which nations ...": what is asked
        after_subject = self.chosen.at(choice.start - 1) is not None
        return after_subject or self.lows[choice.start - 1] in sig.VERB_LEAD

    def _had(self, choice: Choice) -> bool:
        """A column said to be had in a relative clause ("who have president votes") names
        rows that must exist, not a value asked for."""
        before = [
            w
            for w in self.lows[max(0, choice.start - 3) : choice.start]
            if w not in sig.DETERMINERS
        ]
        if before[-2:] in (["who", "have"], ["who", "has"], ["that", "have"], ["that", "has"],
                           ["which", "have"], ["which", "has"], ["who", "had"]):  # fmt: skip
            return True
        # "how many students have senator votes": the rows counted have them
        verb = choice.start - 1
        rows = self.chosen.at(verb - 1)
        return (
            self.count
            and self.lows[verb : verb + 1] in (["have"], ["has"], ["had"])
            and rows is not None
            and rows.is_table
            and rows.table != choice.table
        )

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
            elif low not in ("and", ",", "the", "or", "number", "amount", "of", "all") and not (
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
        """ "how old", "how tall": the measure the adjective names is asked for; beside a
        count, "how much" is its total ("how many payments, and how much did they add up
        to")."""
        for i in range(len(self.lows) - 1):
            if self.lows[i] != "how" or self.lows[i + 1] not in sig.HOW_MEASURES:
                continue
            if self.count and self.lows[i + 1] != "much":
                continue
            element = self._dimension(sig.HOW_MEASURES[self.lows[i + 1]])
            if element is not None:
                self.intent.outputs.append(Output(element, "sum" if self.count else None))
                self.use(i, i + 2)
            return

    def _anchor_and_tables(self) -> None:
        intent = self.intent
        said = [c for c in self.chosen.choices if c.start not in self.unsaid]
        tables = [t for t in Chosen(said).tables if t != intent.missing]
        if self.negated_at is not None:
            # "shops that have no devices in stock": a table said only after the negation is
            # of the rows that must be missing, not what is asked about
            before = {c.link.element.table for c in said if c.start < self.negated_at}
            tables = [t for t in tables if t in before]
        self._keys_referred_to()
        plain = [o for o in intent.outputs if o.element is not None]
        if any(o.element.table == intent.missing for o in plain if o.element):
            raise Unreadable(f"it asks about {intent.missing} rows and for ones that are missing")
        if tables:
            intent.anchor = tables[0]
        elif intent.group is not None:  # "the payment method used most often"
            intent.anchor = intent.group.table
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
        self._missing_by()
        self._settle_outputs()

    def _settle_outputs(self) -> None:
        """Grouping without a count or total lists pairs; an empty list shows labels."""
        intent = self.intent
        aggregated = any(o.aggregate for o in intent.outputs) or bool(
            intent.order and intent.order.aggregate not in (None, "output", "shown")
        )
        if intent.group is not None and not aggregated and intent.having is None:
            # "for each delegate, the party"
            intent.outputs.insert(0, Output(intent.group, part=intent.period))
            intent.group = None
        elif intent.group is not None and Output(intent.group) not in intent.outputs:
            intent.outputs.insert(0, Output(intent.group, part=intent.period))
        if intent.period:  # the date grouped by is shown as its year or month
            intent.outputs = [
                Output(o.element, part=intent.period) if o == Output(intent.group) else o
                for o in intent.outputs
            ]
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
        named += [intent.counted] if intent.counted not in (None, intent.missing) else []
        # With rows that must be missing, a table only named is of the missing rows ("not
        # reported any event"): joined outside, through them, it would leave no row.
        bare = [] if intent.missing else intent.tables
        intent.tables = list(dict.fromkeys([intent.anchor, *bare, *named]))
