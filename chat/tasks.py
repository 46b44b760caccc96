"""Periodic clean-up of old conversations (scheduled in CELERY_BEAT_SCHEDULE)."""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from chat.attachments import delete_old_uploads
from chat.conversations import delete_sessions_untouched_since

log = logging.getLogger(__name__)


@shared_task(
    name="chat.delete_stale_sessions",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=3,
)
def delete_stale_sessions() -> int:
    """Sessions untouched for CHAT_RETENTION_DAYS go, messages and feedback with them
    (0 keeps everything). Idempotent: a second run finds nothing left to delete."""
    days = settings.CHAT_RETENTION_DAYS
    if days <= 0:
        return 0
    deleted = delete_sessions_untouched_since(timezone.now() - timedelta(days=days))
    if deleted:
        log.info("deleted %d chat sessions untouched for %d days", deleted, days)
    return deleted


@shared_task(name="chat.delete_old_uploads")
def delete_old_uploads_task() -> int:
    """Files attached to questions, a day after upload (ingestion keeps its own copy)."""
    return delete_old_uploads()
