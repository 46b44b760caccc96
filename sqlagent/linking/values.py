"""The stored text values a question may name, for linking: every distinct short value of
each text column with at most `LINK_VALUE_LIMIT` of them ("Google" is `Inst.name`, "King" is
`Rooms.bedType`), and the whole numbers of number columns with at most `NUMBER_VALUE_LIMIT`
of them ("room 111" is `list.classroom`). Read once per semantic-layer version and kept like
the value index; the values never leave Switchboard.
"""

import hashlib
import threading
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.core.cache import cache

from registries.services import SemanticLayer
from sqlagent.linking.schema_words import root, value_key
from sqlagent.value_index import reading_tables

__all__ = ["StoredValues", "build_stored_values", "stored_values", "value_key"]

LINK_VALUE_LIMIT = 10_000
# A column with more distinct numbers than this holds amounts or ids, not values people name.
NUMBER_VALUE_LIMIT = 1_000
MAX_VALUE_CHARS = 60
CACHE_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class StoredValues:
    by_key: dict[str, tuple[tuple[str, str, str], ...]]  # normal form -> (table, column, value)
    longest: int  # words in the longest value
    # Text columns whose every value is a number ("share_count" stored as text), lower case.
    numbers: frozenset[tuple[str, str]] = frozenset()
    # Text columns that hold yes or no ('Y'/'N', 'Yes'/'No'), lower case: their two values.
    flags: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    # A whole number ("111") -> the number columns (table, column) that store it.
    number_columns: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)

    @cached_property
    def columns(self) -> frozenset[str]:
        """Columns (lower case) whose every value is here."""
        return frozenset(c.lower() for found in self.by_key.values() for _, c, _ in found)

    def find(self, text: str) -> tuple[tuple[str, str, str], ...]:
        return self.by_key.get(value_key(text), ())

    @cached_property
    def by_root(self) -> dict[str, tuple[tuple[str, str, str], ...]]:
        """One-word values stored in lower case, as states and kinds are, by their Snowball
        stem: "voided" names 'void'. Names and codes ('Destin', 'RUN') are left out: a
        plain word ("destination", "runs") is another word, not another form of them."""
        found: dict[str, list[tuple[str, str, str]]] = {}
        for key, where in self.by_key.items():
            plain = [w for w in where if w[2].islower()]
            if key.isalpha() and plain:
                found.setdefault(root(key), []).extend(plain)
        return {k: tuple(v) for k, v in found.items()}

    @cached_property
    def by_plural(self) -> dict[str, tuple[tuple[str, str, str], ...]]:
        """Capitalised one-word values by their plural ("defenders": 'Defender'): a name's
        other forms are other words, but its plural is the same thing, counted."""
        found: dict[str, list[tuple[str, str, str]]] = {}
        for key, where in self.by_key.items():
            named = [w for w in where if w[2][:1].isupper()]
            if key.isalpha() and named:
                for plural in _plurals(key):
                    found.setdefault(plural, []).extend(named)
        return {k: tuple(v) for k, v in found.items()}

    def find_form(self, word: str) -> tuple[tuple[str, str, str], ...]:
        """The one-word values another form of `word` is."""
        if not word.isalpha():
            return ()
        lower = word.lower()
        return self.by_root.get(root(lower), ()) or self.by_plural.get(lower, ())


def _plurals(word: str) -> tuple[str, ...]:
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return (word[:-1] + "ies",)
    return (word + "es",) if word.endswith(("s", "x", "ch", "sh")) else (word + "s",)


def build_stored_values(layer: SemanticLayer, url: str, *, agent: bool) -> StoredValues:
    found: dict[str, list[tuple[str, str, str]]] = {}
    numbers: set[tuple[str, str]] = set()
    flags: dict[tuple[str, str], tuple[str, str]] = {}
    whole: dict[str, list[tuple[str, str]]] = {}
    with reading_tables(layer, url, agent=agent) as (cursor, quote):
        for name, table in layer.tables.items():
            relation = quote(table.secure_view or name)
            for column in table.columns.values():
                if column.name in table.sensitive_columns:
                    continue
                key_of = (name.lower(), column.name.lower())
                if column.data_type == "integer" and not column.primary_key:
                    kept = _distinct(cursor, relation, quote(column.name), NUMBER_VALUE_LIMIT)
                    for value in kept or ():
                        whole.setdefault(str(int(value)), []).append((name, column.name))
                if column.data_type != "text":
                    continue
                rows = _distinct(cursor, relation, quote(column.name), LINK_VALUE_LIMIT)
                if rows is None:
                    continue
                if rows and all(_is_number(value) for value in rows):
                    numbers.add(key_of)
                said = _yes_and_no(rows)
                if said is not None:
                    flags[key_of] = said
                for value in rows:
                    short = isinstance(value, str) and 0 < len(value) <= MAX_VALUE_CHARS
                    if short and (key := value_key(value)):
                        found.setdefault(key, []).append((name, column.name, value))
    longest = max((len(k.split()) for k in found), default=1)
    return StoredValues(
        {k: tuple(v) for k, v in found.items()},
        min(longest, 8),
        frozenset(numbers),
        flags,
        {k: tuple(v) for k, v in whole.items()},
    )


def _distinct(cursor: Any, relation: str, quoted: str, limit: int) -> list[Any] | None:
    """A column's distinct values; None when there are more than `limit`."""
    cursor.execute(
        f"SELECT DISTINCT {quoted} FROM {relation} "  # noqa: S608 - schema names
        f"WHERE {quoted} IS NOT NULL LIMIT {limit + 1}"
    )
    rows = [value for (value,) in cursor.fetchall()]
    return None if len(rows) > limit else rows


_YES = frozenset({"yes", "y", "true", "t"})
_NO = frozenset({"no", "n", "false", "f"})


def _yes_and_no(values: list[object]) -> tuple[str, str] | None:
    """The stored spellings of yes and no, where a column holds those two and no other."""
    texts = [v.strip() for v in values if isinstance(v, str)]
    yes = [t for t in texts if t.lower() in _YES]
    no = [t for t in texts if t.lower() in _NO]
    if len(texts) != len(values) or len(yes) + len(no) != len(texts) or not yes or not no:
        return None
    return yes[0], no[0]


def _is_number(value: object) -> bool:
    try:
        float(str(value))
    except ValueError:
        return False
    return True


_here: dict[str, StoredValues] = {}
_lock = threading.Lock()


def stored_values(layer: SemanticLayer, url: str, *, agent: bool) -> StoredValues:
    where = hashlib.sha256(url.encode()).hexdigest()[:12]
    key = f"sqlagent:linkvalues4:{layer.data_source}:{layer.version}:{where}"
    found = _here.get(key) or cache.get(key)
    if found is None:
        found = build_stored_values(layer, url, agent=agent)
        cache.set(key, found, CACHE_SECONDS)
    with _lock:
        if len(_here) >= 8:
            _here.clear()
        _here[key] = found
    return found
