"""Read-only admin for conversations, messages and feedback, built for large tables: no full
counts, related rows joined in the list query, related ids instead of drop-downs."""

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from chat.models import ChatSession, Feedback, Message


class ReadOnlyAdmin(admin.ModelAdmin):
    """Operators look; people's conversations change only through the chat itself."""

    show_full_result_count = False
    list_per_page = 50

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _pretty(value: Any) -> SafeString:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False))


@admin.register(ChatSession)
class ChatSessionAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "owner", "created_at", "updated_at"]
    list_select_related = ["owner"]
    search_fields = ["title", "owner__username", "=id"]
    date_hierarchy = "updated_at"
    raw_id_fields = ["owner"]
    fields = readonly_fields = ("id", "owner", "title", "created_at", "updated_at", "messages_link")

    @admin.display(description="Messages")
    def messages_link(self, session: ChatSession) -> SafeString:
        url = reverse("admin:chat_message_changelist") + f"?session__id__exact={session.pk}"
        return format_html('<a href="{}">the messages of this session</a>', url)


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = [
        "id", "session_title", "owner", "role", "route", "status", "excerpt", "tokens",
        "latency_ms", "created_at",
    ]  # fmt: skip
    list_select_related = ["session", "owner"]
    list_filter = ["role", "route", "status", "display_format"]
    search_fields = ["content", "owner__username", "=session__id"]
    date_hierarchy = "created_at"
    raw_id_fields = ["session", "owner"]
    fields = readonly_fields = (
        "session", "owner", "role", "status", "route", "display_format", "tokens",
        "latency_ms", "created_at", "content", "sources_shown", "data_shown", "trace_shown",
    )  # fmt: skip

    @admin.display(description="Session", ordering="session__title")
    def session_title(self, message: Message) -> str:
        return str(message.session)

    @admin.display(description="Content")
    def excerpt(self, message: Message) -> str:
        return message.content[:100]

    @admin.display(description="Sources")
    def sources_shown(self, message: Message) -> SafeString:
        return _pretty(message.sources)

    @admin.display(description="Data")
    def data_shown(self, message: Message) -> SafeString:
        return _pretty({k: v for k, v in message.data.items() if k != "trace"})

    @admin.display(description="Trace")
    def trace_shown(self, message: Message) -> SafeString:
        return _pretty(message.data.get("trace", []))


@admin.register(Feedback)
class FeedbackAdmin(ReadOnlyAdmin):
    list_display = ["id", "message", "owner", "rating", "comment", "created_at"]
    list_select_related = ["message", "owner"]
    list_filter = ["rating"]
    search_fields = ["comment", "owner__username", "=message__id"]
    date_hierarchy = "created_at"
    raw_id_fields = ["message", "owner"]
    fields = readonly_fields = ("message", "owner", "rating", "comment", "created_at")
