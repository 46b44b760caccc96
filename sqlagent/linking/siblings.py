"""Tables that meet only as children of a parent the question does not name ("players
from college UCLA": `player` and `match_season` both refer to `team`). Joined that way
they relate rows that merely share a parent: a guess. Where one of them holds everything
the question reads of the other under the same column names (`match_season.Player`),
its rows are the ones meant; otherwise the reading is declined."""

from collections import Counter, defaultdict
from dataclasses import replace

from registries.services import SemanticLayer
from sqlagent.join_paths import JoinPlan
from sqlagent.linking.intent import Intent
from sqlagent.linking.reading_base import Unreadable
from sqlagent.linking.schema_words import Element


def unsaid_parent(intent: Intent, layer: SemanticLayer, joins: JoinPlan) -> tuple[str, list[str]]:
    """The first parent no word names with the children it joins ("", [] if none). One
    child whose key is the parent's ("students" of `People`) is that parent, said."""
    children: defaultdict[str, list[str]] = defaultdict(list)
    kinds: Counter[str] = Counter()  # children that are a kind of their parent
    for step in joins.joins:
        rel = step.relationship
        children[rel.to_table].append(rel.from_table)
        keys = [c.name for c in layer.tables[rel.from_table].columns.values() if c.primary_key]
        if keys == [rel.from_column] and rel.from_table in intent.tables:
            kinds[rel.to_table] += 1
    for parent, kids in children.items():
        if len(kids) > 1 and parent not in intent.tables and kinds[parent] != 1:
            return parent, kids
    return "", []


def unsaid_parent_declined(parent: str) -> Unreadable:
    return Unreadable(f"the tables it names meet only through {parent} rows it does not name")


def read_in_sibling(intent: Intent, layer: SemanticLayer, children: list[str]) -> bool:
    """Read what the question says of one child in another that has the same columns by
    name, or, for a child only named, a column named as it (`match_season.Player` for
    "players"); True when the intent was changed so."""
    for child in children:
        if child == intent.missing:
            continue
        read = _read_of(intent, child)
        for other in children:
            columns = {c.lower(): c for c in layer.tables[other].columns} if other != child else {}
            named = all((e.column or "").lower() in columns for e in read)
            # "the checking and savings balances": each table's own, not one said twice
            twice = {(e.column or "").lower() for e in read} & {
                (e.column or "").lower() for e in _read_of(intent, other)
            }
            if columns and named and not twice and (read or child.lower() in columns):
                _move(intent, child, other, columns)
                return True
    return False


def _read_of(intent: Intent, table: str) -> list[Element]:
    """The columns of `table` the intent reads (the table itself said counts as none)."""
    found = [o.element for o in intent.outputs] + [c.element for c in intent.conditions]
    found += [c.element for c in intent.both] + [intent.group]
    found += [o.element for o in (intent.order, intent.then) if o is not None]
    return [e for e in found if e is not None and e.table == table and e.column is not None]


def _move(intent: Intent, child: str, other: str, columns: dict[str, str]) -> None:
    def column(element: Element) -> Element:
        if element.table != child or element.column is None:
            return element
        return replace(element, table=other, column=columns[element.column.lower()])

    def moved(element: Element | None) -> Element | None:
        return None if element is None else column(element)

    intent.outputs = [replace(o, element=moved(o.element)) for o in intent.outputs]
    intent.conditions = [replace(c, element=column(c.element)) for c in intent.conditions]
    intent.both = [replace(c, element=column(c.element)) for c in intent.both]
    intent.group = moved(intent.group)
    if intent.order is not None:
        intent.order = replace(intent.order, element=moved(intent.order.element))
    if intent.then is not None:
        intent.then = replace(intent.then, element=moved(intent.then.element))
    intent.tables = list(dict.fromkeys(other if t == child else t for t in intent.tables))
    if intent.anchor == child:
        intent.anchor = other
    if intent.counted == child:
        intent.counted = other
    intent.notes.append(f"{child} is read in {other}, which holds the same columns")
