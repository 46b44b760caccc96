"""The one way to call a tool: by name, with a timeout, through its circuit breaker,
announcing tool_start and tool_end. Importing this module registers the shipped tools."""

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

import chat.orchestrator.tools.catalog  # noqa: F401 - registers the shipped tools
from chat.orchestrator.breaker import CircuitBreaker
from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.registry import REGISTRY, Tool, ToolError, ToolResult, ToolUnavailable

logger = logging.getLogger(__name__)


def get_tool(name: str) -> Tool:
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}; known: {', '.join(sorted(REGISTRY))}") from None


async def call_tool(
    name: str, inputs: dict[str, Any], ctx: RunContext, *, node: str = ""
) -> ToolResult:
    tool = get_tool(name)
    ctx.send("tool_start", tool=name, node=node, inputs=_summary(inputs))
    started = time.perf_counter()
    result = await _run(tool, inputs, ctx)
    result.ms = round((time.perf_counter() - started) * 1000, 1)
    ctx.send("tool_end", tool=name, node=node, ok=result.ok, ms=result.ms, error=result.error)
    return result


class _CircuitOpen(ToolError):
    """Refused without calling: the tool's circuit is open."""


async def _run(tool: Tool, inputs: dict[str, Any], ctx: RunContext) -> ToolResult:
    timeout = _timeout(tool)
    # One hop to a worker thread for the breaker check, the call and its outcome: the
    # event loop never waits on Redis or the database, and tools run in parallel.
    guarded = sync_to_async(_guarded, thread_sensitive=False, executor=_pool())
    try:
        output = await asyncio.wait_for(guarded(tool, inputs, ctx), timeout)
    except TimeoutError:
        if tool.uses_breaker:
            record = sync_to_async(CircuitBreaker(tool.name).record_failure, thread_sensitive=False)
            await record()
        return ToolResult(tool.name, False, error=f"{tool.name} took longer than {timeout:g} s")
    except ToolError as error:
        return ToolResult(tool.name, False, error=str(error))
    except Exception:
        logger.exception("tool %s failed", tool.name)
        return ToolResult(tool.name, False, error=f"{tool.name} failed")
    return ToolResult(tool.name, True, output=output)


def _guarded(tool: Tool, inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    breaker = CircuitBreaker(tool.name) if tool.uses_breaker else None
    if breaker is not None and breaker.is_open():
        raise _CircuitOpen(f"{tool.name} is unavailable for a while after failures")
    started = time.monotonic()
    try:
        output = tool.run(inputs, ctx)
    except ToolError as error:
        if breaker is not None and isinstance(error, ToolUnavailable):
            breaker.record_failure()
        raise
    except Exception:
        if breaker is not None:
            breaker.record_failure()
        raise
    else:
        # A call that outlived its timeout was already counted a failure by the caller.
        if breaker is not None and time.monotonic() - started <= _timeout(tool):
            breaker.record_success()
        return output
    finally:
        # Worker threads outlive the request: their connections are closed here as a
        # request's would be at its end (kept while CONN_MAX_AGE allows).
        close_old_connections()


def _timeout(tool: Tool) -> float:
    return tool.timeout_seconds or settings.ORCHESTRATOR_TOOL_TIMEOUT_SECONDS


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    """The tools' own threads: a quick step never queues behind the default pool's slow
    calls, and the thread-sensitive thread stays free for the chat's database work."""
    return ThreadPoolExecutor(settings.ORCHESTRATOR_TOOL_THREADS, thread_name_prefix="tool")


def _summary(inputs: dict[str, Any]) -> dict[str, Any]:
    """Inputs as the trace shows them: short strings, no large structures."""
    shown: dict[str, Any] = {}
    for key, value in inputs.items():
        if isinstance(value, str | int | float | bool) or value is None:
            shown[key] = value if not isinstance(value, str) else value[:200]
        else:
            shown[key] = f"<{type(value).__name__}>"
    return shown
