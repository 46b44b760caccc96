"""Any OpenAI-compatible chat endpoint, through the `openai` package. Optional."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings
from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam


class LLMNotConfigured(RuntimeError):
    pass


@dataclass
class Completion:
    text: str
    usage: dict[str, int] = field(default_factory=dict)


def llm_configured() -> bool:
    return bool(settings.OPENAI_MODEL and (settings.OPENAI_API_KEY or settings.OPENAI_BASE_URL))


@lru_cache(maxsize=1)
def get_client() -> OpenAI:
    if not llm_configured():
        raise LLMNotConfigured("set OPENAI_MODEL and OPENAI_API_KEY or OPENAI_BASE_URL")
    return OpenAI(
        api_key=settings.OPENAI_API_KEY or "not-needed",
        base_url=settings.OPENAI_BASE_URL or None,
        timeout=settings.LLM_TIMEOUT_SECONDS,
        max_retries=1,
    )


def complete(messages: list[ChatCompletionMessageParam], *, temperature: float = 0.0) -> Completion:
    response = get_client().chat.completions.create(
        model=settings.OPENAI_MODEL,
        messages=messages,
        temperature=temperature,
    )
    usage = response.usage
    return Completion(
        text=response.choices[0].message.content or "",
        usage={"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens}
        if usage
        else {},
    )


def stream(
    messages: list[ChatCompletionMessageParam], *, temperature: float = 0.0
) -> Iterator[str]:
    chunks = get_client().chat.completions.create(
        model=settings.OPENAI_MODEL,
        messages=messages,
        temperature=temperature,
        stream=True,
    )
    for chunk in chunks:
        if chunk.choices and chunk.choices[0].delta.content:
            yield chunk.choices[0].delta.content


def list_models() -> list[str]:
    return [model.id for model in get_client().with_options(timeout=3.0).models.list()]
