"""Spans of a chunk's text that name something, and what makes a run of words a name."""

import re
from dataclasses import dataclass

from . import gazetteer as gz

NAME = re.compile(r"^[A-Z][a-zA-Z'\-]+(?: (?:[A-Z]\.|[A-Z][a-zA-Z'\-]+)){1,3}$")
YEARS = re.compile(
    r"\b((?:19|20)\d{2})\b(?:\s*(?:-|\u2013|\u2014|to)\s*\b((?:19|20)\d{2}|present|current|now)\b)?",
    re.I,
)
_MONTHS = {
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
}
NOT_NAMES = (
    {
        "manual",
        "guide",
        "policy",
        "policies",
        "handbook",
        "overview",
        "procedure",
        "procedures",
        "safety",
        "overtime",
        "service",
        "services",
        "system",
        "user",
        "field",
        "work",
        "orders",
        "order",
        "customers",
        "customer",
        "inspections",
        "inspection",
        "company",
        "report",
        "notes",
        "release",
        "readme",
        "introduction",
        "chapter",
        "section",
        "appendix",
        "team",
        "department",
        "engineer",
        "manager",
        "developer",
        "senior",
        "lead",
        "staff",
        "principal",
        "director",
    }
    | _MONTHS
    | gz.SECTION_WORDS
)
JOB_WORDS = {
    "engineer",
    "developer",
    "manager",
    "analyst",
    "designer",
    "consultant",
    "architect",
    "scientist",
    "director",
    "lead",
    "specialist",
    "intern",
    "administrator",
    "technician",
    "coordinator",
    "officer",
    "supervisor",
    "programmer",
    "associate",
    "head",
    "president",
}


@dataclass
class Span:
    start: int
    end: int
    text: str
    type: str
    confidence: float
    canonical: str = ""


def overlaps(span: Span, others: list[Span]) -> bool:
    return any(span.start < o.end and o.start < span.end for o in others)


def clean_surface(text: str) -> str:
    text = re.sub(r"^(the|a|an)\s+", "", text.strip(), flags=re.I)
    text = re.sub(r"['\u2019]s$", "", text)
    return text.strip(" .,:;()[]\"'\u2013\u2014-")


def is_name(text: str) -> bool:
    if not NAME.match(text):
        return False
    words = text.split()
    return not any(w.lower().strip(".") in NOT_NAMES or w in gz.TECHNOLOGIES for w in words)
