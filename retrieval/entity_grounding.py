"""The entities a question names, among those the reader's collections mention: the
grounding both the relation questions and the knowledge-graph questions start from."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F, FloatField, Func, Value
from django.db.models.functions import Length

from ingestion.models import Entity

from .query_understanding import QueryReader, read_query


@dataclass(frozen=True)
class GroundedEntity:
    id: str
    name: str
    type: str
    score: float


def readable_entities(collection_ids: Sequence[int]) -> Any:
    return Entity.objects.filter(mentions__chunk__collection_id__in=list(collection_ids)).distinct()


def ground_entities(
    question: str, *, collection_ids: Sequence[int], limit: int = 6, read: QueryReader = read_query
) -> list[GroundedEntity]:
    """Entities of readable collections the question names: people through
    query_understanding (first names, possessives), any entity whose name appears in the
    question (trigram word similarity, so "Techcorp" finds TechCorp)."""
    found: dict[str, GroundedEntity] = {}
    for person in read(question, collection_ids).persons:
        for entity in Entity.objects.filter(graph_id__in=person.entity_ids):
            found[entity.graph_id] = GroundedEntity(entity.graph_id, entity.name, entity.type, 1.0)
    rows = (
        readable_entities(collection_ids)
        .annotate(
            score=Func(
                F("name"), Value(question), function="word_similarity", output_field=FloatField()
            ),
            size=Length("name"),
        )
        .filter(score__gte=0.8, size__gte=3)
        .order_by("-score", "-size")
        .values_list("graph_id", "name", "type", "score")[:50]
    )
    for graph_id, name, kind, score in rows:
        # Whole words only: "Go" must not match "good".
        whole = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", question, re.IGNORECASE)
        if graph_id not in found and (whole or (score >= 0.9 and len(name) >= 5)):
            found[graph_id] = GroundedEntity(graph_id, name, kind, round(float(score), 3))
    ranked = sorted(found.values(), key=lambda e: (-e.score, -len(e.name)))
    return ranked[:limit]
