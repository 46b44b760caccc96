"""Admin registrations live beside what they administer; importing them registers them."""

from chat import admin_conversations, admin_orchestrator  # noqa: F401
