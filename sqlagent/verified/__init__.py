"""Verified queries: question and SQL pairs people confirmed, reused for their rewordings.

`store` saves and re-checks them, `matching` finds the one a question rewords (and how
surely), `literals` fits its SQL to the question's own names and numbers, `examples` shows
the related ones to the SQL writer, `pairs` reads and writes them as JSONL.
"""

from sqlagent.verified.checks import VerifiedSqlError
from sqlagent.verified.examples import example_columns, example_tables, examples_text
from sqlagent.verified.matching import Match, threshold
from sqlagent.verified.matching import matches as verified_matches
from sqlagent.verified.store import save_verified
from sqlagent.verified.store import usable as usable_verified

__all__ = [
    "Match",
    "VerifiedSqlError",
    "example_columns",
    "example_tables",
    "examples_text",
    "save_verified",
    "threshold",
    "usable_verified",
    "verified_matches",
]
