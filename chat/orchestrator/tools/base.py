"""The tool registry and the one way to call a tool: with a timeout, through its circuit
breaker, announcing tool_start and tool_end. A tool is a plain function
`run(inputs: dict, ctx: RunContext) -> dict`; it raises ToolError for a failure the user
may read, anything else is logged and reported without detail."""

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from chat.orchestrator.breaker import CircuitBreaker
from chat.orchestrator.context import RunContext

logger = logging.getLogger(__name__)

ToolFunction = Callable[[dict[str, Any], RunContext], dict[str, Any]]


class ToolError(Exception):
    """A failure whose message is safe to show."""


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


def get_tool(name: str) -> Tool:
    import chat.orchestrator.tools.catalog  # noqa: F401 - registers the shipped tools

    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}; known: {', '.join(sorted(REGISTRY))}") from None


async def call_tool(
    name: str, inputs: dict[str, Any], ctx: RunContext, *, node: str = ""
) -> ToolResult:
    tool = get_tool(name)
    breaker = CircuitBreaker(name)
    ctx.send("tool_start", tool=name, node=node, inputs=_summary(inputs))
    started = time.perf_counter()
    if tool.uses_breaker and await sync_to_async(breaker.is_open)():
        result = ToolResult(name, False, error=f"{name} is unavailable for a while after failures")
    else:
        result = await _run(tool, inputs, ctx)
        if tool.uses_breaker:
            record = breaker.record_success if result.ok else breaker.record_failure
            await sync_to_async(record)()
    result.ms = round((time.perf_counter() - started) * 1000, 1)
    ctx.send("tool_end", tool=name, node=node, ok=result.ok, ms=result.ms, error=result.error)
    return result


async def _run(tool: Tool, inputs: dict[str, Any], ctx: RunContext) -> ToolResult:
    timeout = tool.timeout_seconds or settings.ORCHESTRATOR_TOOL_TIMEOUT_SECONDS
    try:
        # thread_sensitive=False: tools may run in parallel (fanout branches).
        output = await asyncio.wait_for(
            sync_to_async(_in_worker_thread, thread_sensitive=False)(tool, inputs, ctx), timeout
        )
    except TimeoutError:
        return ToolResult(tool.name, False, error=f"{tool.name} took longer than {timeout:g} s")
    except ToolError as error:
        return ToolResult(tool.name, False, error=str(error))
    except Exception:
        logger.exception("tool %s failed", tool.name)
        return ToolResult(tool.name, False, error=f"{tool.name} failed")
    return ToolResult(tool.name, True, output=output)


def _in_worker_thread(tool: Tool, inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    try:
        return tool.run(inputs, ctx)
    finally:
        # Worker threads outlive the request: their connections are closed here as a
        # request's would be at its end (kept while CONN_MAX_AGE allows).
        close_old_connections()


def _summary(inputs: dict[str, Any]) -> dict[str, Any]:
    """Inputs as the trace shows them: short strings, no large structures."""
    shown: dict[str, Any] = {}
    for key, value in inputs.items():
        if isinstance(value, str | int | float | bool) or value is None:
            shown[key] = value if not isinstance(value, str) else value[:200]
        else:
            shown[key] = f"<{type(value).__name__}>"
    return shown
