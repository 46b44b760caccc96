"""How the words of an asked column read: "the names of the cities" (the city column),
"the average height and weight" (one aggregate of both), "the full names" (first and last)."""

from sqlagent.linking.chosen import Choice
from sqlagent.linking.owners import OwnerSteps
from sqlagent.linking.schema_words import Element


class OutputWordSteps(OwnerSteps):
    def _name_of_column(self, choice: Choice) -> bool:
        """ "the names of all cities with more than one airport": where the city is a text
        column beside the name (or the name's table is named by nothing else), its value is
        the name asked for."""
        element = choice.link.element
        if "name" not in element.names[0][0]:
            return False
        at = choice.end + (self.lows[choice.end : choice.end + 1] == ["of"])
        at += self.lows[at : at + 1] in (["the"], ["all"], ["each"], ["every"])
        after = self.chosen.at(at)
        if at == choice.end or after is None or after.start != at or after.is_table:
            return False
        other = after.link.element
        # "the names of authors": the author column, not the name of a table only "names" names
        alone = all(c is choice or c.table != element.table for c in self.chosen.choices)
        return (
            not after.is_value
            and after.link.score >= 0.75
            and (other.table == element.table or alone)
            and not other.numeric
            and not other.primary_key
            and "name" not in other.names[0][0]
        )

    def _shared(self, choice: Choice, last: tuple[Choice, list[str]] | None) -> list[str]:
        """ "the average height and weight": an aggregate said once is of each measure
        listed right after it."""
        if last is None or not self.holds_numbers(choice.link.element):
            return []
        before, aggregates = last
        listed = self.lows[before.end : choice.start] in (["and"], [])
        if not listed or not all(a in ("avg", "sum", "min", "max") for a in aggregates):
            return []
        return aggregates[-1:]

    def _full_name(self, choice: Choice, element: Element) -> list[Element]:
        """ "the full names of the students": their first and last names."""
        if self.lows[choice.start - 1 : choice.start] != ["full"] or choice.end - choice.start > 1:
            return []
        table = self._table_after(choice.end) or element.table
        parts = [
            next((e for e in self.schema.elements if e.table == table and e.column
                  and e.names[0][0][-2:] == (part, "name")), None)
            for part in ("first", "last")
        ]  # fmt: skip
        if None in parts:
            return []
        self.use(choice.start - 1, choice.start)
        return [e for e in parts if e is not None]
