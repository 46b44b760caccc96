"""Numbers said together of one column: "24 or 25", "in either 1999 or 2000" (either), "in
both 1989 and 1990" (each in some row of the thing asked about, as INTERSECT)."""

from sqlagent.linking.intent import Condition
from sqlagent.linking.reading_base import ReaderBase
from sqlagent.linking.schema_words import Element


def plain(number: float) -> int | float:
    return int(number) if number.is_integer() else number


class NumberPairSteps(ReaderBase):
    def _or_number(self, i: int, element: Element) -> None:
        """ "24 or 25": the next number is another value of the same column."""
        after = i + 2
        if self.lows[i + 1 : i + 2] != ["or"] or after >= len(self.words):
            return
        number = self.words[after].number
        if number is None or after in self.intent.used:
            return
        self.use(i + 1, after + 1)
        self.intent.conditions.append(Condition(element, "=", plain(number), at=after))
        self.intent.any_of = True

    def _both_numbers(self, i: int, number: float) -> bool:
        """ "a movie in both 1999 and 2000", "rated both 3 stars and 4 stars", "in either
        1999 or 2000": a number after "and" or "or" is another value of the column the
        number before it was read of; after "or" either holds, after "and" with "both"
        before the first each must hold for some row."""
        joined = self.lows[i - 1] if i else ""
        if joined not in ("and", "or"):
            return False
        earlier = next(
            (c for c in self.intent.conditions if c.op == "=" and c.at < i - 1 <= c.at + 2), None
        )
        if earlier is None or self.words[earlier.at].number is None:
            return False
        if joined == "and" and "both" not in self.lows[max(0, earlier.at - 4) : earlier.at]:
            return False
        self.use(i - 1, i + 1)
        unit = self.chosen.at(i + 1)
        if unit is not None and self.free(unit) and unit.link.element == earlier.element:
            self.take(unit)  # "3 stars and 4 stars"
        condition = Condition(earlier.element, "=", plain(number), at=i)
        if joined == "or":
            self.intent.conditions.append(condition)
            self.intent.any_of = True
            return True
        self.intent.conditions.remove(earlier)
        self.intent.both += [earlier, condition]
        return True
