"""Yes-or-no columns said of the rows: "active trucks", "tax exempt accounts", "medicines
not approved by the FDA" (a text column that holds 'Yes' and 'No')."""

from core.language import is_noun
from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.intent import Condition
from sqlagent.linking.reading_base import ReaderBase, Unreadable


class FlagSteps(ReaderBase):
    def _flags(self) -> None:
        """ "active trucks", "tax exempt accounts": a yes-or-no column said of the rows is a
        condition on them; a negation just before ("not active") asks for the others."""
        for choice in self.chosen.choices:
            element = choice.link.element
            said = self.flags.get((element.table.lower(), (element.column or "").lower()))
            if (element.data_type != "boolean" and said is None) or not self.free_column(choice):
                continue
            if any(c.element == element for c in self.intent.conditions):
                self.take(choice)  # "approved by the FDA": two words of `FDA_approved`
                continue
            if said is not None and not self._said_as_flag(choice):
                continue
            if choice.end - choice.start == 1 and self.by_root(choice) and self._noun(choice):
                continue  # "records" is not is_recordable; "did not pass" is isPassed
            if self.lows[choice.start - 1 : choice.start] in (["whether"], ["if"]):
                continue  # "whether it is active": the flag is asked
            self._flagged_rows(choice)
            near = range(max(0, choice.start - 2), choice.start)
            negation = [n for n in near if self.lows[n] in sig.NEGATIONS]
            self.take(choice)
            self.use(negation[0] if negation else choice.start, choice.start)
            value = not negation if said is None else said[bool(negation)]  # 'Y' or 'N'
            self.intent.conditions.append(Condition(element, "=", value, at=choice.start))

    def _noun(self, choice: Choice) -> bool:
        return is_noun(self.tags[choice.start])

    def _said_as_flag(self, choice: Choice) -> bool:
        """Whether a column that holds 'Y' or 'N' is said as a yes or no of the rows ("not
        approved by the FDA"), not named as a column ("the FDA approval status", "whose
        active status is 'Y'")."""
        if any(c.is_value and c.link.element == choice.link.element for c in self.chosen.choices):
            return False
        after = self.words[choice.end] if choice.end < len(self.words) else None
        return after is None or not after.content or self.chosen.at(choice.end) is not None

    def _flagged_rows(self, flag: Choice) -> None:
        """ "active trucks": the rows a flag is said of must be its table's; a word
        nothing here names leaves that unknown."""
        n = flag.end
        while (found := self.chosen.at(n)) is not None and found.is_value:
            n = found.end  # "active Ford trucks"
        if n >= len(self.words) or self.chosen.at(n) is not None or not self.words[n].content:
            return
        if self.words[n].lower in sig.SHAPE_WORDS:
            return
        said = " ".join(w.text for w in self.words[flag.start : n + 1])
        raise Unreadable(f"I do not know which rows '{said}' are")
