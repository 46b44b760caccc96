"""A local OpenAI-compatible chat server that keeps every message it was sent.

The ingestion tests' server keeps only the last message of a request; the SQL agent's
tests need the system message too, to prove that no warehouse value was in any part of a
prompt. The real `openai` client talks to it over HTTP.
"""

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from django.conf import settings

from core.providers import llm


class FakeLLM:
    """`answer(prompt)` gives the reply; `prompt` is every message of the request joined."""

    def __init__(self, answer: Callable[[str], str]) -> None:
        self.answer = answer
        self.prompts: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length))
                if not self.path.endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found"}})
                    return
                prompt = "\n\n".join(m["content"] for m in request["messages"])
                fake.prompts.append(prompt)
                content = fake.answer(prompt)
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(fake.prompts)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": request["model"],
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": content},
                            }
                        ],
                        "usage": {
                            "prompt_tokens": len(prompt) // 4,
                            "completion_tokens": len(content) // 4,
                            "total_tokens": (len(prompt) + len(content)) // 4,
                        },
                    },
                )

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    @contextmanager
    def configured(self) -> Iterator["FakeLLM"]:
        """Serve, and point the app's LLM settings (and its cached client) at this server."""
        names = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL")
        kept = {name: getattr(settings, name) for name in names}
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        settings.OPENAI_BASE_URL = self.url
        settings.OPENAI_API_KEY = "test-key"
        settings.OPENAI_MODEL = "fake-model"
        llm.get_client.cache_clear()
        try:
            yield self
        finally:
            for name, value in kept.items():
                setattr(settings, name, value)
            llm.get_client.cache_clear()
            self.server.shutdown()
            self.server.server_close()
