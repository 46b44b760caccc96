"""What every reading step shares: the words, the chosen links, the intent being built, and
which words and links are already explained."""

from collections.abc import Mapping
from functools import cached_property
from typing import TypeGuard

from core.language import word_tags
from sqlagent.dates import DateRange
from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice, Chosen
from sqlagent.linking.intent import Intent
from sqlagent.linking.question import Word
from sqlagent.linking.schema_words import Element, SchemaWords

BOOKKEEPING = frozenset({"created", "updated", "modified", "deleted", "inserted", "changed"})


def _date_rank(element: Element, table: int) -> tuple[bool, int, bool]:
    words = set(element.names[0][0])
    return bool(words & BOOKKEEPING), table, "date" not in words


# Measures of people, often kept in a table of their own that the question does not name.
_OF_PEOPLE = frozenset({"age", "height", "weight"})

_ASKED_FIRST = frozenset({"which", "what", "list", "show", "name", "give", "find", "return"})


class Unreadable(Exception):
    """The question's parts could not be placed; the message says which."""


class ReaderBase:
    def __init__(
        self,
        words: tuple[Word, ...],
        chosen: Chosen,
        schema: SchemaWords,
        numbers: frozenset[tuple[str, str]] = frozenset(),
        period: DateRange | None = None,
        period_span: range | None = None,
        flags: Mapping[tuple[str, str], tuple[str, str]] | None = None,
        stored_numbers: Mapping[str, tuple[tuple[str, str], ...]] | None = None,
    ) -> None:
        self.words = words
        self.period, self.period_span = period, period_span  # a calendar period and its words
        self.numbers = numbers  # text columns that hold numbers, lower case
        self.flags = flags or {}  # text columns that hold yes or no: their two spellings
        self.stored_numbers = stored_numbers or {}  # "111" -> number columns that store it
        self.lows = sig.lowers(words)
        self.chosen = chosen
        self.schema = schema
        self.taken: set[int] = set()  # indexes of choices already given a part
        self.unsaid: set[int] = set()  # choices whose words say no table ("in order")
        self.negated_at: int | None = None  # where the words of rows that must be missing start
        self.intent = Intent(anchor="")
        self.count = False
        self.count_distinct = False
        self.quantity: Element | None = None  # "how many beds": a column that holds a count

    @cached_property
    def tags(self) -> tuple[str, ...]:
        """Each word's Penn Treebank tag, read in context."""
        return word_tags(tuple(w.text for w in self.words))

    def unsay(self, start: int, end: int) -> None:
        """The words say a shape (an order, "ends with"): the tables or columns they meet
        are not asked for."""
        self.use(start, end)
        for choice in self.chosen.choices:
            if start <= choice.start < end and self.free(choice) and not choice.is_value:
                self.take(choice)
                self.unsaid.add(choice.start)

    def holds_numbers(self, element: Element) -> bool:
        """A number column, or a text column whose every value is a number: compared with
        a number, the database converts it."""
        pair = (element.table.lower(), (element.column or "").lower())
        return element.numeric or pair in self.numbers

    def by_root(self, choice: Choice) -> bool:
        """Whether a one-word link meets its name only by the word's root ("records" and
        is_recordable, "win" and winning_pilot)."""
        word = self.words[choice.start]
        names = choice.link.element.names
        return not any(word.lemma in name or word.lower in name for name, _ in names)

    def use(self, start: int, end: int) -> None:
        self.intent.used.update(range(start, end))

    def take(self, choice: Choice) -> Element:
        self.taken.add(choice.start)
        self.use(choice.start, choice.end)
        return choice.link.element

    def free(self, choice: Choice | None) -> bool:
        return choice is not None and choice.start not in self.taken

    def free_column(self, choice: Choice | None) -> TypeGuard[Choice]:
        """A column (not a table or a value) no step has read yet."""
        return (
            choice is not None and not choice.is_table and not choice.is_value and self.free(choice)
        )

    def next_choice(self, index: int, within: int = 3) -> Choice | None:
        found = self.chosen.after(index - 1, within=within)
        return found if self.free(found) else None

    def a_key(self, element: Element) -> bool:
        """A table's key, or a column holding another table's key under its name."""
        return element.primary_key or any(
            other.primary_key and other.column == element.column and other.table != element.table
            for other in self.schema.elements
        )

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
        # `party`.`Party`: a text column called as its table is what each row is called
        itself = next((e.names[0][0] for e in self.schema.elements if e.table == table), None)
        return next((e for e in columns if e.data_type == "text" and e.names[0][0] == itself), None)

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

    def _dimension(self, names: tuple[str, ...]) -> Element | None:
        """The column of a measure ("taller": height) in a table the question names; else,
        for a measure of people, the one such column of the whole schema ("entrepreneurs
        taller than 1.85": `people`.`Height`, joined)."""
        found = [e for e in (self._measure_in(t, names) for t in self.question_tables()) if e]
        if not found and set(names) <= _OF_PEOPLE:
            tables = dict.fromkeys(e.table for e in self.schema.elements)
            elsewhere = [e for e in (self._measure_in(t, names) for t in tables) if e]
            found = elsewhere if len(elsewhere) == 1 else []
        return found[0] if found else None

    def _measure_in(self, table: str, names: tuple[str, ...]) -> Element | None:
        element = self.column_of(table, names)
        if element is not None and (
            self.holds_numbers(element) or element.data_type in ("date", "datetime")
        ):
            return element  # `host`.`Age` may be text that holds numbers
        return None

    def date_named_before(self, i: int) -> Element | None:
        """ "hired in 2024": the date column a word right before names."""
        named = self.chosen.before(i, within=2)
        if not self.free_column(named) or named.link.element.data_type not in ("date", "datetime"):
            return None
        return self.take(named)

    def date_column(self) -> Element | None:
        """The date a year or a date bounds when the question names none: a date column of
        a table it names, one whose name says "date" first, a row's own bookkeeping
        (created, updated) last."""
        tables = self.question_tables()
        dates = self.dates_of(tables)
        return min(dates, key=lambda e: _date_rank(e, tables.index(e.table)), default=None)

    def question_tables(self) -> list[str]:
        """The tables the question names, else those of the columns and values it names."""
        return self.chosen.tables or [c.table for c in self.chosen.choices]

    def dates_of(self, tables: list[str]) -> list[Element]:
        """The date columns of these tables."""
        return [
            e
            for e in self.schema.elements
            if e.table in tables and e.column and e.data_type in ("date", "datetime")
        ]

    def _number_before(self, i: int) -> float | None:
        """ "the five oldest", "the three cities with the most": a count of rows to keep."""
        for n in range(i - 1, max(-1, i - 5), -1):
            word = self.words[n]
            if word.number is not None and n not in self.intent.used:
                if self.lows[n - 1 : n] in (["the"], ["top"], ["first"]) or n == i - 1:
                    self.use(n, n + 1)
                    return word.number
                break
        asked = self.words[1].number if len(self.words) > 2 and i > 1 else None
        if asked is not None and self.lows[0] in _ASKED_FIRST and 1 not in self.intent.used:
            self.use(1, 2)  # "Which 5 customers owe us the most?"
            return asked
        return None
