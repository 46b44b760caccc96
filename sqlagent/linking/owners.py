"""Which table a column said "of the X" is of: "the id and details of the investor", "the
names of the albums" (their title), "the details of all visitors"; and a kind word said
right after a column as part of it ("zip code")."""

from dataclasses import replace

from sqlagent.linking import signals as sig
from sqlagent.linking.chosen import Choice
from sqlagent.linking.reading_base import ReaderBase
from sqlagent.linking.schema_words import KIND_WORDS, Element, name_words, root

# Last words of columns that hold a code for a row, not what it is called.
_CODES = frozenset({"code", "id", "key", "number", "no", "num"})

# Words between "of" and the table it names: "the names of all the different shops".
_QUANTIFIERS = sig.DETERMINERS | {"all", "each", "every", "different", "distinct", "unique",
                                  "a", "an", "our", "these", "those"}  # fmt: skip

# Kinds of columns a table may have one of: "the details of all visitors".
_KINDS = frozenset({"code", "detail", "details", "description", "number", "type"})

# Superlatives and adjectives between "of the" and the table: "the most recent order".
_BEFORE_NOUN = frozenset(sig.DESCENDING | sig.ASCENDING | {"recent", "new", "old", "current"})


class OwnerSteps(ReaderBase):
    def _glued_kinds(self) -> None:
        """ "zip code", "phone numbers": a kind word right after a column whose name does
        not end in one is part of how that column is said, not another table's code."""
        kept: list[Choice] = []
        for choice in self.chosen.choices:
            before = kept[-1] if kept else None
            if (
                before is not None
                and before.end == choice.start == choice.end - 1
                and not before.is_table
                and not before.is_value
                and not choice.is_value
                and choice.table != before.table
                and self.words[choice.start].lemma in KIND_WORDS
                and before.link.element.names[0][0][-1] not in KIND_WORDS
            ):
                kept[-1] = Choice(replace(before.link, end=choice.end), before.alternatives)
                continue
            kept.append(choice)
        self.chosen.choices = kept

    def _labelled(self, choice: Choice, element: Element) -> Element:
        """ "the names of the aircraft": a name in no table the question names is the
        label of the table named right after it; "the id of the student" is its key."""
        tables = self.chosen.tables
        lemma = self.words[choice.start].lemma
        if tables and lemma == "id" and choice.end - choice.start == 1:
            following = self._table_after(choice.end)
            keys = [
                e for e in self.schema.elements
                if e.table == following and e.primary_key and e.names[0][0][-1:] == ("id",)
            ]  # fmt: skip
            return keys[0] if len(keys) == 1 else element
        if tables and lemma in _KINDS and choice.end - choice.start == 1:
            return self._kind_of_owner(choice, element)
        if lemma not in ("name", "title") or not tables:
            return self._name_of_referred(choice, element)
        owner = self._table_after(choice.start + 1)
        if owner is not None and owner != element.table:
            # "the names and years of the movies" where only reviewers have a `name`: the
            # movies' title
            return self.named_label(owner) or element
        if element.table in tables:
            return element
        found = self.chosen.after(choice.end - 1, within=3)
        if found is not None and found.is_table:
            return self.named_label(found.table) or element
        if (
            found is not None
            and not found.is_value
            and self.lows[choice.end : choice.end + 1] == ["of"]
            and found.link.element.data_type == "text"
            and found.link.element.names[0][0][-1] not in _CODES
        ):
            return found.link.element  # "the names of the countries": the countries
        return element

    def _name_of_referred(self, choice: Choice, element: Element) -> Element:
        """ "the winning aircraft name": a column holding another table's key, said with
        "name" after it, asks for the name of the row it refers to (joined by that column)."""
        said = self.words[choice.end - 1].lemma
        referred = self.schema.referring.get((element.table, element.column or ""))
        if said not in ("name", "title") or referred is None or said in element.names[0][0]:
            return element
        label = self.named_label(referred)
        if label is None:
            return element
        self.intent.need(referred)
        self.intent.joined_by.append(element)
        return label

    def _kind_of_owner(self, choice: Choice, element: Element) -> Element:
        """ "the details of all visitors", "the code of the most recent order": a kind of
        column said of a table is that table's column of the kind."""
        owner = self._table_after(choice.end)
        if owner is None or owner == element.table:
            return element
        said = {self.words[choice.start].lemma, self.words[choice.start].lower}
        kin = [
            e
            for e in self.schema.elements
            if e.table == owner and e.column and e.names[0][0][-1] in said
        ]
        return kin[0] if len(kin) == 1 else element

    def _table_after(self, end: int) -> str | None:
        """The table an "of" after the columns asked names: "the id and name of the
        student", "the id and details of the investor" (`Investor_details`), "the names
        of all the device shops"."""
        for n in range(end, min(len(self.lows), end + 8)):
            if self.lows[n] == "of":
                around = self.chosen.at(n)
                if around is not None and not around.is_value and around.start < n:
                    return around.table if self._names_own_table(around, n) else None
                return self._table_at(n + 1)
            if not self._listed_column(n):
                return None  # "the name for storms and the number of regions"
        return None

    def _names_own_table(self, choice: Choice, of: int) -> bool:
        """Whether the words after "of" in a column's run name its table: "details of the
        investor" (`Investors`), not "ids of artists" (`Album.ArtistId`)."""
        table = {root(w) for w in name_words(choice.table)}
        said = [w.lemma for w in self.words[of + 1 : choice.end] if w.lower not in _QUANTIFIERS]
        return bool(said) and all(root(w) in table for w in said)

    def _listed_column(self, n: int) -> bool:
        """Whether the word is part of a list of columns asked: "the id, name and age"."""
        if self.lows[n] in ("and", "or") or self.lows[n] in sig.DETERMINERS:
            return True
        found = self.chosen.at(n)
        return found is not None and not found.is_value and not found.is_table

    def _table_at(self, n: int) -> str | None:
        """The table named from word n on, past "all the" and "different"; of a compound
        ("device shops") its last noun."""
        while n < len(self.lows) and self.lows[n] in _QUANTIFIERS:
            n += 1
        for _ in range(2):  # "the most recent order": words no name holds, before the table
            if n < len(self.lows) and self.chosen.at(n) is None and self.lows[n] in _BEFORE_NOUN:
                n += 1
        found = self.chosen.at(n)
        if found is None or found.start != n or not found.is_table:
            return None
        while self._compound(found):  # "device shops": shops; not "procedures physician"
            found = self.chosen.at(found.end) or found
        return found.table

    def _compound(self, first: Choice) -> bool:
        """Whether a table's name is the singular first noun of a compound whose head
        names another table."""
        head = self.chosen.at(first.end)
        last = self.words[first.end - 1]
        return (
            head is not None
            and head.is_table
            and head.start == first.end
            and last.lower == last.lemma
            and not self.by_root(head)
        )
