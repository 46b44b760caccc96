"""A negation said of what a column holds, not of the rows holding it: "Which publishers
did not publish a book in 1989?", "home cities except those having a driver older than 40".
The answer is each value that no row meeting what follows the negation holds; "!=" on the
rows would keep a publisher for any other book of theirs. A negation no other step read,
before conditions ("movies that were not reviewed by Chris Jackson"), is of the rows: the
anchor's key is not among those of rows meeting them."""

from dataclasses import replace

from sqlagent.linking.intent import Apart
from sqlagent.linking.negation import negates
from sqlagent.linking.reading_base import ReaderBase
from sqlagent.linking.schema_words import Element

_COPULAS = frozenset({"is", "are", "was", "were", "be"})
_BOUNDS = frozenset({">", ">=", "<", "<=", "between"})


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

    def _rows_apart(self) -> None:
        """After the anchor is known: an unread negation before conditions, or the one
        before a missing table with bounds after it ("physicians not trained in any
        procedure that costs more than 5000": the bound is of the missing rows)."""
        intent = self.intent
        if intent.apart or intent.none_with or intent.both or intent.any_of:
            return
        negation = next(
            (
                i
                for i, _ in enumerate(self.lows)
                if negates(self.lows, i) and (intent.missing or i not in intent.used)
            ),
            None,
        )
        negated = [c for c in intent.conditions if negation is not None and c.at > negation]
        if intent.missing:  # values after it are its rows' already (absent.negations_apart)
            negated = [c for c in negated if c.op in _BOUNDS and c.element.table != intent.anchor]
        keys = [e for e in self.schema.elements if e.table == intent.anchor and e.primary_key]
        if negation is None or not negated or len(keys) != 1:
            return
        if any(c.op in ("!=", "unlike") for c in negated):
            return  # a negation read with its value ("without the letter M in the name")
        tables = [c.table for c in self.chosen.choices if c.is_table and c.start > negation]
        named = [*filter(None, [intent.missing]), *tables, *(c.element.table for c in negated)]
        intent.apart = Apart(keys[0], negated, list(dict.fromkeys(named)))
        intent.conditions = [c for c in intent.conditions if c not in negated]
        intent.missing = None
        self.use(negation, negation + 1)
        intent.notes.append(f"the {intent.anchor} rows with no such row")

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
