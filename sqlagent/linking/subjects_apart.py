"""A negation said of what a column holds, not of the rows holding it: "Which publishers
did not publish a book in 1989?", "home cities except those having a driver older than 40".
The answer is each value that no row meeting what follows the negation holds; "!=" on the
rows would keep a publisher for any other book of theirs."""

from dataclasses import replace

from sqlagent.linking.conditions import negates
from sqlagent.linking.intent import Apart
from sqlagent.linking.reading_base import ReaderBase
from sqlagent.linking.schema_words import Element

_COPULAS = frozenset({"is", "are", "was", "were", "be"})


class ApartSteps(ReaderBase):
    def _subject_apart(self) -> None:
        found = self._negated_subject()
        if found is None:
            return
        element, negation = found
        intent = self.intent
        negated = [c for c in intent.conditions if c.at > negation]
        tables = [c for c in self.chosen.choices if c.is_table]
        after = [c.table for c in tables if c.start > negation]
        conditions = [replace(c, op="=") if c.op == "!=" else c for c in negated]
        named = [*after, *(c.element.table for c in conditions), *filter(None, [intent.missing])]
        if not conditions and set(named) <= {element.table}:
            return  # every value is some row's: nothing would be left
        intent.apart = Apart(element, conditions, list(dict.fromkeys(named)))
        intent.conditions = [c for c in intent.conditions if c not in negated]
        intent.missing = None
        intent.distinct = True
        self.use(negation, negation + 1)
        self.unsaid.update(c.start for c in tables if c.start > negation)
        intent.notes.append(f"the values of {element} that no such row holds")

    def _negated_subject(self) -> tuple[Element, int] | None:
        """The column asked for and the negation said of what it holds, if one is."""
        intent = self.intent
        if self.count or intent.star or not intent.outputs or intent.any_of or intent.both:
            return None
        subject = intent.outputs[0]
        element = subject.element
        if element is None or element.column is None or subject.aggregate or element.primary_key:
            return None
        said = next(
            (c for c in self.chosen.choices if not c.is_value and c.link.element == element), None
        )
        if said is None or "of" in self.lows[said.start : said.end]:
            return None  # "the details of the students": a column read with its rows' name
        negation = next((i for i in range(said.end, len(self.lows)) if negates(self.lows, i)), None)
        if negation is None or self._of_value(negation):
            return None
        if not any(c.at > negation for c in intent.conditions) and intent.missing is None:
            return None
        # "the names of students who do not ...": the negation is of the rows (a missing
        # table's or a negated value's, read before), and so it is of a column naming them
        # or another table's key.
        if any(
            c.is_table and c.table == element.table and c.start < negation
            for c in self.chosen.choices
        ):
            return None
        if self.a_key(element) or element == self.named_label(element.table):
            return None
        return element, negation

    def _of_value(self, negation: int) -> bool:
        """ "the years in which the type is not 'Tournament'": the value itself is not
        wanted ("cities that are not associated with any ..." says no row)."""
        said = {c.at for c in self.intent.conditions}
        return self.lows[negation - 1] in _COPULAS and bool(said & {negation + 1, negation + 2})
