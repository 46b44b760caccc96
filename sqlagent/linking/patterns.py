"""Text matched in part: "names that contain the word 'film'", "starting with 'A'", "the
letter M in their first names", "addresses that contain TN", "without the letter s"."""

from sqlagent.linking import signals as sig
from sqlagent.linking.intent import Condition
from sqlagent.linking.reading_base import ReaderBase

_HAS = frozenset({"has", "have", "having"})


class PatternSteps(ReaderBase):
    def _patterns(self) -> None:
        for i, word in enumerate(self.words):
            if i in self.intent.used or self.chosen.at(i) is not None:
                continue
            if not sig.pattern_literal(self.words, self.lows, i):
                continue
            window = self.lows[max(0, i - 4) : i]
            said = set(window)
            op = "starts" if said & sig.STARTS else "ends" if said & sig.ENDS else "like"
            if op == "like" and any(w in sig.NEGATIONS for w in window):
                op = "unlike"  # "without the letter M", "does not contain 'x'"
            # quoted text no column holds whole, that a column "has": "whose name has 'Led'"
            introduced = sig.LIKE_WORDS | sig.LITERAL_NOUNS | (_HAS if word.quoted else set())
            if self._inside(i, word.text, op) or not said & introduced:
                continue  # "the word 'son' in their personal names": the column after
            # "names that end with": the words say the match, they name no column (END_DATE)
            for n in range(max(0, i - 4), i):
                if self.lows[n] in sig.STARTS | sig.ENDS | sig.LIKE_WORDS:
                    self.unsay(n, n + 1)
            # The column or table named last before the text: "whose address contains TN"
            before = [
                c
                for c in self.chosen.choices
                if c.end <= i and not c.is_value and c.start not in self.unsaid
            ]
            nearest = before[-1] if before else None
            target = None
            if nearest is not None and not nearest.is_table:  # "emails with 'a' or 'b'"
                target = self.take(nearest) if self.free(nearest) else nearest.link.element
            elif nearest is not None:
                target = self.label(nearest.table)
            if target is None:
                continue
            self.use(i - 4, i + 1)
            self.intent.conditions.append(Condition(target, op, word.text, at=i))

    def _inside(self, i: int, text: str, op: str) -> bool:
        """ "artists that have 'a' in their names": text inside the column named after."""
        if self.lows[i + 1 : i + 2] != ["in"]:
            return False
        column = self.chosen.after(i + 1, within=4)
        if not self.free_column(column):
            return False
        self.use(max(0, i - 4) if set(self.lows[max(0, i - 4) : i]) & sig.LIKE_WORDS else i,
                 column.start)  # fmt: skip
        op = op if op in ("like", "unlike") else "like"
        for n in range(max(0, i - 4), i) if op == "unlike" else ():
            if self.lows[n] in sig.NEGATIONS:
                self.use(n, n + 1)  # "without the letter M in their first names"
        self.intent.conditions.append(Condition(self.take(column), op, text, at=i))
        return True
