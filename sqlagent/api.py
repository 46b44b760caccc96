import logging

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_errors import error_body
from registries.models import DataSource
from sqlagent.agent import ask
from sqlagent.execution import WarehouseUnavailable
from sqlagent.serializers import AskSerializer, SqlAnswerSerializer

log = logging.getLogger(__name__)

UNAVAILABLE = "The database is not reachable right now. Try again later."


class AskView(APIView):
    """A question to the SQL agent, answered within the asking user's data scope."""

    @extend_schema(
        request=AskSerializer,
        responses={
            200: SqlAnswerSerializer,
            400: OpenApiResponse(description="An empty or too long question, or bad history."),
            403: OpenApiResponse(description="Another data source, asked by a non-staff user."),
            404: OpenApiResponse(description="No data source of that name."),
            503: OpenApiResponse(description="The database is not reachable."),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = AskSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        name = serializer.validated_data.get("data_source")
        if name and not DataSource.objects.filter(name=name).exists():
            raise NotFound(f"no data source named {name!r}")
        if name and name != settings.REGISTRIES_DEFAULT_DATA_SOURCE and not request.user.is_staff:
            # Other data sources (evaluation databases) are not scoped per person.
            raise PermissionDenied("only staff may ask a data source other than the warehouse")
        try:
            answer = ask(
                serializer.validated_data["question"],
                user=request.user,
                source=name,
                history=serializer.turns(),
            )
        except WarehouseUnavailable as error:
            log.warning("data source %s unreachable: %s", name or "(default)", error)
            return Response(
                error_body(503, UNAVAILABLE), status=status.HTTP_503_SERVICE_UNAVAILABLE
            )
        return Response(answer.to_dict())
