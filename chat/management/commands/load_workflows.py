from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.models import Workflow
from chat.orchestrator.workflow import (
    WORKFLOWS_DIR,
    WorkflowError,
    read_workflow_file,
    validate_workflow,
)


class Command(BaseCommand):
    help = (
        "Load the shipped workflows (chat/workflows/*.json) into Workflow rows, one per file "
        "named after it. Idempotent; a row edited in the admin is never overwritten."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*", help="only these workflows (file names)")
        parser.add_argument("--dir", type=Path, default=WORKFLOWS_DIR)

    def handle(self, *args: Any, **options: Any) -> None:
        folder: Path = options["dir"]
        paths = sorted(folder.glob("*.json"))
        if options["slugs"]:
            paths = [path for path in paths if path.stem in options["slugs"]]
            missing = set(options["slugs"]) - {path.stem for path in paths}
            if missing:
                raise CommandError(f"no workflow file for {', '.join(sorted(missing))}")
        invalid = []
        for path in paths:
            try:
                data = read_workflow_file(path)
                problems = validate_workflow(data)
            except WorkflowError as error:
                problems = error.problems
            if problems:
                invalid.append(path.name)
                self.stderr.write(f"{path.name}: not loaded:\n  " + "\n  ".join(problems))
                continue
            self.stdout.write(f"{path.stem}: {self._load(path, data)}")
        if invalid:
            raise CommandError(f"invalid workflow files: {', '.join(invalid)}")

    def _load(self, path: Path, data: dict[str, Any]) -> str:
        fields = {
            "name": data["name"],
            "description": data.get("description", ""),
            "definition": data,
            "source_file": _relative(path),
        }
        row = Workflow.objects.filter(slug=path.stem).first()
        if row is None:
            Workflow.objects.create(slug=path.stem, **fields)
            return "created"
        if row.edited:
            return "kept: edited in the admin, so the file does not overwrite it"
        if all(getattr(row, name) == value for name, value in fields.items()):
            return "unchanged"
        for name, value in fields.items():
            setattr(row, name, value)
        row.save()
        return "updated from the file"


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path(settings.BASE_DIR)))
    except ValueError:
        return str(path)
