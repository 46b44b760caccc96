"""Old conversations are deleted by the periodic task, run by a real Celery worker."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pytest_django.fixtures import Settings

from chat.attachments import delete_old_uploads
from chat.models import ChatSession, Feedback, Message
from chat.tasks import delete_stale_sessions

from .chat_fixtures import add_message, alice, make_session

__all__ = ["alice"]


def _aged(user: User, title: str, days: float) -> ChatSession:
    session = make_session(user, title)
    answer = add_message(session, f"{title} answer", role="assistant")
    Feedback.objects.create(message=answer, owner=user, rating=1)
    ChatSession.objects.filter(pk=session.pk).update(
        updated_at=timezone.now() - timedelta(days=days)
    )
    return session


@pytest.mark.django_db(transaction=True)
def test_the_worker_deletes_sessions_untouched_for_the_retention_period(
    celery_worker: str, alice: User
) -> None:
    # The worker runs with the default CHAT_RETENTION_DAYS (90).
    stale = [_aged(alice, f"stale {i}", days=91 + i) for i in range(3)]
    kept = _aged(alice, "recent", days=89)

    deleted = delete_stale_sessions.delay().get(timeout=60)
    again = delete_stale_sessions.delay().get(timeout=60)

    assert (deleted, again) == (3, 0)
    assert list(ChatSession.objects.values_list("pk", flat=True)) == [kept.pk]
    assert not Message.objects.filter(session_id__in=[s.pk for s in stale]).exists()
    assert Message.objects.count() == 1 and Feedback.objects.count() == 1


@pytest.mark.django_db
def test_retention_zero_keeps_everything(alice: User, settings: Settings) -> None:
    settings.CHAT_RETENTION_DAYS = 0
    _aged(alice, "ancient", days=5000)

    assert delete_stale_sessions() == 0
    assert ChatSession.objects.count() == 1


@pytest.mark.django_db
def test_deletion_goes_in_batches(alice: User, settings: Settings) -> None:
    from chat.conversations import delete_sessions_untouched_since

    for i in range(7):
        _aged(alice, f"old {i}", days=100)

    assert delete_sessions_untouched_since(timezone.now(), batch=3) == 7
    assert not ChatSession.objects.exists() and not Feedback.objects.exists()


def test_uploads_older_than_a_day_are_deleted(settings: Settings, tmp_path: Path) -> None:
    import os
    import time

    settings.MEDIA_ROOT = str(tmp_path)
    old, new = tmp_path / "chat-uploads/7/a", tmp_path / "chat-uploads/7/b"
    for folder in (old, new):
        folder.mkdir(parents=True)
        (folder / "f.txt").write_text("x")
    two_days_ago = time.time() - 2 * 24 * 3600
    os.utime(old, (two_days_ago, two_days_ago))

    assert delete_old_uploads() == 1
    assert not old.exists() and (new / "f.txt").exists()
