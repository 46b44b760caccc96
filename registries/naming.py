"""Words in identifiers: camelCase and snake_case splitting, plurals, human names."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def words(identifier: str) -> list[str]:
    """`workOrderId` -> [work, order, id]; `Invoice_Line_Items` -> [invoice, line, items]."""
    return [w.lower() for part in re.split(r"[_\W]+", identifier) for w in _WORD.findall(part)]


def key(identifier: str) -> str:
    """Case- and separator-blind form: workOrder, work_order and WorkOrder all -> workorder."""
    return "".join(words(identifier))


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def plural(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh", "z")):
        return word + "es"
    return word + "s"


def human(identifier: str) -> str:
    """`inspectionQuestionAnswer` -> "inspection question answer" (last word singular)."""
    parts = words(identifier)
    if parts:
        parts[-1] = singular(parts[-1])
    return " ".join(parts)


def human_plural(phrase: str) -> str:
    head, _, last = phrase.rpartition(" ")
    return f"{head} {plural(last)}".strip() if last else phrase
