"""The chat's REST API: sessions, their messages, asking a question, feedback on answers.
Every lookup is scoped to the asking person: another person's session or message is a 404,
exactly like one that does not exist."""

import logging
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat.attachments import AttachmentTooLarge, check_size, save_upload
from chat.conversations import (
    INTERNAL,
    ask_and_wait,
    messages_for,
    rate_answer,
    sessions_for,
)
from chat.models import ChatSession, Message, Route
from chat.serializers import (
    RATINGS,
    AttachmentSerializer,
    AttachmentUploadSerializer,
    FeedbackSerializer,
    MessageSerializer,
    QuestionSerializer,
    ReplySerializer,
    SessionSearchSerializer,
    SessionSerializer,
    VerifiedSerializer,
    VerifySerializer,
)
from core.api_errors import ErrorSerializer, error_body
from sqlagent.services import VerifiedSqlError, confirm_verified

logger = logging.getLogger(__name__)

# A turn's error event, as an HTTP status.
ERROR_STATUS = {
    "bad_request": status.HTTP_400_BAD_REQUEST,
    "not_found": status.HTTP_404_NOT_FOUND,
    "too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    "unavailable": status.HTTP_503_SERVICE_UNAVAILABLE,
    "internal": status.HTTP_500_INTERNAL_SERVER_ERROR,
}


class SessionList(generics.ListCreateAPIView[ChatSession]):
    """The person's sessions, most recently used first; `?search=` matches titles and
    message text."""

    serializer_class = SessionSerializer

    @extend_schema(parameters=[SessionSearchSerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[ChatSession]:
        query = SessionSearchSerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        return sessions_for(self.request.user, search=query.validated_data.get("search", ""))

    def perform_create(self, serializer: SessionSerializer) -> None:  # type: ignore[override]
        serializer.save(owner=self.request.user)


class SessionDetail(generics.RetrieveUpdateDestroyAPIView[ChatSession]):
    """One session: read, rename (PATCH {title}), delete with its messages."""

    serializer_class = SessionSerializer
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[ChatSession]:
        return ChatSession.objects.filter(owner_id=self.request.user.pk)


class MessageList(generics.ListAPIView[Message]):
    """A session's messages (oldest first; `?page=last` is the newest page) and asking a
    question in it."""

    serializer_class = MessageSerializer

    def _session(self) -> ChatSession:
        return get_object_or_404(ChatSession, pk=self.kwargs["session_id"], owner=self.request.user)

    def get_queryset(self) -> QuerySet[Message]:
        return messages_for(self._session(), reader=self.request.user)

    @extend_schema(
        request=QuestionSerializer,
        responses={
            201: ReplySerializer,
            400: OpenApiResponse(ErrorSerializer, description="Empty or too long content."),
            404: OpenApiResponse(ErrorSerializer, description="No session of yours with that id."),
            500: OpenApiResponse(ErrorSerializer, description="The answer failed."),
        },
    )
    def post(self, request: Request, session_id: UUID) -> Response:
        session = self._session()
        serializer = QuestionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        final = ask_and_wait(
            session, request.user, data["content"], attachments=data.get("attachments", [])
        )
        if final.get("event") != "complete":
            code = final.get("code", "internal")
            detail = final.get("message") or INTERNAL
            return Response({"detail": detail, "code": code}, status=ERROR_STATUS.get(code, 500))
        message = final["message"]
        return Response(
            {
                "response": message["content"],
                "sources": message["sources"],
                "conversation_id": str(session.pk),
                "message_id": message["id"],
                "route": message["route"],
                "display_format": message["display_format"],
                "data": message["data"],
                "follow_ups": message["data"].get("follow_ups", []),
                "message": message,
            },
            status=status.HTTP_201_CREATED,
        )


class FeedbackView(APIView):
    """Thumbs up or down on an answer, with an optional comment; posting again replaces it."""

    @extend_schema(
        request=FeedbackSerializer,
        responses={
            201: FeedbackSerializer,
            200: FeedbackSerializer,
            409: OpenApiResponse(ErrorSerializer, description="The message is a question."),
        },
    )
    def post(self, request: Request, message_id: int) -> Response:
        message = get_object_or_404(Message, pk=message_id, session__owner=request.user)
        if message.role != Message.Role.ASSISTANT:
            return Response(
                error_body(409, "Only answers take feedback; this message is a question."),
                status=status.HTTP_409_CONFLICT,
            )
        serializer = FeedbackSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        created = rate_answer(
            message, request.user, rating=RATINGS[data["rating"]], comment=data.get("comment", "")
        )
        return Response(
            {"message_id": message.pk, **data},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class VerifyView(APIView):
    """ "This is right": the SQL of a database answer (edited first, if need be) is stored as a
    verified query, so that the question and its rewordings are answered this way from now
    on. Needs the permission to add verified queries."""

    @extend_schema(
        request=VerifySerializer,
        responses={
            201: VerifiedSerializer,
            200: VerifiedSerializer,
            400: OpenApiResponse(ErrorSerializer, description="The SQL is refused."),
            409: OpenApiResponse(ErrorSerializer, description="Not a database answer."),
            403: OpenApiResponse(
                ErrorSerializer, description="No permission to add verified queries."
            ),
        },
    )
    def post(self, request: Request, message_id: int) -> Response:
        if not request.user.has_perm("sqlagent.add_verifiedquery"):
            raise PermissionDenied("you may not add verified queries")
        message = get_object_or_404(Message, pk=message_id, session__owner=request.user)
        data = message.data if isinstance(message.data, dict) else {}
        serializer = VerifySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        sql = serializer.validated_data.get("sql") or data.get("logical_sql")
        if message.route != Route.SQL or not data.get("question") or not sql:
            return Response(
                error_body(409, "Only a database answer with its SQL can be confirmed."),
                status=status.HTTP_409_CONFLICT,
            )
        try:
            row, created = confirm_verified(
                data.get("data_source") or settings.REGISTRIES_DEFAULT_DATA_SOURCE,
                data["question"],
                sql,
                confirmed_by=request.user,
                notes=serializer.validated_data.get("notes", ""),
            )
        except VerifiedSqlError as error:
            return _bad_request(f"The SQL was not saved: {error}")
        body = {
            "id": row.pk,
            "question": row.question,
            "sql": row.sql,
            "url": reverse("admin:sqlagent_verifiedquery_change", args=[row.pk]),
        }
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


def _bad_request(detail: str) -> Response:
    return Response(error_body(400, detail), status=status.HTTP_400_BAD_REQUEST)


class AttachmentUpload(APIView):
    """Files to attach to a question (multipart `files`): each gets an id to send in the
    question's `attachments`; "upload these" then ingests them into the asker's collection."""

    parser_classes = [MultiPartParser]

    @extend_schema(
        request=AttachmentUploadSerializer,
        responses={
            201: AttachmentSerializer(many=True),
            413: OpenApiResponse(ErrorSerializer, description="A file is over the size limit."),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = AttachmentUploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        files = serializer.validated_data["files"]
        try:
            for upload in files:  # all checked before any is kept
                check_size(upload)
        except AttachmentTooLarge as error:
            return Response(error_body(413, str(error)), status=413)
        saved = [save_upload(request.user, upload) for upload in files]
        return Response(saved, status=status.HTTP_201_CREATED)
