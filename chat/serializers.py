"""The chat API's shapes: sessions, messages (with their safe HTML), feedback, and the reply
to a question (the seed's `{response, sources, conversation_id}` and more)."""

from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from rest_framework import serializers

from chat.markdown import message_html
from chat.models import ChatSession, Feedback, Message, Outcome, Route
from chat.orchestrator.service import EMPTY, TOO_LONG, QuestionRejected, check_question
from core.api_fields import SOME_WORDS, StrictInput, TextField

RATINGS = {"up": Feedback.Rating.UP, "down": Feedback.Rating.DOWN}
RATING_NAMES = {value: name for name, value in RATINGS.items()}


class SessionSerializer(StrictInput, serializers.ModelSerializer[ChatSession]):
    title = TextField(max_length=200, required=False, allow_blank=True)

    class Meta:
        model = ChatSession
        fields = ["id", "title", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]

    def validate_title(self, value: str) -> str:
        return " ".join(value.split())


class SessionSearchSerializer(serializers.Serializer[Any]):
    search = TextField(required=False, allow_blank=True, max_length=200, help_text="Words to find.")


class FeedbackSerializer(StrictInput, serializers.Serializer[Any]):
    rating = serializers.ChoiceField(choices=list(RATINGS))
    comment = TextField(required=False, allow_blank=True, max_length=4000)


class VerifySerializer(StrictInput, serializers.Serializer[Any]):
    sql = TextField(
        required=False,
        max_length=20000,
        help_text="The SQL to confirm, edited first if need be (default: the SQL that ran).",
    )
    notes = TextField(required=False, allow_blank=True, max_length=2000)


class VerifiedSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    question = serializers.CharField()
    sql = serializers.CharField()
    url = serializers.CharField(help_text="Where to see and edit it in the admin.")


class MessageSerializer(serializers.ModelSerializer[Message]):
    session_id = serializers.UUIDField(read_only=True)
    # Blank on questions and on answers still being written.
    route = serializers.ChoiceField(choices=Route.choices, allow_blank=True, read_only=True)
    outcome = serializers.ChoiceField(choices=Outcome.choices, allow_blank=True, read_only=True)
    html = serializers.SerializerMethodField(help_text="The content as safe HTML.")
    feedback = serializers.SerializerMethodField(
        help_text="The asking person's rating of this answer: up, down or null."
    )

    class Meta:
        model = Message
        fields = [
            "id", "session_id", "role", "content", "html", "sources", "route", "outcome", "data",
            "display_format", "status", "tokens", "latency_ms", "created_at", "feedback",
        ]  # fmt: skip
        read_only_fields = fields

    def get_html(self, message: Message) -> str:
        return message_html(message.role, message.content)

    def get_feedback(self, message: Message) -> str | None:
        # Annotated by the message list (one query); a fresh message has none yet.
        rating = getattr(message, "my_rating", None)
        return RATING_NAMES.get(rating) if rating is not None else None


class QuestionSerializer(StrictInput, serializers.Serializer[Any]):
    content = TextField(
        trim_whitespace=False,
        max_length=settings.CHAT_MAX_MESSAGE_CHARS,
        pattern=RegexValidator(SOME_WORDS, EMPTY),
        error_messages={"blank": EMPTY, "max_length": TOO_LONG},
        help_text="The question, in words.",
    )
    attachments = serializers.ListField(
        child=TextField(max_length=200), required=False, max_length=20,
        help_text="Ids of files uploaded for this question.",
    )  # fmt: skip

    def validate_content(self, value: str) -> str:
        # The orchestrator's own rule, so every way in answers with the same words.
        try:
            return check_question(value)
        except QuestionRejected as error:
            raise serializers.ValidationError(str(error)) from None


class StreamInputSerializer(serializers.Serializer[Any]):
    message = serializers.CharField(allow_blank=True, trim_whitespace=False)

    def validate_message(self, value: str) -> str:
        return QuestionSerializer().validate_content(value)


class StreamConversationSerializer(serializers.Serializer[Any]):
    # Not the strict TextField: a service may name a user by a number (`"user_id": 7`).
    id = serializers.CharField(max_length=200, help_text="A session id: a UUID, or any string.")
    user_id = serializers.CharField(max_length=150, help_text="A user's id or username.")
    company_id = serializers.CharField(max_length=200, required=False, allow_blank=True)


class StreamRequestSerializer(serializers.Serializer[Any]):
    """The body of POST /internal/chat/stream (seed 003)."""

    input = StreamInputSerializer()
    conversation = StreamConversationSerializer()


class AttachmentUploadSerializer(StrictInput, serializers.Serializer[Any]):
    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True), min_length=1, max_length=20
    )


class AttachmentSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="Send it in a question's `attachments`.")
    file_name = serializers.CharField()
    size = serializers.IntegerField()


class ReplySerializer(serializers.Serializer[Any]):
    """The answer to POST .../messages, for the API schema."""

    response = serializers.CharField(help_text="The answer (Markdown).")
    sources = serializers.ListField(child=serializers.DictField())
    conversation_id = serializers.UUIDField()
    message_id = serializers.IntegerField()
    route = serializers.CharField()
    display_format = serializers.CharField()
    data = serializers.DictField()  # type: ignore[assignment]  # a field named like .data
    follow_ups = serializers.ListField(child=serializers.CharField())
    message = MessageSerializer()
