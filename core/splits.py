"""The development and held-out halves of an evaluation set, fixed by each question's text
alone (the first byte of the sha256 of the stripped question: even is dev, odd held-out).
It never depends on results, so tuning on dev leaves held-out unseen."""

import hashlib

SPLITS = ("dev", "held-out", "all")


def split_of(question: str) -> str:
    """ "dev" or "held-out", from the question's text only."""
    first_byte = hashlib.sha256(question.strip().encode("utf-8")).digest()[0]
    return "dev" if first_byte % 2 == 0 else "held-out"


def in_split(question: str, split: str) -> bool:
    return split == "all" or split_of(question) == split
