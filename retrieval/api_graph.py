"""POST /api/graph/retrieve-by-relationship and POST /api/graph/query: entity and
knowledge-graph questions over the collections the caller may read."""

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_fields import StrictInput, TextField
from ingestion.models import Collection

from .entity_retrieval import EntityNotFound, EntityQueryError, retrieve_by_relationship
from .knowledge_graph import answer_graph_question

NO_COLLECTION = "No collection of that name or id that you can read."
NO_ENTITY_OR_COLLECTION = "No such entity, or collection, that you can read."


class _ScopedSerializer(StrictInput, serializers.Serializer[Any]):
    collection = TextField(
        max_length=200, required=False, allow_null=True, help_text="name or id; default all"
    )


class RelationshipRequestSerializer(_ScopedSerializer):
    source_entity_id = TextField(
        max_length=300, help_text='graph id ("entity:Person:alexis_torres") or a name'
    )
    relationship_types = serializers.ListField(
        child=serializers.RegexField(r"^[A-Z][A-Z0-9_]{0,49}$"),
        max_length=20,
        required=False,
        help_text="Relation types to follow (empty or left out: all).",
    )
    max_chunks = serializers.IntegerField(min_value=0, max_value=200, default=15)
    max_hops = serializers.IntegerField(min_value=1, max_value=3, default=2)
    context_entities = serializers.ListField(
        child=TextField(max_length=300), max_length=10, required=False
    )


class GraphQuestionSerializer(_ScopedSerializer):
    question = TextField(max_length=2000, trim_whitespace=True)


def readable_collection_ids(user: Any, collection: str | None) -> list[int]:
    readable = Collection.objects.readable_by(user)
    if collection:
        by = {"pk": int(collection)} if collection.isdigit() else {"name": collection}
        chosen = readable.filter(**by).values_list("pk", flat=True).first()
        if chosen is None:
            raise NotFound(f"No collection {collection!r} that you can read.")
        return [chosen]
    return list(readable.values_list("pk", flat=True))


def _scoped(serializer: _ScopedSerializer, request: Request) -> tuple[dict[str, Any], list[int]]:
    """The request's fields, valid (else a 400), and the collections it may read."""
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    return data, readable_collection_ids(request.user, data.get("collection"))


class RetrieveByRelationshipView(APIView):
    """Entities related to one entity, their relation paths and the chunks mentioning them."""

    @extend_schema(
        request=RelationshipRequestSerializer,
        responses={200: dict, 404: OpenApiResponse(description=NO_ENTITY_OR_COLLECTION)},
    )
    def post(self, request: Request) -> Response:
        data, collections = _scoped(RelationshipRequestSerializer(data=request.data), request)
        try:
            result = retrieve_by_relationship(
                data["source_entity_id"],
                collection_ids=collections,
                relationship_types=data.get("relationship_types"),
                max_hops=data["max_hops"],
                max_chunks=data["max_chunks"],
                context=data.get("context_entities", ()),
            )
        except EntityNotFound as exc:
            raise NotFound(str(exc)) from exc
        except EntityQueryError as exc:
            raise ValidationError({"source_entity_id": [str(exc)]}) from exc
        return Response(result.as_dict())


class GraphQueryView(APIView):
    """A knowledge-graph question: grounded entities, the query or fallbacks used, facts,
    paths, and the exact chunks and images behind them."""

    @extend_schema(
        request=GraphQuestionSerializer,
        responses={200: dict, 404: OpenApiResponse(description=NO_COLLECTION)},
    )
    def post(self, request: Request) -> Response:
        data, collections = _scoped(GraphQuestionSerializer(data=request.data), request)
        answer = answer_graph_question(data["question"], collection_ids=collections)
        return Response(answer.as_dict())
