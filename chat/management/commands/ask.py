"""Ask the orchestrator a question and print its events as they stream."""

import asyncio
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.orchestrator.service import answer_question


class Command(BaseCommand):
    help = "Ask a question as a user and print the events of the answer as they stream."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("question")
        parser.add_argument("--user", default="demo", help="username of the asking person")
        parser.add_argument("--workflow", help="workflow slug (default: the chat workflow)")
        parser.add_argument("--json", action="store_true", help="print each event as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            user = get_user_model().objects.get(username=options["user"])
        except get_user_model().DoesNotExist:
            raise CommandError(f"no user {options['user']!r}") from None
        failed = asyncio.run(self._ask(options["question"], user, options))
        if failed:
            raise CommandError(failed)

    async def _ask(self, question: str, user: Any, options: dict[str, Any]) -> str:
        async for event in answer_question(question, user=user, workflow=options["workflow"]):
            payload = event.to_dict()
            if options["json"]:
                self.stdout.write(json.dumps(payload, default=str))
            elif event.name == "token":
                self.stdout.write(event.data["content"], ending="")
                self.stdout.flush()
            else:
                self.stdout.write(self._line(event.name, event.data))
            if event.name == "error":
                return str(event.data.get("message"))
        return ""

    def _line(self, name: str, data: dict[str, Any]) -> str:
        if name == "route_decision":
            reasons = "; ".join(data.get("reasons", []))
            route = f"{data['route']} ({data['confidence']:.2f}, {data['mode']})"
            return f"\n[route] {route}: {reasons}"
        if name == "tool_start":
            return f"[tool] {data['tool']} ..."
        if name == "tool_end":
            status = "ok" if data["ok"] else f"failed: {data.get('error')}"
            return f"[tool] {data['tool']} {status} in {data['ms']:.0f} ms"
        if name == "sources":
            return "\n".join(
                f"[{s.get('n')}] {s.get('file_name')} > {s.get('section_path') or ''} "
                f"{_pages(s)}({s.get('score') or 0:.2f})"
                for s in data.get("sources", [])
            )
        if name == "table":
            return f"\n[table] {data.get('row_count')} rows: {', '.join(data.get('columns', []))}"
        if name == "complete":
            stats = data["stats"]
            return (
                f"\n[complete] {data.get('outcome')}, route {data['answer']['route']}, "
                f"{stats['latency_ms']:.0f} ms, "
                f"first token {stats['first_token_ms']} ms, {stats['steps']} steps"
            )
        return f"[{name}] {json.dumps(data, default=str)[:300]}"


def _pages(source: dict[str, Any]) -> str:
    page, last = source.get("page"), source.get("page_end")
    if not page:
        return ""
    return f"pages {page}-{last} " if last and last != page else f"page {page} "
