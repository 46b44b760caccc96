"""The local OpenAI-compatible server, keeping every message of a request and pointing the
app's LLM settings at itself. The real `openai` client talks to it over HTTP."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings

from core.providers import llm

from ..ingestion.fake_openai import FakeOpenAI


class FakeLLM(FakeOpenAI):
    """`answer(prompt)` gives the reply; `prompt` is every message of the request joined."""

    def __init__(self, answer: Callable[[str], str]) -> None:
        super().__init__(answer, whole_request=True)

    @contextmanager
    def configured(self) -> Iterator["FakeLLM"]:
        """Serve, and point the app's LLM settings (and its cached client) at this server."""
        names = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL")
        kept = {name: getattr(settings, name) for name in names}
        with self.running():
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
