"""What a count is of: the words counted, the rows they name, and whether the question
asks for groups beside the count."""

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.intent import Output
from sqlagent.linking.reading_base import ReaderBase
from sqlagent.linking.schema_words import Element


class CountSteps(ReaderBase):
    def _words_counted(self, end: int) -> range:
        """The words a count is of: "how many of the different kinds of pink unicorns"
        counts pink unicorns; "how many video game types exist", the words before the verb."""
        at = end
        while at < len(self.lows) and self.lows[at] in sig.BEFORE_COUNTED:
            at += 1
        tags = self.tags
        stop = at
        while stop < len(self.lows) and self.words[stop].content:
            if stop > at and tags[stop] in ("VB", "VBP", "VBZ") and not self.words[stop].quoted:
                break
            stop += 1
        return range(at, stop)

    def _counted_rows(self, end: int, distinct: bool) -> None:
        """ "the number of photos": their rows; "the number of delegates" where delegate is
        a column of a table the question does not name: that table's rows; "how many
        schools are in the match", a column of a table it names, with no groups: the
        different values."""
        follows = self.chosen.after(end - 1, within=3)  # "how many types of jobs"
        if follows is None or follows.is_value or distinct:
            return
        if follows.is_table:
            if self._head_column(follows):
                self.count_distinct = True  # "how many movie directors": different directors
                return
            head = self.chosen.after(follows.end - 1, within=1)
            if (
                head is not None
                and head.is_table
                and head.start == follows.end
                and head.end == self.intent.count_of.stop
                and (head.table, follows.table) in self.schema.refers
            ):
                follows = head  # "how many movie ratings": the ratings, of movies
            self.intent.counted = follows.table
        elif not self.free(follows):
            return
        elif (
            self._in_groups()
            or self._bounded(follows)
            or (self.chosen.tables and follows.table not in self.chosen.tables)
        ):
            self.intent.counted = self.take(follows).table  # the rows the column names
            self.intent.need(follows.table)
        elif self._counts_nothing(follows.link.element):
            self.count_distinct = True

    def _head_column(self, table: Choice) -> bool:
        """Whether the words counted end in a column of the table they start with: "movie
        directors" are the movies' directors."""
        head = self.chosen.after(table.end - 1, within=1)
        return (
            head is not None
            and head.start == table.end
            and head.end == self.intent.count_of.stop
            and not head.is_value
            and not head.is_table
            and head.table == table.table
            and not self._in_groups()
        )

    def _bounded(self, column: Choice) -> bool:
        """Whether the column's values are limited by a stored value or the counts by a
        comparison ("tests with result 'Fail'", "cities with more than 3 airports")."""
        if any(c.is_value and c.link.element == column.link.element for c in self.chosen.choices):
            return True
        return any(sig.comparator_at(self.lows, n) for n in range(len(self.lows)))

    def _counts_nothing(self, element: Element) -> bool:
        return not self.holds_numbers(element) or _a_key(element)

    def _in_groups(self) -> bool:
        """Whether the question asks for groups ("for each", "per") or lists things beside
        the count ("each nationality and the number of hosts")."""
        return self.groups_said(frozenset({"and"}))

    def groups_said(self, also: frozenset[str] = frozenset()) -> bool:
        """Whether the question asks for groups ("for each", "per", "grouped by") or says
        one of the words `also`."""
        if set(self.lows) & ({"each", "per", "every"} | also):
            return True
        return any(sig.phrase_at(self.lows, i, sig.GROUP_WORDS) for i in range(len(self.lows)))

    def _quantity_after(self, value: Choice) -> Choice | None:
        """ "how many king beds": the count column right after a value, of its rows."""
        after = self.chosen.after(value.end - 1, within=1)
        if after is None or after.start != value.end or after.is_value or after.is_table:
            return None
        return after if after.link.element.numeric and not self.a_key(after.link.element) else None

    def _quantity_summed(self) -> None:
        """ "how many beds are there in rooms with a queen bed": a column that holds a
        count, asked for with nothing shown per row beside it, is the rows' total (one
        row's value where the conditions leave one)."""
        outputs, quantity = self.intent.outputs, self.quantity
        if quantity is None or self.intent.group or self.intent.order or self.intent.limit:
            return
        if self._each_row():
            return  # "the courses and how many hours each one takes": every row's own
        if len(outputs) == 1 and outputs[0].element == quantity and not outputs[0].aggregate:
            outputs[0] = Output(quantity, "sum")

    def _each_row(self) -> bool:
        """Whether "each" stands for the rows themselves ("each one", "each of them",
        "each takes"), not before a thing to group by."""
        tags = self.tags
        return any(
            low == "each"
            and (
                i + 1 == len(self.lows)
                or self.lows[i + 1] in ("one", "of")
                or tags[i + 1].startswith("VB")
            )
            for i, low in enumerate(self.lows)
        )


def _a_key(element: Element) -> bool:
    """A key holds numbers that count nothing: "how many schools" is not School_ID's sum."""
    return element.primary_key or (element.column or "").lower().endswith("id")
