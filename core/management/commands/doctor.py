from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.health import healthy, run_checks


class Command(BaseCommand):
    help = "Check every dependency (the same checks as /healthz) and print the results."

    def handle(self, *args: Any, **options: Any) -> None:
        results = run_checks()
        for result in results:
            mark = self.style.SUCCESS("ok  ") if result.ok else self.style.ERROR("FAIL")
            need = "required" if result.required else "optional"
            self.stdout.write(
                f"{mark} {result.name:<16} {result.latency_ms:>8.1f} ms  {need:<8}  {result.detail}"
            )
        if not healthy(results):
            raise CommandError("a required dependency is failing")
