"""What one chunk names, without an LLM: technologies and certifications by pattern,
people, organizations and places from spaCy's recognizer (less what it gets wrong in
résumés), and rules for projects, cities, employers and colleagues."""

import re
from typing import Any

from . import gazetteer as gz
from .spans import JOB_WORDS, NAME, YEARS, Span, clean_surface, is_name, overlaps
from .technologies import find_technologies
from .types import ChunkInput

_CERTIFICATION = re.compile(
    r"\b((?:AWS|Google Cloud|Google|Microsoft|Azure|Oracle|Cisco|CompTIA|Kubernetes)"
    r"[ \-]?Certified:?[ \-][A-Z][\w\-]*(?: [A-Z&][\w\-]*){0,4}"
    r"(?: [\u2013\u2014-] [A-Z][\w\-]*)?"
    r"|Certified [A-Z][\w\-]*(?: [A-Z][\w\-]*){0,4}"
    r"|PMP|CISSP|CKA|CKAD|CCNA|CCNP|PRINCE2|ITIL(?: v?\d)?|OSHA \d+)\b"
)
# "Software Developer at Northwind Traders" in a work-history line.
_EMPLOYER = re.compile(r"\b(?:at|@)\s+((?:[A-Z][\w&.'-]*)(?:\s+(?:&\s+)?[A-Z][\w&.'-]*){0,4})")
_DEGREE = re.compile(
    r"^(B\.?S|M\.?S|B\.?A|M\.?A|Ph\.?D|B\.?Tech|M\.?Tech|MBA|M\.?Eng|B\.?Eng|BSc|MSc)\b\.?"
)
# Departments, documents, degrees and dates that the recognizer takes for organizations.
_NOT_ORGANIZATION = re.compile(
    r"( policy| procedure| operations| department| team| division| office| unit"
    r"|certification|certified)$|^(B\.?S|M\.?S|B\.?A|Ph\.?D|B\.?Tech|MBA)\b|\b(19|20)\d\d\b|"
    r"\b(January|February|March|April|June|July|August|September|October|November|December)\b",
    re.I,
)
# "worked with Alexis Torres": a name right after a word of working together.
_COLLEAGUE = re.compile(
    r"\b(?:with|alongside|and|under|manager|lead|mentored|by|to)\s+"
    r"([A-Z][a-z]+(?: [A-Z][a-z]+){1,2})\b"
)
_PROJECT_NAME = re.compile(r"\bProject [A-Z][\w-]+")
_US_STATES = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
    "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY",
    "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV",
    "WI", "WY", "DC",
]  # fmt: skip
# "Chicago, IL": a city is known by the state code after it.
_CITY_STATE = re.compile(r"\b([A-Z][a-z]+(?: [A-Z][a-z]+){0,2}), (" + "|".join(_US_STATES) + r")\b")
_HEADING_PARTS = re.compile(r"\s+[\u2013\u2014|@-]\s+|,\s+|\s+at\s+")
_NER_TYPES = {"PERSON": ("Person", 0.8), "ORG": ("Organization", 0.7)}
_NER_TYPES |= {"GPE": ("Location", 0.75), "LOC": ("Location", 0.7)}


def find_spans(chunk: ChunkInput, doc: Any, full_names: dict[str, str]) -> list[Span]:
    """The chunk's spans, none overlapping another; full names of people found are added to
    `full_names` (in order of appearance)."""
    header = chunk.header_path.lower()
    skillish = any(word in header for word in gz.SKILL_HEADINGS)
    spans = find_technologies(chunk.text, skill_heading=skillish)
    spans += [
        Span(m.start(), m.end(), m.group(), "Certification", 0.85, m.group())
        for m in _CERTIFICATION.finditer(chunk.text)
    ]
    spans += _rule_spans(chunk)
    spans = [s for i, s in enumerate(spans) if not overlaps(s, spans[:i])]
    for ent in doc.ents:
        span = _recognized(ent, chunk)
        if span is not None and not overlaps(span, spans):
            spans.append(span)
            if span.type == "Person" and " " in span.text and is_name(span.text):
                full_names.setdefault(span.text, span.text)
    for match in _COLLEAGUE.finditer(chunk.text):
        surface = match.group(1)
        span = Span(match.start(1), match.end(1), surface, "Person", 0.7)
        if is_name(surface) and not overlaps(span, spans):
            spans.append(span)
            full_names.setdefault(surface, surface)
    if any(word in header for word in gz.EXPERIENCE_HEADINGS):
        for match in _EMPLOYER.finditer(chunk.text):
            surface = clean_surface(match.group(1))
            span = Span(match.start(1), match.start(1) + len(surface), surface, "Organization", 0.6)
            if surface and not overlaps(span, spans):
                spans.append(span)
    return spans


def _recognized(ent: Any, chunk: ChunkInput) -> Span | None:
    """A span of spaCy's recognizer, unless it is one of its usual mistakes."""
    if ent.label_ not in _NER_TYPES:
        return None
    kind, confidence = _NER_TYPES[ent.label_]
    surface = clean_surface(ent.text)
    if kind == "Organization" and ", " in surface:
        # "B.S. Computer Science, University of Texas": the name is the last part.
        surface = clean_surface(surface.split(", ")[-1])
    if _mistaken(kind, surface, chunk.header_text):
        return None
    start = ent.start_char + ent.text.find(surface)
    return Span(start, start + len(surface), surface, kind, confidence)


def _mistaken(kind: str, surface: str, heading: str) -> bool:
    if not surface or "\n" in surface or len(surface) > 60 or surface.islower():
        return True
    if surface.lower() in gz.SECTION_WORDS or surface.lower() == heading.lower():
        return True
    if kind == "Person":
        return not NAME.match(surface) and " " in surface
    if surface.isdigit() or len(surface) < 2:
        return True
    if surface.isupper() and len(surface) <= 3:
        return True  # state codes and acronyms ("CA", "API") more often than not
    return kind == "Organization" and (
        surface.split()[-1].lower() in JOB_WORDS or bool(_NOT_ORGANIZATION.search(surface))
    )


def _rule_spans(chunk: ChunkInput) -> list[Span]:
    """Projects, cities with a state code, certifications listed under their heading, and
    the employer in a work-history heading ("Meridian Freight - Senior Engineer")."""
    spans = [
        Span(m.start(), m.end(), m.group(), "Project", 0.85, m.group())
        for m in _PROJECT_NAME.finditer(chunk.text)
    ]
    spans += [
        Span(m.start(1), m.end(1), m.group(1), "Location", 0.85, m.group(1))
        for m in _CITY_STATE.finditer(chunk.text)
    ]
    header = chunk.header_path.lower()
    heading = chunk.header_text
    if heading and chunk.text.startswith(heading):
        if any(w in header.rsplit(">", 1)[0] for w in gz.EXPERIENCE_HEADINGS):
            spans += _heading_employer(heading)
        if any(w in header for w in ("project",)) and header.count(">") >= 1:
            name = clean_surface(_HEADING_PARTS.split(heading)[0])
            if name and name[0].isupper() and len(name.split()) <= 5:
                spans.append(Span(0, len(name), name, "Project", 0.7, name))
    if any(w in header for w in ("certif", "licen", "credential")):
        spans += _listed_certifications(chunk)
    return spans


def _heading_employer(heading: str) -> list[Span]:
    """The organization of "TechCorp - Senior Engineer" (not the job, not a date range)."""
    parts = [p for p in _HEADING_PARTS.split(heading) if p.strip()]
    if len(parts) < 2 or YEARS.search(parts[0]):
        return []
    employer = next((p for p in parts if p.split()[-1].lower() not in JOB_WORDS), "")
    employer = clean_surface(employer)
    if (employer and employer != parts[-1]) or (employer and len(parts) == 2):
        start = heading.find(employer)
        return [Span(start, start + len(employer), employer, "Organization", 0.75)]
    return []


def _listed_certifications(chunk: ChunkInput) -> list[Span]:
    """One certification a line under a heading of certifications, less its date or issuer."""
    spans = []
    offset = 0
    for line in chunk.text.split("\n"):
        item = re.sub(r"^[-*\u2022]\s*", "", line.strip())
        name = re.split(r",\s+|\s+\(|\s+[\u2013\u2014]\s+(?=\d)", item)[0].strip()
        start = chunk.text.find(name, offset)
        if (
            name
            and name != chunk.header_text
            and not name[0].isdigit()
            and len(name.split()) <= 10
            and not _DEGREE.match(name)
        ):
            spans.append(Span(start, start + len(name), name, "Certification", 0.8, name))
        offset += len(line) + 1
    return spans
