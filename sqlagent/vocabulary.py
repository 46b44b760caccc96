"""The words a question can use for the warehouse: domain terms and their synonyms, table
and column names split into words ("workOrder" -> "work order"), and the values of small
enumerations ("completed", "Crane"). Built once per semantic-layer snapshot.

Words are compared in a normal form: lower case, singular, punctuation dropped, so that
"Work Orders", "work-order" and "work order" meet.
"""

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from registries.services import SemanticLayer, Term

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Plurals of words that end in "ie" (not "y"): movie, not "movy".
_IE_PLURALS = frozenset({"movies", "cookies", "calories", "zombies", "rookies", "goalies",
                         "brownies", "selfies", "hoodies", "lingeries", "prairies"})  # fmt: skip
# Words whose trailing "s" is not a plural.
_NOT_PLURAL = {"status", "address", "business", "gas", "bus", "yes", "is", "has", "was", "its",
               "this", "series", "species"}  # fmt: skip
_STOP = {"the", "a", "an", "of", "for", "to", "in", "on", "at", "and", "or", "with", "by",
         "is", "are", "was", "were", "be", "do", "does", "did", "have", "has", "had", "there",
         "what", "which", "who", "whom", "whose", "how", "many", "much", "list", "show", "me",
         "give", "all", "our", "we", "their", "its", "that", "this", "these", "those"}  # fmt: skip


# English plurals not made with an -s.
_IRREGULAR = {"people": "person", "men": "man", "women": "woman", "children": "child",
              "feet": "foot", "teeth": "tooth", "mice": "mouse", "geese": "goose"}  # fmt: skip


def singular(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3 or word in _NOT_PLURAL or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("uses") and not word.endswith(("ouses", "auses")) and len(word) > 4:
        return word[:-2]  # "buses", "statuses", "campuses"; not "houses", "causes"
    if word.endswith("ies") and len(word) > 4:
        return word[:-1] if word in _IE_PLURALS else word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses", "zzes")):  # not "sizes", "prizes"
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """Normal-form words of a phrase or identifier."""
    spaced = _CAMEL.sub(" ", text.replace("_", " "))
    return [singular(w) for w in _WORD.findall(spaced.lower().replace("'s", ""))]


def phrase(text: str) -> str:
    return " ".join(words(text))


_SHAPE_WORDS = frozenset({"per", "each", "by"})


@dataclass(frozen=True)
class Entry:
    """One thing a phrase can mean."""

    kind: str  # term, table, role, value, column, group (of columns)
    table: str = ""
    column: str = ""
    value: str = ""
    term: Term | None = None
    columns: tuple[str, ...] = ()  # a group's columns ("site contact": name and phone)

    @property
    def priority(self) -> int:
        # A curated term beats a table name beats a role beats an enumeration value beats a
        # column name beats a group of columns.
        return {"term": 0, "table": 1, "role": 2, "value": 3, "column": 4, "group": 5}[self.kind]


@dataclass(frozen=True)
class Vocabulary:
    entries: dict[str, tuple[Entry, ...]]  # normal-form phrase -> meanings
    longest: int  # words in the longest phrase


# Units a number column's name may end with: "capacityTons" is the capacity, in tons.
UNITS = frozenset({"ton", "hour", "day", "week", "month", "year", "minute", "mile", "kg", "lb",
                   "pound", "foot", "feet", "meter", "percent", "dollar", "usd"})  # fmt: skip


def unit_of(column: str) -> str | None:
    """The unit word a number column's name ends with, when a name stands before it."""
    parts = words(column)
    if len(parts) >= 2 and parts[-1] in UNITS and parts[-2] not in ("per", "of"):
        return parts[-1]
    return None


def _column_phrases(column: str, data_type: str = "") -> list[str]:
    base = phrase(column)
    if not base or base == "id":
        return []
    found = [base]
    if data_type in ("integer", "decimal") and (unit := unit_of(column)):
        found.append(base.removesuffix(f" {unit}"))  # "a capacity of 200 tons"
    if data_type in ("date", "datetime") and len(base.split()) > 2:
        # "calibration due" of calibrationDueOn: the last word only says it is a date
        for suffix in (" on", " at", " date"):
            if base.endswith(suffix):
                found.append(base.removesuffix(suffix))
    if base == "address":
        found.append("street address")
    # Booleans read as adjectives: isActive -> "active", hasSignature -> "signature".
    for prefix in ("is ", "has ", "requires "):
        if base.startswith(prefix):
            found.append(base[len(prefix) :])
    if base == "email":
        found += ["email address", "e mail", "e mail address"]
    if base.startswith("is ") and " " not in base[3:]:
        # "inactive", "unapproved": resolution reads the prefix as a negation.
        found += [f"in{base[3:]}", f"un{base[3:]}"]
    return found


def _column_groups(columns: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Columns that share a name of two words or more name a group: "the site contact" is
    siteContactName and siteContactPhone."""
    groups: dict[str, list[str]] = defaultdict(list)
    for column in columns:
        if column.endswith("Id"):
            continue
        parts = words(column)
        for n in range(2, len(parts)):
            groups[" ".join(parts[:n])].append(column)
    return {
        key: tuple(members)
        for key, members in groups.items()
        if len(members) >= 2 and key.split()[0] not in _STOP
    }


@lru_cache(maxsize=16)
def vocabulary(layer: SemanticLayer, values: tuple[tuple[str, str, str], ...] = ()) -> Vocabulary:
    """`values`: (table, column, value) of enumeration values known to be in the data."""
    entries: dict[str, list[Entry]] = defaultdict(list)
    _add_terms(entries, layer)
    _add_tables(entries, layer)
    _add_roles(entries, layer)
    _add_values(entries, values)
    _add_table_heads(entries, layer)
    frozen = {key: tuple(sorted(found, key=lambda e: e.priority)) for key, found in entries.items()}
    return Vocabulary(frozen, max((len(k.split()) for k in frozen), default=1))


def _add_terms(entries: dict[str, list[Entry]], layer: SemanticLayer) -> None:
    for term in layer.terms:
        for text in (term.name, *term.synonyms):
            if key := phrase(text):
                entries[key].append(Entry("term", term=term))


def _add_tables(entries: dict[str, list[Entry]], layer: SemanticLayer) -> None:
    """Tables by name, their columns and the groups of columns that share a name."""
    for name, table in layer.tables.items():
        entries[phrase(name)].append(Entry("table", table=name))
        for column in table.columns.values():
            if column.name.endswith("Id") or column.name in ("createdAt", "updatedAt"):
                continue  # foreign keys speak through their tables; audit stamps are noise
            for key in _column_phrases(column.name, column.data_type):
                if key not in _STOP:
                    entries[key].append(Entry("column", table=name, column=column.name))
        for key, members in _column_groups(table.columns).items():
            entries[key].append(Entry("group", table=name, columns=members))


AMOUNT_WORDS = frozenset({"amount", "total", "value"})


def own_total(layer: SemanticLayer, table: str) -> str | None:
    """The one column a table's own amount is in ("total" of invoice), if it has one."""
    totals = [c for c in layer.tables[table].columns if phrase(c) in AMOUNT_WORDS]
    return totals[0] if len(totals) == 1 else None


def _add_table_heads(entries: dict[str, list[Entry]], layer: SemanticLayer) -> None:
    """The last word of a table's name, when no other table's name ends in it and nothing
    else is called so: "contracts" are the customerContract rows, "feedback" the
    customerFeedback rows, as people say them."""
    heads: dict[str, list[str]] = defaultdict(list)
    for name in layer.tables:
        words = phrase(name).split()
        if len(words) > 1:
            heads[words[-1]].append(name)
    for name in layer.tables:
        if phrase(name) in heads:
            heads[phrase(name)].append(name)  # a table called by the word itself
    for head, tables in heads.items():
        if len(tables) == 1 and head not in entries and head not in _STOP and len(head) > 3:
            entries[head].append(Entry("table", table=tables[0]))


def _add_roles(entries: dict[str, list[Entry]], layer: SemanticLayer) -> None:
    for rel in layer.relationships:
        # A foreign key named for a role ("accountManagerId" -> employee) names its rows:
        # "the account manager of X" is the employee that X's accountManagerId points to.
        role = phrase(rel.from_column[:-2]) if rel.from_column.endswith("Id") else ""
        if (
            role
            and role != phrase(rel.to_table)
            and role not in _STOP
            and rel.to_table in layer.tables
        ):
            entries[role].append(
                Entry("role", table=rel.to_table, column=rel.from_column, value=rel.from_table)
            )


def _add_values(entries: dict[str, list[Entry]], values: tuple[tuple[str, str, str], ...]) -> None:
    for table_name, column_name, value in values:
        key = phrase(value)
        if not key or key in _STOP or key.isdigit() or key.split()[0] in _SHAPE_WORDS:
            continue  # "per_work_order" would swallow "per work order type"
        if "_" in value and len(key.split()) >= 3:
            continue  # an identifier ("work_order_scheduled"), not a word people say
        entry = Entry("value", table=table_name, column=column_name, value=value)
        entries[key].append(entry)
        if key.isalpha() and value.islower():  # "passed", "failed" for pass, fail
            entries[key + ("d" if key.endswith("e") else "ed")].append(entry)
