from typing import Any

from django.conf import settings
from rest_framework import serializers

from core.api_fields import StrictInput, TextField
from sqlagent.answer import Turn

MAX_HISTORY = 20  # earlier turns a question may lean on; older ones add nothing useful


class TurnSerializer(StrictInput, serializers.Serializer[Any]):
    question = TextField(max_length=10_000)
    sql = TextField(required=False, allow_null=True, allow_blank=True)


class AskSerializer(StrictInput, serializers.Serializer[Any]):
    question = TextField(help_text="The question, in words.")
    data_source = TextField(
        required=False,
        allow_null=True,
        max_length=100,
        help_text="The data source to ask (default: the demo warehouse).",
    )
    history = TurnSerializer(
        many=True,
        required=False,
        help_text="Earlier turns of the conversation, oldest first.",
    )

    def validate_question(self, value: str) -> str:
        # Read at request time, so a changed setting applies without a restart.
        limit = settings.SQL_MAX_QUESTION_CHARS
        if len(value) > limit:
            raise serializers.ValidationError(f"at most {limit} characters")
        return value

    def validate_history(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(value) > MAX_HISTORY:
            raise serializers.ValidationError(f"at most {MAX_HISTORY} earlier turns")
        return value

    def turns(self) -> list[Turn]:
        history = self.validated_data.get("history") or []
        return [Turn(question=t["question"], sql=t.get("sql") or None) for t in history]


class TableReasonSerializer(serializers.Serializer[Any]):
    table = serializers.CharField()
    reason = serializers.CharField()


class AttemptSerializer(serializers.Serializer[Any]):
    sql = serializers.CharField()
    error = serializers.CharField(allow_null=True)
    repaired_by = serializers.ChoiceField(choices=["deterministic", "llm"], allow_null=True)


class StepEventSerializer(serializers.Serializer[Any]):
    step = serializers.CharField()
    status = serializers.ChoiceField(choices=["start", "end", "error"])
    elapsed_ms = serializers.FloatField()
    detail = serializers.DictField()


class SwapSerializer(serializers.Serializer[Any]):
    confirmed = serializers.CharField(help_text="The literal in the verified SQL.")
    asked = serializers.CharField(help_text="The question's own, put in its place.")


class VerifiedUseSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    question = serializers.CharField(help_text="The verified question.")
    url = serializers.CharField(help_text="Where it is in the admin.")
    probability = serializers.FloatField(help_text="How surely the question rewords it.")
    swapped = SwapSerializer(many=True)


class SqlAnswerSerializer(serializers.Serializer[Any]):
    """The shape of SqlAnswer.to_dict(), for the API schema."""

    question = serializers.CharField()
    status = serializers.ChoiceField(choices=["answered", "empty", "declined", "error"])
    answer = serializers.CharField(help_text="The answer in words.")
    reason = serializers.CharField(help_text="Why the question was declined or failed.")
    sql = serializers.CharField(allow_null=True, help_text="The SQL that ran.")
    logical_sql = serializers.CharField(
        allow_null=True, help_text="The SQL that ran, over the tables the agent shows."
    )
    dialect = serializers.CharField()
    data_source = serializers.CharField(help_text="The data source asked.")
    generator = serializers.ChoiceField(choices=["compiler", "linked", "llm", "verified", ""])
    verified = VerifiedUseSerializer(
        allow_null=True, help_text="The verified query reused, when the question rewords one."
    )
    tables = TableReasonSerializer(many=True, help_text="Each table used and why.")
    join_path = serializers.ListField(child=serializers.CharField())
    columns = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.ListField(child=serializers.JSONField()))
    truncated = serializers.BooleanField(help_text="More rows existed than were returned.")
    loosened = serializers.ListField(
        child=serializers.CharField(), help_text="Filters relaxed after an empty result."
    )
    follow_ups = serializers.ListField(child=serializers.CharField())
    attempts = AttemptSerializer(many=True)
    timings = serializers.DictField(child=serializers.FloatField(), help_text="Step -> ms.")
    trace = StepEventSerializer(many=True)
