"""The reading steps that find conditions on stored values: "customers in Texas", "not
Flat or Studio", "whose detail is 'Vincent'", "students in room 111"."""

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.intent import Condition
from sqlagent.linking.negation import negated_list, negates
from sqlagent.linking.number_pairs import NumberPairSteps, plain
from sqlagent.linking.schema_words import Element


class ValueConditionSteps(NumberPairSteps):
    def _values(self) -> None:
        values = [
            c
            for c in self.chosen.choices
            if c.is_value and not self._rows_kept_at(c) and not self._number_of_column(c)
        ]
        for n, choice in enumerate(values):
            element = self.take(choice)
            since = values[n - 1].end if n else 0
            before = self.lows[max(since, choice.start - 7) : choice.start]
            op = "like" if set(before[-4:]) & sig.LIKE_WORDS else "="
            negated = [n for n, low in enumerate(before) if negates(before, n)]
            start = choice.start - len(before)
            excepted = before[negated[-1]] in sig.EXCLUSIONS if negated else False
            if negated and not self._negates_table(start + negated[-1], choice, excepted):
                op = "!="
                self.use(start + negated[-1], choice.start)  # the words from the negation on
            named = self.chosen.before(choice.start, within=3)
            if (
                self.free(named)
                and named is not None
                and not named.is_value
                and (
                    named.link.element == element
                    or (named.is_table and named.table == choice.table)
                    or self._names(named, element)
                )
            ):
                self.take(named)  # "the city Boston", "whose detail is 'Vincent'"
            said = self.chosen.after(choice.end - 1, within=1)
            if said is not None and self.free(said) and said.link.element == element:
                self.take(said)  # "in the spring election cycle"
            value = choice.link.value if op != "like" else self.words[choice.start].text
            earlier = values[n - 1] if n else None
            joined = self.lows[earlier.end : choice.start] if earlier else []
            neither = negated_list(self.intent.conditions, element, joined)
            if neither:
                op = "!="  # "no allergy to food or animal": neither value
            condition = Condition(element, op, value, at=choice.start)
            same = earlier is not None and earlier.link.element == element
            if same and "or" in joined and not neither:
                self.intent.any_of = True
            if same and "and" in joined:
                self.intent.both.append(condition)
                continue
            self.intent.conditions.append(condition)
        if self.intent.both:  # the first value of the pair is the other half
            first = next(
                c for c in self.intent.conditions if c.element == self.intent.both[0].element
            )
            self.intent.conditions.remove(first)
            self.intent.both.insert(0, first)

    def _stored_number(self, i: int, number: float) -> None:
        """ "students in room 111", "majoring in 600": a whole number no word names the
        column of is the value of the one number column, of the tables the question names,
        that stores it; where several do, the one whose name holds the word before the
        number ("room": `classroom`). The evidence counts it a guessed value."""
        if not number.is_integer() or i in self.intent.used or self._counts_rows(i):
            return
        tables = set(self.question_tables())
        held = [(t, c) for t, c in self.stored_numbers.get(str(int(number)), ()) if t in tables]
        before = self.lows[i - 1] if i else ""
        if len(held) > 1 and len(before) >= 3:
            held = [(t, c) for t, c in held if before in c.lower()]
        if len(held) != 1:
            return
        element = next((e for e in self.schema.elements if (e.table, e.column) == held[0]), None)
        if element is None:  # a column the linking words leave out
            return
        self.use(i, i + 1)
        self.intent.conditions.append(Condition(element, "=", plain(number), at=i))
        self.intent.guessed_values += 1

    def _counts_rows(self, i: int) -> bool:
        """ "the 5 oldest players", "5 customers who ...": a number before a superlative or
        a table's name says how many rows, not a value ("0 loans" may be a stored count)."""
        after = self.chosen.at(i + 1)
        return bool(set(self.lows[i + 1 : i + 3]) & sig.SUPERLATIVES) or (
            after is not None and after.is_table and self.words[i].number != 0
        )

    def _rows_kept_at(self, value: Choice) -> bool:
        """ "the 2 most expensive hotels": a number before a superlative is how many rows
        to keep, not a stored value ('2' stars)."""
        number = value.end == value.start + 1 and self.words[value.start].number is not None
        after = self.lows[value.end : value.end + 1]
        return number and bool(after) and after[0] in sig.DESCENDING | sig.ASCENDING

    def _number_of_column(self, value: Choice) -> bool:
        """ "entries with level number 8": a number right after a numeric column is that
        column's, not a stored text '8' of another (`capacity`); `_numbered` reads it."""
        if value.end != value.start + 1 or self.words[value.start].number is None:
            return False
        named = self.chosen.before(value.start, within=1)
        return (
            named is not None
            and not named.is_value
            and not named.is_table
            and named.link.element.numeric
            and named.link.element != value.link.element
        )

    def _negates_table(self, start: int, value: Choice, excepted: bool = False) -> bool:
        """ "tracks that do not have a race in class GT": the negation is of the table
        named after it ("devices whose platform is not X" negates the value); "except the
        account with name 'Brown'" leaves out rows of the value's own table, by value."""
        return any(
            c.is_table
            and start <= c.start < value.start
            and not (excepted and c.table == value.table)
            for c in self.chosen.choices
        )

    def _names(self, choice: Choice, element: Element) -> bool:
        said = {w.lemma for w in self.words[choice.start : choice.end]}
        return any(said <= set(name) for name, _ in element.names)
