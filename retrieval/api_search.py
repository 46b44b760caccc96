from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .search import ScopeNotFound, SearchError, graphrag_search
from .search_serializers import SearchRequestSerializer, SearchResponseSerializer


class GraphRAGQueryView(APIView):
    """Hybrid GraphRAG search over the collections the caller may read."""

    @extend_schema(
        request=SearchRequestSerializer,
        responses={
            200: SearchResponseSerializer,
            404: OpenApiResponse(description="No such collection or file that you can read."),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = SearchRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        options = dict(serializer.validated_data)
        query = options.pop("query")
        try:
            outcome = graphrag_search(query, user=request.user, **options)
        except ScopeNotFound as exc:
            raise NotFound(str(exc).partition(": ")[2] or str(exc)) from exc
        except SearchError as exc:
            field, _, message = str(exc).partition(": ")
            raise ValidationError({field: [message]} if message else [str(exc)]) from exc
        return Response(
            {
                "query": outcome.query,
                "keywords": outcome.keywords,
                "route": outcome.routing.route,
                "results": outcome.results,
                "trace_id": outcome.trace_id,
                "timings_ms": outcome.timings,
                "weights": outcome.weights,
            }
        )
