"""Rows that must be missing: "dorms that do not have any amenity", "parties that did not
have any delegates" (a column of the table that refers to them)."""

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.reading_base import ReaderBase


class MissingSteps(ReaderBase):
    def _missing(self) -> None:
        for i, low in enumerate(self.lows):
            if low not in sig.NEGATIONS or i in self.intent.used:
                continue
            target = self.next_choice(i + 1, within=5)
            # said as a key (`amenid`) of its table or of the table pairing them
            keyed = target is not None and not target.is_value and self.a_key(target.link.element)
            if target is not None and (target.is_table or keyed or self._referring(target, i)):
                self.intent.missing = self.take(target).table
                self.use(i, target.start)
                self.negated_at = i
                return

    def _referring(self, target: Choice, at: int) -> bool:
        """A column of a table that refers to the rows named before the negation ("parties
        that did not have any delegates": `election.Delegate`, election referring to party)."""
        if target.is_value or target.is_table:
            return False
        named = {c.table for c in self.chosen.choices if c.is_table and c.end <= at}
        element = target.link.element
        keys = [t for (table, _), t in self.schema.referring.items() if table == element.table]
        if any(keys.count(t) > 1 for t in named):
            return False  # "people who have no friends": `name` and `friend` both hold one
        if any(self.words[n].content for n in range(at + 1, target.start)):
            return False  # "no study rooms": a word nothing explains says which
        table = element.table
        return table not in named and any((table, other) in self.schema.refers for other in named)
