"""Conversations, their messages and feedback; the workflows and example questions the admin
edits to steer the orchestrator."""

import uuid

from django.conf import settings
from django.db import models


class Route(models.TextChoices):
    SQL = "sql", "Business database"
    DOCUMENTS = "documents", "Documents"
    GRAPH = "graph", "Knowledge graph"
    GENERAL = "general", "General"
    CLARIFICATION = "clarification", "Clarification"
    UPLOAD = "upload", "Upload"


class Outcome(models.TextChoices):
    """What became of a question: every answer says which."""

    ANSWERED = "answered", "Answered"
    PARTIAL = "partial", "Partly answered"
    NOT_FOUND = "not_found", "Not found"
    DECLINED = "declined", "Declined"
    CLARIFY = "clarify", "Needs clarification"


class DisplayFormat(models.TextChoices):
    TEXT = "text"
    TABLE = "table"
    CHART = "chart"


class Workflow(models.Model):
    """A JSON graph of nodes and edges the executor runs. Shipped ones are loaded from
    `chat/workflows/*.json`; the admin may edit them (validated on save)."""

    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    definition = models.JSONField()
    enabled = models.BooleanField(default=True)
    source_file = models.CharField(
        max_length=300, blank=True, help_text="The repository file it was loaded from, if any."
    )
    edited = models.BooleanField(
        default=False, help_text="Edited in the admin: a reload from files keeps this version."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name


class RouteExample(models.Model):
    """An example question for a route: the deterministic router compares a question with
    these by embedding similarity."""

    route = models.CharField(max_length=20, choices=Route.choices)
    question = models.TextField()
    enabled = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["route", "question"]
        constraints = [
            models.UniqueConstraint(fields=["route", "question"], name="unique_route_example")
        ]

    def __str__(self) -> str:
        return f"{self.route}: {self.question}"


class ChatSession(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_sessions"
    )
    title = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["owner", "-updated_at"], name="chat_session_owner_recent")]

    def __str__(self) -> str:
        return self.title or str(self.id)


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"

    class Status(models.TextChoices):
        COMPLETE = "complete"
        CANCELLED = "cancelled"
        ERROR = "error"

    session = models.ForeignKey(ChatSession, on_delete=models.CASCADE, related_name="messages")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    content = models.TextField(blank=True)
    sources = models.JSONField(default=list, blank=True)
    route = models.CharField(max_length=20, choices=Route.choices, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    # Structured answer: SQL, columns and rows, join path, follow-ups, the workflow trace.
    data = models.JSONField(default=dict, blank=True)
    display_format = models.CharField(
        max_length=10, choices=DisplayFormat.choices, default=DisplayFormat.TEXT
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.COMPLETE)
    tokens = models.PositiveIntegerField(default=0)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["session", "created_at"], name="chat_message_session_time")]

    def __str__(self) -> str:
        return f"{self.role}: {self.content[:60]}"


class Feedback(models.Model):
    class Rating(models.IntegerChoices):
        UP = 1
        DOWN = -1

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="feedback")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_feedback"
    )
    rating = models.SmallIntegerField(choices=Rating.choices)
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "owner"], name="one_feedback_per_person")
        ]

    def __str__(self) -> str:
        return f"{self.get_rating_display()} on {self.message_id}"
