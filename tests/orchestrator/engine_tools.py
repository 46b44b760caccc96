"""Tools that exercise the workflow engine, registered under names starting with `test_`.
Each records its calls so that a test can see what ran, with which inputs and when."""

import threading
import time
from typing import Any

from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.registry import ToolError, ToolUnavailable, register

CALLS: list[tuple[str, dict[str, Any]]] = []
_lock = threading.Lock()
_running = 0
PEAK = {"running": 0}


def _record(name: str, inputs: dict[str, Any]) -> None:
    with _lock:
        CALLS.append((name, dict(inputs)))


def calls(name: str) -> list[dict[str, Any]]:
    return [inputs for called, inputs in CALLS if called == name]


def reset() -> None:
    with _lock:
        CALLS.clear()
        PEAK["running"] = 0


@register("test_echo", "Returns its inputs.", uses_breaker=False)
def echo(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    _record("test_echo", inputs)
    return dict(inputs)


@register("test_add", "Adds `by` to `value`.", uses_breaker=False)
def add(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    _record("test_add", inputs)
    return {"value": (inputs.get("value") or 0) + inputs.get("by", 1)}


@register("test_append", "Returns `items` with `item` appended.", uses_breaker=False)
def append(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    _record("test_append", inputs)
    return {"items": [*(inputs.get("items") or []), inputs.get("item")]}


@register("test_slow", "Sleeps `seconds`, counting how many run at once.", uses_breaker=False)
def slow(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    global _running
    _record("test_slow", inputs)
    with _lock:
        _running += 1
        PEAK["running"] = max(PEAK["running"], _running)
    try:
        time.sleep(float(inputs.get("seconds", 0.1)))
    finally:
        with _lock:
            _running -= 1
    return {"slept": inputs.get("seconds", 0.1), "item": inputs.get("item")}


@register("test_fail", "Always fails with a message users may read.")
def fail(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    _record("test_fail", inputs)
    raise ToolError("the test tool refuses")


@register("test_crash", "Raises an unexpected exception.")
def crash(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    _record("test_crash", inputs)
    raise RuntimeError("internal detail that must not leak")


@register("test_sleepy", "Sleeps longer than its timeout.", timeout_seconds=0.3)
def sleepy(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    _record("test_sleepy", inputs)
    time.sleep(float(inputs.get("seconds", 1.0)))
    return {"woke": True}


@register("test_flaky", "Fails while `fail` is true; counts every run.")
def flaky(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    _record("test_flaky", inputs)
    if inputs.get("fail"):
        raise ToolUnavailable("flaky is down")
    return {"ok": True}
