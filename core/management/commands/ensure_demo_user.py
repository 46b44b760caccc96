import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the demo user (an administrator) if missing and print its credentials."

    def handle(self, *args: Any, **options: Any) -> None:
        username = os.environ.get("DEMO_USERNAME", "demo")
        password = os.environ.get("DEMO_PASSWORD", "switchboard-demo")
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(password)
            user.save()
        shown = password if user.check_password(password) else "(changed by you)"
        self.stdout.write(f"Demo login: {username} / {shown}")
