"""Who an evaluation command runs as."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError


def evaluation_user(username: str | None, *, name: str) -> Any:
    """The user called `username`, or without one an unsaved superuser named `name` who
    reads every collection."""
    model = get_user_model()
    if username:
        user = model.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no such user: {username}")
        return user
    return model(username=name, is_superuser=True, is_active=True)
