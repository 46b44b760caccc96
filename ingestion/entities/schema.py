"""The extraction schema the LLM follows when no admin-edited one is active."""

from typing import Any

DEFAULT_ENTITY_TYPES: list[dict[str, Any]] = [
    {"label": "Person", "description": "A named individual."},
    {"label": "Organization", "description": "A company, university, agency or team."},
    {"label": "Technology", "description": "A language, framework, database, cloud or tool."},
    {"label": "Skill", "description": "A practice or competence (machine learning, agile)."},
    {"label": "Location", "description": "A city, region or country."},
    {"label": "Certification", "description": "A professional certification or licence."},
    {"label": "Project", "description": "A named project, programme or product effort."},
]

DEFAULT_RELATION_TYPES: list[dict[str, Any]] = [
    {"type": "WORKS_FOR", "source": "Person", "target": "Organization",
     "description": "Employment, current or past.",
     "properties": ["position", "start_date", "end_date"]},
    {"type": "WORKED_WITH", "source": "Person", "target": "Person",
     "description": "Two people worked together.", "properties": ["project", "context"]},
    {"type": "EXPERIENCED_WITH", "source": "Person", "target": "Technology",
     "description": "A person has used a technology or has a skill.",
     "properties": ["proficiency_level", "years_of_experience", "context"]},
    {"type": "LOCATED_IN", "source": "Organization", "target": "Location",
     "description": "Where an organization, person or place is.", "properties": []},
    {"type": "STUDIED_AT", "source": "Person", "target": "Organization",
     "description": "Education at a school or university.", "properties": ["degree", "end_date"]},
    {"type": "HAS_CERTIFICATION", "source": "Person", "target": "Certification",
     "description": "Holds a certification or licence.", "properties": ["year"]},
    {"type": "WORKED_ON", "source": "Person", "target": "Project",
     "description": "A person took part in a project.", "properties": ["role", "year"]},
]  # fmt: skip

DEFAULT_INSTRUCTIONS = (
    "Extract only what the text states. Use full names for people when the text gives them; "
    "a first name alone refers to the person the document is about when it matches."
)


def active_schema() -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    from ingestion.models import ExtractionSchema

    schema = ExtractionSchema.objects.active()
    if schema is None:
        return DEFAULT_ENTITY_TYPES, DEFAULT_RELATION_TYPES, DEFAULT_INSTRUCTIONS
    return list(schema.entity_types), list(schema.relation_types), schema.instructions
