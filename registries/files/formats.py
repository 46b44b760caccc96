"""File names, versions and the value spellings the seed's JSON files use."""

from __future__ import annotations

from dataclasses import dataclass, field

VERSION = 1

DOMAIN = "domain"
DISPLAY = "display"
MANUAL = "manual"
MERGED = "merged"
SECURE_VIEWS = "secure_views"

FILENAMES = {
    DOMAIN: "domain_registry.json",
    DISPLAY: "display_attributes_registry.json",
    MANUAL: "join_graph_manual.json",
    MERGED: "join_graph_merged.json",
    SECURE_VIEWS: "secure_views.json",
}

# The seed writes cardinality as N:1; the models and the semantic layer spell it out.
CARDINALITY_TO_FILE = {
    "many_to_one": "N:1",
    "one_to_one": "1:1",
    "one_to_many": "1:N",
    "many_to_many": "N:N",
}
CARDINALITY_FROM_FILE = {v: k for k, v in CARDINALITY_TO_FILE.items()}
CARDINALITY_FROM_FILE.update({"M:N": "many_to_many", "N:M": "many_to_many"})
CARDINALITY_FROM_FILE.update({k: k for k in CARDINALITY_TO_FILE})


@dataclass(frozen=True)
class Problem:
    location: str  # file: path.inside.the.file
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


@dataclass
class ImportFailed(Exception):
    problems: list[Problem] = field(default_factory=list)

    def __str__(self) -> str:
        lines = "\n".join(f"  {p}" for p in self.problems)
        return f"nothing was imported; {len(self.problems)} problem(s):\n{lines}"


def detect_kind(document: dict[str, object]) -> str | None:
    if "terms" in document:
        return DOMAIN
    if "table_metadata" in document:
        return MANUAL
    if "secure_views" in document:
        return SECURE_VIEWS
    if "relationships" in document:
        return MERGED if "tables" in document else MANUAL
    if "tables" in document:
        return DISPLAY
    return None
