"""The words each table and column can be called by, read from their names alone.

`Third_Party_Companies` is "third party company"; its column `company_name` is "company
name" and, inside that table, plain "name". Common abbreviations in names are spelled out
(`fname` is "first name", `dept` is "department"). Built once per semantic-layer snapshot.
"""

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

import Stemmer

from registries.services import SemanticLayer
from sqlagent.vocabulary import words

Name = tuple[tuple[str, ...], float]

# Abbreviations in column and table names and the words they stand for.
ABBREVIATIONS = {
    "fname": ("first", "name"), "lname": ("last", "name"), "dob": ("date", "of", "birth"),
    "num": ("number",), "no": ("number",), "qty": ("quantity",), "amt": ("amount",),
    "dept": ("department",), "desc": ("description",), "addr": ("address",),
    "stu": ("student",), "emp": ("employee",), "cust": ("customer",), "prod": ("product",),
    "yr": ("year",), "pct": ("percent",), "avg": ("average",), "tel": ("telephone",),
    "dt": ("date",), "nbr": ("number",), "cnt": ("count",), "mgr": ("manager",),
    "pos": ("position",), "ref": ("reference",), "org": ("organization",),
    "inst": ("institution",), "auth": ("author",), "info": ("information",),
    "lat": ("latitude",), "lon": ("longitude",), "acc": ("account",), "apt": ("apartment",),
    "min": ("minimum",), "max": ("maximum",),
}  # fmt: skip
# Words a column name adds to say what kind of value it holds; a question may leave them out
# ("the status of the order" is `order_status_code`).
KIND_WORDS = frozenset({"code", "id", "name", "number", "type", "value", "detail", "details"})


@dataclass(frozen=True)
class Element:
    """A table (column None) or one of its columns, and the word sequences naming it."""

    table: str
    column: str | None
    data_type: str
    names: tuple[Name, ...]  # (words, how surely they name it)
    primary_key: bool = False
    owned: int = 0  # words of the table's name the column's name starts with (its own data)

    @property
    def is_table(self) -> bool:
        return self.column is None

    @property
    def numeric(self) -> bool:
        return self.data_type in ("integer", "decimal")

    def __str__(self) -> str:
        return self.table if self.column is None else f"{self.table}.{self.column}"


@dataclass(frozen=True)
class SchemaWords:
    elements: tuple[Element, ...]
    by_word: dict[str, tuple[Element, ...]]  # any word of a name (or its crude stem) -> elements
    longest: int
    by_root: dict[str, tuple[Element, ...]]  # a name word's Snowball stem -> elements
    # Phrases people confirmed as a column's value ("out of service" is asset.status
    # 'out_of_service'), by `value_key`: (table, column, value)
    term_values: dict[str, tuple[tuple[str, str, str], ...]] = field(default_factory=dict)
    refers: frozenset[tuple[str, str]] = frozenset()  # (table, table it refers to)
    # (table, column) holding another's key -> the table whose key it holds
    referring: dict[tuple[str, str], str] = field(default_factory=dict)


def value_key(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


_INITIALS = {"f": "first", "l": "last", "m": "middle"}  # FName, LName, MName


# A name written without its separator after a letter or two: `bname`, `cname`, `dname`.
_GLUED_NAME = re.compile(r"^([a-z]{1,2})(name)$")


def name_words(identifier: str) -> tuple[str, ...]:
    out: list[str] = []
    parts = words(identifier)
    for n, word in enumerate(parts):
        if word in _INITIALS and parts[n + 1 : n + 2] == ["name"]:
            out.append(_INITIALS[word])
        elif word not in ABBREVIATIONS and (glued := _GLUED_NAME.match(word)):
            out.extend(glued.groups())
        else:
            out.extend(ABBREVIATIONS.get(word, (word,)))
    return tuple(out)


def stem(word: str) -> str:
    """A crude stem, enough to meet "settled" and "settlement", "managed" and "manager"."""
    return word[:5] if len(word) > 5 else word


_SNOWBALL = Stemmer.Stemmer("english")


@lru_cache(maxsize=65_536)
def root(word: str) -> str:
    """The Snowball stem, for what the crude one misses: "hired" and "hire", "cities" and
    "city"."""
    return str(_SNOWBALL.stemWord(word))


# Past forms that no stemmer meets with their verb, as date columns are named after them
# (`date_left_staff`, `date_became_customer`).
_IRREGULAR_PASTS = {
    "left": "leave", "became": "become", "began": "begin", "begun": "begin", "made": "make",
    "paid": "pay", "sold": "sell", "bought": "buy", "built": "build", "held": "hold",
    "won": "win", "took": "take", "taken": "take", "gave": "give", "given": "give",
    "came": "come", "went": "go", "gone": "go", "got": "get", "found": "find",
    "sent": "send", "spent": "spend", "met": "meet", "wrote": "write", "written": "write",
    "born": "bear", "ran": "run", "shipped": "ship", "closed": "close", "opened": "open",
}  # fmt: skip


def verb_root(word: str) -> str:
    """The Snowball stem of a word's present form: "left" and "leave" meet."""
    return root(_IRREGULAR_PASTS.get(word, word))


def _column_names(
    column: str, table_words: tuple[str, ...], key: bool
) -> list[tuple[tuple[str, ...], float]]:
    full = name_words(column)
    if not full:
        return []
    names = [(full, 1.0)]
    written = tuple(words(column))
    if written != full:
        names.append((written, 1.0))  # the abbreviation as written is a name too
    if len(written) > 1 and column.isalnum():
        names.append((("".join(written),), 1.0))  # WiFi is "wifi", ZipCode "zipcode"
    lettered = tuple(w for w in full if len(w) > 1)
    if lettered and lettered != full:
        names.append((lettered, 0.8))  # GType is "type", PName is "name"
    # Inside its own table a column is called without the table's name: product_price is
    # "price" in Products, StuID is "id" in Student.
    stripped = _without_prefix(full, table_words)
    if stripped and stripped != full:
        names.append((stripped, 0.9))
    # An id is said as a number too: DEPARTMENT_ID is "the department number".
    if len(full) > 1 and full[-1] == "id":
        names.append(((*full[:-1], "number"), 0.85))
    # "the status" for status_code; a key (customer_id) is less surely "the customer": that
    # is more often the table it refers to.
    for kind_free in (full, stripped):
        if kind_free and len(kind_free) > 1 and kind_free[-1] in KIND_WORDS:
            names.append((kind_free[:-1], 0.5 if key or kind_free[-1] == "id" else 0.75))
    # Its last meaningful word alone names it less surely: "capacity" for student_capacity.
    meaningful = [w for w in full if w not in KIND_WORDS]
    if len(full) > 1 and meaningful and (meaningful[-1],) not in (n for n, _ in names):
        names.append(((meaningful[-1],), 0.6))
    if len(meaningful) > 1 and not key and (meaningful[0],) not in (n for n, _ in names):
        names.append(((meaningful[0],), 0.5))  # "RAM" for RAM_MiB
    last = full[-1]
    if len(full) > 1 and last in KIND_WORDS and last != "id" and not key:
        names.append(((last,), 0.5))  # "the details" of Other_Details, "the name" of GName
    return names


def _owned(column: tuple[str, ...], table: tuple[str, ...]) -> int:
    for size in range(len(table), 0, -1):
        if column[:size] == table[-size:]:
            return size
    return 0


def _without_prefix(full: tuple[str, ...], table_words: tuple[str, ...]) -> tuple[str, ...]:
    """festival_name in festival_detail is "name"; product_price in Products is "price"."""
    for size in range(len(table_words), 0, -1):
        for head in (table_words[-size:], table_words[:size]):
            if full[:size] == head and len(full) > size:
                return full[size:]
    return full


@lru_cache(maxsize=32)
def schema_words(layer: SemanticLayer) -> SchemaWords:
    elements: list[Element] = []
    for name, table in layer.tables.items():
        table_words = name_words(name)
        if not table_words:
            continue
        names = [(table_words, 1.0)]
        if len(table_words) > 1:
            names.append((table_words[-1:], 0.6))  # "Customer_Policies": "policies"
            names.append((table_words[:1], 0.8))  # "county_public_safety": "county"
        elements.append(Element(name, None, "table", tuple(names)))
        for column in table.columns.values():
            if column.name in table.sensitive_columns:
                continue
            is_key = column.primary_key or words(column.name)[-1:] == ["id"]
            column_names = _column_names(column.name, table_words, is_key)
            if column_names:
                elements.append(
                    Element(
                        name,
                        column.name,
                        column.data_type,
                        tuple(column_names),
                        column.primary_key,
                        _owned(column_names[0][0], table_words),
                    )
                )
    refers = frozenset((r.from_table, r.to_table) for r in layer.relationships)
    referring = {(r.from_table, r.from_column): r.to_table for r in layer.relationships}
    return replace(indexed(elements), refers=refers, referring=referring)


def indexed(elements: list[Element]) -> SchemaWords:
    """The elements, found by each word of their names."""
    by_word: dict[str, list[Element]] = {}
    by_root: dict[str, list[Element]] = {}
    for element in elements:
        for word in {w for sequence, _ in element.names for w in sequence}:
            by_word.setdefault(word, []).append(element)
            if stem(word) != word:
                by_word.setdefault(stem(word), []).append(element)
            by_root.setdefault(root(word), []).append(element)
    longest = max((len(s) for e in elements for s, _ in e.names), default=1)
    return SchemaWords(
        tuple(elements),
        {w: tuple(found) for w, found in by_word.items()},
        min(longest, 5),
        {w: tuple(found) for w, found in by_root.items()},
    )
