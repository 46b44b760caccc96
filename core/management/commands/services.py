from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.services import SERVICES, ServiceError


class Command(BaseCommand):
    help = "Start, stop or report the services the project runs itself (embedded defaults)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["start", "stop", "status"])
        parser.add_argument("names", nargs="*", metavar="SERVICE", help=", ".join(SERVICES))

    def handle(self, *args: Any, action: str, names: list[str], **options: Any) -> None:
        unknown = set(names) - set(SERVICES)
        if unknown:
            raise CommandError(f"unknown service(s): {', '.join(sorted(unknown))}")
        selected = names or list(SERVICES)
        if action == "stop":
            selected.reverse()
        failed = []
        for name in selected:
            service = SERVICES[name]
            if action == "status":
                st = service.status()
                state = "running" if st.running else "down"
                owner = "embedded" if st.managed else "external"
                self.stdout.write(f"{name:<9} {state:<8} {owner:<9} {st.address}  {st.detail}")
                if not st.running:
                    failed.append(name)
                continue
            try:
                message = service.start() if action == "start" else service.stop()
            except ServiceError as error:
                self.stderr.write(self.style.ERROR(str(error)))
                failed.append(name)
                continue
            self.stdout.write(f"{name:<9} {message}")
        if failed:
            raise CommandError(f"services {action}: failed for {', '.join(failed)}")
