"""The entities a question names, among those the reader's collections mention: the
grounding both the relation questions and the knowledge-graph questions start from."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ingestion.models import Entity
from ingestion.models.entities import name_words

from .query_understanding import QueryReader, read_query

MAX_NAME_WORDS = 8  # the longest name looked up, in words


@dataclass(frozen=True)
class GroundedEntity:
    id: str
    name: str
    type: str
    score: float


def readable_entities(collection_ids: Sequence[int]) -> Any:
    return Entity.objects.filter(mentions__chunk__collection_id__in=list(collection_ids)).distinct()


def question_runs(question: str, *, longest: int = MAX_NAME_WORDS) -> set[str]:
    """Every run of up to `longest` consecutive words of the question, as name_words
    writes a name: what a name the question holds must equal."""
    words = name_words(question).split()
    return {
        " ".join(words[i : i + n])
        for n in range(1, longest + 1)
        for i in range(len(words) - n + 1)
        if n > 1 or len(words[i]) >= 3  # "go" alone names nothing
    }


def ground_entities(
    question: str, *, collection_ids: Sequence[int], limit: int = 6, read: QueryReader = read_query
) -> list[GroundedEntity]:
    """Entities of readable collections the question names: people through
    query_understanding (first names, possessives), and any entity whose whole name is a
    run of the question's words, case and punctuation aside ("techcorp's" finds TechCorp).
    The runs are looked up in Entity.name_words' index, not compared with every name."""
    found: dict[str, GroundedEntity] = {}
    for person in read(question, collection_ids).persons:
        for entity in Entity.objects.filter(graph_id__in=person.entity_ids):
            found[entity.graph_id] = GroundedEntity(entity.graph_id, entity.name, entity.type, 1.0)
    rows = (
        readable_entities(collection_ids)
        .filter(name_words__in=question_runs(question))
        .values_list("graph_id", "name", "type")
    )
    for graph_id, name, kind in rows:
        found.setdefault(graph_id, GroundedEntity(graph_id, name, kind, 1.0))
    ranked = sorted(found.values(), key=lambda e: (-e.score, -len(e.name), e.name))
    return ranked[:limit]
