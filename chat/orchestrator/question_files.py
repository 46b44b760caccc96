"""Labelled question sets of the evaluation commands: JSON Lines, one object a line."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class QuestionFileError(ValueError):
    """A question file that cannot be read; the message names the line."""


def read_objects(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each line's object with where it stands ("set.jsonl:12"), blank lines passed over; a
    line that is no JSON object, or a file without any, raises QuestionFileError."""
    found = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path.name}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise QuestionFileError(f"{where}: not JSON ({error.msg})") from None
        if not isinstance(row, dict):
            raise QuestionFileError(f"{where}: not a JSON object")
        found = True
        yield where, row
    if not found:
        raise QuestionFileError(f"{path.name}: no questions")
