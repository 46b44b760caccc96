"""Rows that must be missing: "dorms that do not have any amenity", "parties that did not
have any delegates" (a column of the table that refers to them)."""

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.intent import Output
from sqlagent.linking.links import alike
from sqlagent.linking.reading_base import ReaderBase
from sqlagent.linking.schema_words import name_words


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

    def _missing_by(self) -> None:
        """ "employees who do not authorize destruction for any document": of the missing
        table's several columns that refer to the anchor (`Destroyed_by_Employee_ID`,
        `Destruction_Authorised_by_Employee_ID`), the one whose own words the question says
        most of."""
        intent = self.intent
        columns = [
            column
            for (table, column), referred in self.schema.referring.items()
            if table == intent.missing and referred == intent.anchor
        ]
        # the words that name the tables name neither column ("courses without any
        # prerequisite": `prereq`, not its `prereq_id`)
        tables = {intent.missing, intent.anchor}
        naming = {
            i
            for c in self.chosen.choices
            if c.is_table and c.link.element.table in tables
            for i in range(c.start, c.end)
        }
        said = [w.lower for i, w in enumerate(self.words) if w.content and i not in naming]
        own = set(name_words(intent.anchor))

        def says(column: str) -> int:
            return sum(1 for w in set(name_words(column)) - own if any(alike(w, s) for s in said))

        counts = sorted(((says(c), c) for c in columns), reverse=True)
        if len(counts) > 1 and counts[0][0] > counts[1][0]:
            intent.missing_by = counts[0][1]

    def _keys_referred_to(self) -> None:
        """ "customer ids who don't have an account": a key of the missing rows that refers
        to another table (`Accounts.customer_id`) shows that table's own key, whose rows
        are the ones asked about."""
        intent = self.intent
        if self.count or self.quantity or any(o.aggregate for o in intent.outputs):
            return  # "how many colors are never used": what is counted is read apart
        for n, output in enumerate(intent.outputs):
            element = output.element
            if element is None or element.table != intent.missing:
                continue
            referred = self.schema.referring.get((element.table, element.column or ""))
            keys = [e for e in self.schema.elements if e.table == referred and e.primary_key]
            if referred != intent.missing and len(keys) == 1:
                intent.outputs[n] = Output(keys[0])
