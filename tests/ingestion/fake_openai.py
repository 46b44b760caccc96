"""A local OpenAI-compatible chat server: the real `openai` client talks to it over HTTP."""

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeOpenAI:
    """`answer(prompt)` gives the reply. The prompt is the request's last message, or every
    message joined with `whole_request` (to check that no part of a prompt holds a value)."""

    def __init__(self, answer: Callable[[str], str], *, whole_request: bool = False) -> None:
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

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(
                        200,
                        {
                            "object": "list",
                            "data": [
                                {
                                    "id": "fake-model",
                                    "object": "model",
                                    "created": 0,
                                    "owned_by": "test",
                                }
                            ],
                        },
                    )
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length))
                if not self.path.endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found"}})
                    return
                messages = request["messages"] if whole_request else request["messages"][-1:]
                prompt = "\n\n".join(m["content"] for m in messages)
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
                            "completion_tokens": 20,
                            "total_tokens": len(prompt) // 4 + 20,
                        },
                    },
                )

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    @contextmanager
    def running(self) -> Iterator["FakeOpenAI"]:
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.server.shutdown()
            self.server.server_close()
