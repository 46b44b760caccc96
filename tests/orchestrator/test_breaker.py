"""The circuit breaker in Redis, through call_tool and across two OS processes."""

import asyncio
import os
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from chat.orchestrator.breaker import CircuitBreaker, _client
from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.runner import call_tool

from . import engine_tools
from .conftest import ROOT_DIR

pytestmark = pytest.mark.usefixtures("engine_tool_calls")
OPEN_SECONDS = 1


@pytest.fixture
def breaker_prefix(settings: SettingsWrapper) -> Iterator[str]:
    """A prefix of this test's own, a short open time, and the keys removed afterwards."""
    prefix = f"{settings.ORCHESTRATOR_BREAKER_PREFIX}-{uuid.uuid4().hex[:8]}"
    settings.ORCHESTRATOR_BREAKER_PREFIX = prefix
    settings.ORCHESTRATOR_BREAKER_OPEN_SECONDS = OPEN_SECONDS
    settings.ORCHESTRATOR_BREAKER_FAILURES = 3
    yield prefix
    keys = list(_client().scan_iter(f"{prefix}:*"))
    if keys:
        _client().delete(*keys)


async def flaky(ctx: RunContext, *, fail: bool) -> tuple[bool, str]:
    result = await call_tool("test_flaky", {"fail": fail}, ctx, node="n")
    return result.ok, result.error


REFUSED = (False, "test_flaky is unavailable for a while after failures")
DOWN = (False, "flaky is down")


async def test_three_consecutive_failures_open_the_circuit(
    breaker_prefix: str, engine_ctx: RunContext
) -> None:
    for _ in range(3):
        assert await flaky(engine_ctx, fail=True) == DOWN
    assert await flaky(engine_ctx, fail=False) == REFUSED
    assert len(engine_tools.calls("test_flaky")) == 3  # the refused call never ran
    assert await _is_open("test_flaky")


async def test_a_success_resets_the_count(breaker_prefix: str, engine_ctx: RunContext) -> None:
    for fail in (True, True, False, True, True):
        await flaky(engine_ctx, fail=fail)
    assert await flaky(engine_ctx, fail=False) == (True, "")
    assert len(engine_tools.calls("test_flaky")) == 6


async def test_the_circuit_stays_open_for_the_configured_time_then_allows_one_trial(
    breaker_prefix: str, engine_ctx: RunContext
) -> None:
    for _ in range(3):
        await flaky(engine_ctx, fail=True)
    opened = time.monotonic()
    while time.monotonic() - opened < OPEN_SECONDS - 0.3:
        assert await flaky(engine_ctx, fail=False) == REFUSED
        await asyncio.sleep(0.1)
    await asyncio.sleep(OPEN_SECONDS - (time.monotonic() - opened) + 0.2)

    # Half-open: the trial fails, and one failure is enough to open the circuit again.
    assert CircuitBreaker("test_flaky").is_half_open()
    assert await flaky(engine_ctx, fail=True) == DOWN
    assert await flaky(engine_ctx, fail=False) == REFUSED
    runs = len(engine_tools.calls("test_flaky"))

    await asyncio.sleep(OPEN_SECONDS + 0.2)
    # The next trial succeeds and closes the circuit: three failures are needed again.
    assert await flaky(engine_ctx, fail=False) == (True, "")
    for _ in range(2):
        assert await flaky(engine_ctx, fail=True) == DOWN
    assert await flaky(engine_ctx, fail=False) == (True, "")
    assert len(engine_tools.calls("test_flaky")) == runs + 4


async def test_while_half_open_only_one_caller_is_the_trial(breaker_prefix: str) -> None:
    breaker = CircuitBreaker("test_flaky")
    for _ in range(3):
        breaker.record_failure()
    assert breaker.is_open()
    await asyncio.sleep(OPEN_SECONDS + 0.2)
    assert breaker.is_open() is False  # this caller holds the trial
    assert breaker.is_open() is True  # everyone else waits for its outcome
    breaker.record_success()
    assert breaker.is_open() is False
    assert breaker.is_open() is False
    assert not breaker.is_half_open()


async def test_tools_without_a_breaker_are_never_refused(
    breaker_prefix: str, engine_ctx: RunContext
) -> None:
    breaker = CircuitBreaker("test_echo")
    for _ in range(3):
        breaker.record_failure()
    result = await call_tool("test_echo", {"x": 1}, engine_ctx)
    assert (result.ok, result.output) == (True, {"x": 1})


SCRIPT = textwrap.dedent(
    """
    import sys
    import django
    django.setup()
    from chat.orchestrator.breaker import CircuitBreaker
    action, tool = sys.argv[1], sys.argv[2]
    breaker = CircuitBreaker(tool)
    if action == "fail":
        for _ in range(3):
            breaker.record_failure()
    print("open" if breaker.is_open() else "closed")
    """
)


def other_process(action: str, tool: str, prefix: str) -> str:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "ORCHESTRATOR_BREAKER_PREFIX": prefix,
        "ORCHESTRATOR_BREAKER_OPEN_SECONDS": str(OPEN_SECONDS * 30),
        "ORCHESTRATOR_BREAKER_FAILURES": "3",
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, action, tool],
        cwd=ROOT_DIR, env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


async def test_the_circuit_is_shared_by_two_processes(
    breaker_prefix: str, engine_ctx: RunContext, settings: SettingsWrapper
) -> None:
    settings.ORCHESTRATOR_BREAKER_OPEN_SECONDS = OPEN_SECONDS * 30
    assert await flaky(engine_ctx, fail=False) == (True, "")
    engine_tools.reset()
    # Another process opens the circuit after three failures...
    assert await asyncio.to_thread(other_process, "fail", "test_flaky", breaker_prefix) == "open"
    # ...and this process stops calling the tool.
    assert await flaky(engine_ctx, fail=False) == REFUSED
    assert engine_tools.calls("test_flaky") == []

    # The other way round: failures here open the circuit for the other process.
    for _ in range(3):
        await call_tool("test_crash", {}, engine_ctx)
    assert await asyncio.to_thread(other_process, "check", "test_crash", breaker_prefix) == "open"


async def _is_open(tool: str) -> bool:
    return await asyncio.to_thread(CircuitBreaker(tool).is_open)


async def test_refusals_for_bad_input_do_not_open_the_circuit(
    breaker_prefix: str, engine_ctx: RunContext
) -> None:
    for _ in range(4):
        result = await call_tool("test_fail", {}, engine_ctx, node="n")
        assert (result.ok, result.error) == (False, "the test tool refuses")
    assert not await _is_open("test_fail")
    assert len(engine_tools.calls("test_fail")) == 4  # none refused: three would open it
