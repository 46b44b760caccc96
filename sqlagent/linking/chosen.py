"""From every possible link to one reading: the strongest runs of words that do not overlap,
and for each the table or column it most likely means, given the tables the question names
and, among equally likely meanings, the columns related verified queries use.
"""

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlagent.linking.links import Link
from sqlagent.linking.question import Word
from sqlagent.linking.schema_words import Element


@dataclass(frozen=True)
class Choice:
    """One run of words and what it means; `alternatives` were nearly as likely."""

    link: Link
    alternatives: int = 0

    @property
    def start(self) -> int:
        return self.link.start

    @property
    def end(self) -> int:
        return self.link.end

    @property
    def is_value(self) -> bool:
        return self.link.value is not None

    @property
    def is_table(self) -> bool:
        return self.link.value is None and self.link.element.is_table

    @property
    def table(self) -> str:
        return self.link.element.table


@dataclass
class Chosen:
    choices: list[Choice] = field(default_factory=list)

    def at(self, index: int) -> Choice | None:
        return next((c for c in self.choices if c.start <= index < c.end), None)

    def after(self, index: int, *, within: int = 4) -> Choice | None:
        return next((c for c in self.choices if index < c.start <= index + within), None)

    def before(self, index: int, *, within: int = 4) -> Choice | None:
        found = [c for c in self.choices if index - within <= c.end - 1 < index]
        return found[-1] if found else None

    @property
    def tables(self) -> list[str]:
        return list(dict.fromkeys(c.table for c in self.choices if c.is_table))


def _strength(link: Link) -> float:
    # A longer run that names something is better evidence than a shorter one inside it;
    # "of the" in "description of the product" names nothing.
    return link.score * (1 + 0.25 * (link.end - link.start - 1 - link.joining))


Preferred = frozenset[tuple[str, str]]  # (table, column), lower case: used by verified SQL


def possessed(words: Sequence[Word], links: list[Link]) -> dict[int, str]:
    """ "Which physicians treat more than one patient? Give their names.": the words after
    "their" or "its" are of the rows the question asks about, the table after its "which"
    or "what" (word index -> table)."""
    lows = [w.lower for w in words]
    asked = next((n for n, low in enumerate(lows) if low in ("which", "what")), None)
    if asked is None:
        return {}
    tables = [
        x
        for x in links
        if x.start in (asked + 1, asked + 2) and x.value is None and x.element.is_table
    ]
    sure = [x for x in tables if x.score >= 0.9]
    if not sure:
        return {}
    subject = max(sure, key=lambda x: x.score).element.table
    owned: dict[int, str] = {}
    for n, low in enumerate(lows[:-1]):
        at = n + 1
        while low in ("their", "its") and at < len(lows):
            owned[at] = subject  # "their names and ids"
            if lows[at + 1 : at + 2] not in (["and"], [","]):
                break
            at += 2
    return owned


def choose(
    links: list[Link],
    preferred: Preferred = frozenset(),
    refers: frozenset[tuple[str, str]] = frozenset(),
    possessed: dict[int, str] | None = None,
    ands: frozenset[int] = frozenset(),
) -> Chosen:
    """`refers`: the pairs of tables one refers to the other (either way round);
    `possessed`: the table the words at an index belong to ("their names"); `ands`: where
    the question says "and"."""
    by_span: dict[tuple[int, int], list[Link]] = {}
    for link in links:
        by_span.setdefault((link.start, link.end), []).append(link)
    # Ties go by position and then by name, so that every process reads a question alike.
    spans = sorted(by_span, key=lambda s: (-max(_strength(x) for x in by_span[s]), s))
    taken: set[int] = set()
    kept: list[list[Link]] = []
    for span in spans:
        if taken & set(range(*span)):
            continue
        taken |= set(range(*span))
        kept.append(by_span[span])
    named_at: dict[str, list[int]] = {}
    for group in kept:
        # Only the likeliest tables of a run are named by it: "courses" names Courses, not
        # Course_Authors_and_Tutors, whose name merely starts alike.
        tables = [x for x in group if x.value is None and x.element.is_table and x.score >= 0.75]
        for x in tables:
            if x.score >= max(t.score for t in tables) - 0.05:
                named_at.setdefault(x.element.table, []).append(x.start)
    # A table one of the question's columns surely belongs to ("the genders of staff" is
    # Staff.staff_gender, and nothing else): its meanings come next after named tables'.
    implied = {
        group[0].element.table
        for group in kept
        if len({x.element.table for x in group}) == 1 and group[0].score >= 0.75
    }
    # Where each column is named outright: a value said right after its column's name
    # ("the governor 'Eliot Spitzer'") is that column's, not another's holding it too.
    said_at = {
        x.element: x.start
        for group in kept
        for x in group
        if x.value is None and not x.element.is_table
    }
    adjacent = {a for a, b in refers if b in named_at} | {b for a, b in refers if a in named_at}
    groups = sorted(kept, key=lambda g: g[0].start)
    known = _Known(named_at, preferred, implied, said_at, possessed or {}, _paired_values(groups))
    first = [_pick(g, known, dict.fromkeys(adjacent, 1)) for g in groups]
    # Read again knowing the others: among meanings as likely, one in the table of a column
    # or value another word means adds no table ("the description of role code ED": the
    # role's). A table named outright may be one the rows are compared with ("documents
    # that do not have expenses"), so it does not count.
    chosen = Chosen()
    for n, group in enumerate(groups):
        others = {c.table for m, c in enumerate(first) if m != n and not c.is_table}
        together = {**dict.fromkeys(adjacent, 1), **dict.fromkeys(others, 2)}
        chosen.choices.append(_pick(group, known, together))
    _listed_apart(chosen, groups, ands)
    return chosen


_LISTED_FLOOR = 0.5  # the least likely column a listed word may take instead


def _listed_apart(chosen: Chosen, groups: list[list[Link]], ands: frozenset[int]) -> None:
    """ "the name and level of the catalog structure": things listed side by side are
    different columns. Where two mean the same one, the word with another column of that
    table, lost by the least likelihood, means that column."""
    choices = chosen.choices
    for n in range(len(choices) - 1):
        a, b = choices[n], choices[n + 1]
        if a.is_value or b.is_value or a.is_table or b.is_table:
            continue
        # Only with "and" between: words side by side may be one name split in two
        # ("typical price").
        if a.link.element != b.link.element or not (b.start == a.end + 1 and a.end in ands):
            continue
        best: tuple[float, int, Link] | None = None
        for m, choice in ((n, a), (n + 1, b)):
            others = sorted(
                (
                    x
                    for x in groups[m]
                    if x.value is None
                    and not x.element.is_table
                    and x.element.table == choice.table
                    and x.element != choice.link.element
                    and x.score >= _LISTED_FLOOR
                ),
                key=lambda x: (-x.score, str(x.element)),
            )
            if others and (best is None or choice.link.score - others[0].score < best[0]):
                best = (choice.link.score - others[0].score, m, others[0])
        if best is not None:
            choices[best[1]] = Choice(best[2])


def _paired_values(groups: list[list[Link]]) -> set[tuple[int, str]]:
    """(start, table) of values said side by side that one table holds both of: "Steve
    Johnson" is an employee's first and last name, not a customer's first name beside an
    employee's last."""
    paired: set[tuple[int, str]] = set()
    for left, right in itertools.pairwise(groups):
        if left[0].end != right[0].start:
            continue
        tables = {x.element.table for x in left if x.value is not None}
        common = tables & {x.element.table for x in right if x.value is not None}
        paired |= {(g[0].start, table) for g in (left, right) for table in common}
    return paired


@dataclass(frozen=True)
class _Known:
    """What the whole question says, against which each run's meanings are ranked."""

    named_at: dict[str, list[int]]  # table -> where a run names it
    preferred: Preferred
    implied: set[str]  # tables one of the question's columns surely belongs to
    said_at: dict[Element, int]  # column -> where its name is said
    owners: dict[int, str]  # word index -> the table "their" or "its" there stands for
    paired: set[tuple[int, str]]  # (start, table) of values said side by side in one table


def _pick(group: list[Link], known: _Known, together: dict[str, int] | None = None) -> Choice:
    """A value beats a name only when it is surer; among meanings, one in a table the
    question names, the nearest such mention first ("the names of the mountains"); among
    meanings as sure, one that related verified queries use."""

    def rank(link: Link) -> tuple[float, ...]:
        where = known.named_at.get(link.element.table, [])
        distance = min((abs(p - link.start) for p in where), default=99)
        # A column of a table the question names beats a surer name elsewhere: "the names
        # and details of the staff" are the staff's, not another table's "details".
        named = bool(where) and (link.element.is_table or link.score >= 0.5)
        element = link.element
        confirmed = (element.table.lower(), (element.column or "").lower()) in known.preferred
        near = element.table in known.implied
        said = link.value is not None and 0 < link.start - known.said_at.get(element, -9) <= 3
        owned = element.owned
        # Among meanings as likely, one joined straight to a named table adds fewer joins:
        # "the items in each order" are Order_Items, not Invoice_Line_Items.
        joined = (together or {}).get(element.table, 0)
        table = element.is_table
        # A name completed by words said once for two heads is the surest reading of its
        # head: "the budget type codes and descriptions" (the budget type's description).
        shared = link.shared
        mine = known.owners.get(link.start) == element.table  # "their names"
        pair = link.value is not None and (link.start, element.table) in known.paired
        return (
            shared, pair, named, mine, said, link.score, confirmed, -distance, joined, table,
            near, owned,
        )  # fmt: skip

    steady = sorted(group, key=lambda x: (str(x.element), str(x.value)))
    ordered = sorted(steady, key=rank, reverse=True)  # a stable sort: ties keep that order
    best = ordered[0]
    rivals = [
        x
        for x in ordered[1:]
        if x.score >= best.score - 0.05
        and rank(x)[:5] == rank(best)[:5]
        and rank(x)[7] == rank(best)[7]
    ]
    rivals = [x for x in rivals if str(x.element) != str(best.element)]
    return Choice(best, alternatives=len({str(x.element) for x in rivals}))
