"""What a tool is and how it is registered. A tool is a plain function
`run(inputs: dict, ctx: RunContext) -> dict`; it raises ToolError for a failure the user
may read, anything else is logged and reported without detail (see `runner`)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chat.orchestrator.context import RunContext

ToolFunction = Callable[[dict[str, Any], RunContext], dict[str, Any]]


class ToolError(Exception):
    """A failure whose message is safe to show (bad input, not permitted, nothing found):
    it says nothing about the service behind the tool, so the breaker ignores it."""


class ToolUnavailable(ToolError):
    """The service behind the tool failed: counts towards the tool's circuit breaker, as
    timeouts and unexpected errors do."""


def whole_number(inputs: dict[str, Any], key: str) -> int | None:
    """An optional whole-number input; absent or empty is None, anything else a ToolError."""
    value = inputs.get(key)
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ToolError(f"{key}: a whole number, not {value!r}") from None


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    run: ToolFunction
    timeout_seconds: float | None = None  # None: ORCHESTRATOR_TOOL_TIMEOUT_SECONDS
    uses_breaker: bool = True  # answer writers and pure steps need none


@dataclass
class ToolResult:
    tool: str
    ok: bool
    output: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    ms: float = 0.0


REGISTRY: dict[str, Tool] = {}


def register(
    name: str, description: str, *, timeout_seconds: float | None = None, uses_breaker: bool = True
) -> Callable[[ToolFunction], ToolFunction]:
    def decorate(function: ToolFunction) -> ToolFunction:
        REGISTRY[name] = Tool(name, description, function, timeout_seconds, uses_breaker)
        return function

    return decorate
