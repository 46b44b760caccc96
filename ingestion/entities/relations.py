"""Relations between the entities of a document, drawn without an LLM: what the person a
résumé is about used, held, worked on, worked for and studied at, whom they worked with,
where organizations are, and other people who worked together."""

import re
from dataclasses import dataclass

from . import gazetteer as gz
from .spans import YEARS, Span
from .types import ChunkInput, ExtractedEntity, ExtractedRelation, Extraction

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
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
_JOINED = r"\b(works? at|worked at|works? for|worked for|joined|employed (at|by))"  # + the name
_SCHOOL = re.compile(r"universit|college|school|institut", re.I)
# "TechCorp, San Francisco" / "TechCorp (Austin)" / "Austin, Texas"
_BEFORE_PLACE = re.compile(r"[\s,(\u2013\u2014\-|]*(in\s+)?")


@dataclass
class _Where:
    """A chunk and the kind of résumé section it sits in."""

    chunk: ChunkInput
    in_experience: bool
    in_education: bool
    in_skills: bool

    @classmethod
    def of(cls, chunk: ChunkInput) -> "_Where":
        header = chunk.header_path.lower()
        return cls(
            chunk,
            in_experience=any(word in header for word in gz.EXPERIENCE_HEADINGS),
            in_education=any(word in header for word in gz.EDUCATION_HEADINGS),
            in_skills=any(word in header for word in gz.SKILL_HEADINGS),
        )


def add_relations(
    result: Extraction,
    chunks: list[ChunkInput],
    spans_by_chunk: list[list[Span]],
    person: str | None,
) -> None:
    me = result.entities.get(
        next((k for k, e in result.entities.items() if e.type == "Person" and e.name == person), "")
    )
    for chunk, spans in zip(chunks, spans_by_chunk, strict=True):
        where = _Where.of(chunk)
        located = [s for s in spans if s.type == "Location"]
        for span in sorted(spans, key=lambda s: s.start):
            entity = entity_for(result, span)
            if entity is None:
                continue
            if me is not None and entity is not me:
                relation = _relation_to(me, entity, span, where)
                if relation is not None:
                    result.relate(relation)
            if entity.type in ("Organization", "Location"):
                _relate_place(result, entity, span, located, chunk)
        _relate_colleagues(result, [s for s in spans if s.type == "Person"], chunk, me)


def entity_for(result: Extraction, span: Span) -> ExtractedEntity | None:
    for entity in result.entities.values():
        if entity.type == span.type and (
            span.text == entity.name or span.text in entity.aliases or span.canonical == entity.name
        ):
            return entity
    return None


def _relation_to(
    me: ExtractedEntity, entity: ExtractedEntity, span: Span, where: _Where
) -> ExtractedRelation | None:
    """How the person the document is about stands to an entity the chunk names."""
    chunk = where.chunk
    sentence = _sentence_of(chunk.text, span.start)
    context: dict[str, str | int | float] = (
        {"section": chunk.header_text} if chunk.header_text else {}
    )
    if entity.type == "Technology":
        confidence = 0.85 if (where.in_skills or where.in_experience) else 0.65
        return ExtractedRelation(
            me.key, entity.key, "EXPERIENCED_WITH", confidence, chunk.index, context
        )
    if entity.type == "Certification":
        return ExtractedRelation(me.key, entity.key, "HAS_CERTIFICATION", 0.8, chunk.index, context)
    if entity.type == "Project":
        return ExtractedRelation(me.key, entity.key, "WORKED_ON", 0.75, chunk.index, context)
    if entity.type == "Organization":
        return _organization_relation(me, entity, span, where, sentence)
    if entity.type == "Person":
        props: dict[str, str | int | float] = {"context": sentence[:200]}
        project = _PROJECT.search(sentence)
        if project:
            props["project"] = project.group(1)
        confidence = 0.8 if _COLLABORATION.search(sentence) else 0.55
        return ExtractedRelation(me.key, entity.key, "WORKED_WITH", confidence, chunk.index, props)
    if entity.type == "Location" and (chunk.index == 0 or _BASED.search(sentence)):
        return ExtractedRelation(me.key, entity.key, "LOCATED_IN", 0.7, chunk.index)
    return None


def _organization_relation(
    me: ExtractedEntity, entity: ExtractedEntity, span: Span, where: _Where, sentence: str
) -> ExtractedRelation | None:
    """Studied at a school; worked for an employer named in a work-history heading or
    said to be one."""
    chunk = where.chunk
    line = _line_of(chunk.text, span.start)
    if where.in_education or _SCHOOL.search(span.text):
        dates = _dates(line, span.text)
        return ExtractedRelation(me.key, entity.key, "STUDIED_AT", 0.7, chunk.index, dates)
    in_heading = span.start < len(chunk.header_text) + 1
    employer = (where.in_experience and in_heading) or re.search(
        _JOINED + r"\s+(the\s+)?" + re.escape(span.text), sentence
    )
    if not employer:
        return None
    job = _employment(line, span.text)
    if "start_date" not in job:
        job.update(_dates(" ".join(chunk.text.split("\n")[:3]), span.text))
    confidence = 0.8 if where.in_experience else 0.6
    return ExtractedRelation(me.key, entity.key, "WORKS_FOR", confidence, chunk.index, job)


def _relate_place(
    result: Extraction,
    entity: ExtractedEntity,
    span: Span,
    located: list[Span],
    chunk: ChunkInput,
) -> None:
    """An organization or place followed closely by a place is in it."""
    for place in located:
        if place is span or not 0 < place.start - span.end <= 40:
            continue
        between = chunk.text[span.end : place.start]
        if "\n" in between or not _BEFORE_PLACE.fullmatch(between):
            continue
        target = entity_for(result, place)
        if target is not None:
            result.relate(ExtractedRelation(entity.key, target.key, "LOCATED_IN", 0.7, chunk.index))
        break


def _relate_colleagues(
    result: Extraction, people: list[Span], chunk: ChunkInput, me: ExtractedEntity | None
) -> None:
    """Two other people in one sentence with a word of working together."""
    for i, first in enumerate(people):
        for second in people[i + 1 :]:
            sentence = _sentence_of(chunk.text, first.start)
            if second.start > first.start + len(sentence) or not _COLLABORATION.search(sentence):
                continue
            a, b = entity_for(result, first), entity_for(result, second)
            if a is not None and b is not None and me not in (a, b):
                result.relate(
                    ExtractedRelation(
                        a.key, b.key, "WORKED_WITH", 0.6, chunk.index, {"context": sentence[:200]}
                    )
                )


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
    years = YEARS.search(line)
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


def _dates(line: str, org: str) -> dict[str, str | int | float]:
    """The start and end years of `_employment`, without the position."""
    return {k: v for k, v in _employment(line, org).items() if k != "position"}
