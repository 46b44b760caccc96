"""A person's full name said as one value ("Atsushi Ohori") where a table stores the first
and the last name in columns of their own: read as the two values it is."""

from dataclasses import replace

from sqlagent.linking.question import Word
from sqlagent.linking.schema_words import name_words
from sqlagent.linking.values import StoredValues

_FIRST = frozenset({"first", "fname", "given", "forename"})
_LAST = frozenset({"last", "lname", "surname", "family"})


def split_full_names(words: tuple[Word, ...], values: StoredValues) -> tuple[Word, ...]:
    """Each quoted name of two words that is not stored whole, but whose first word is
    stored in a first-name column and whose second in a last-name column of the same
    table, becomes those two quoted words."""
    out: list[Word] = []
    for word in words:
        parts = word.text.split()
        whole = not word.quoted or len(parts) != 2 or bool(values.find(word.text))
        if whole or not _paired(values, parts[0], parts[1]):
            out.append(word)
            continue
        out += [replace(word, text=p, lower=p.lower(), lemma=p.lower()) for p in parts]
    return tuple(out)


def _paired(values: StoredValues, first: str, last: str) -> bool:
    firsts = {t for t, column, _ in values.find(first) if _FIRST & set(name_words(column))}
    lasts = {t for t, column, _ in values.find(last) if _LAST & set(name_words(column))}
    return bool(firsts & lasts)
