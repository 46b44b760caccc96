"""The queue-based workflow executor.

A run is a queue of tokens (a node to run, and the loop pass it belongs to). Each step takes
the next token, runs its node and queues the nodes it leads to, so cycles, conditionals and
fanouts over lists known only at run time need no planning ahead. A fanout runs one such
queue per item, concurrently, each over its own deep copy of the state, up to the fanout's
merge; the merge then combines what the branches left behind and the parent queue goes on.

Limits (WorkflowSpec.limits): max_steps counts node runs across all branches; timeout_ms
bounds the whole run; loops stop after max_iters passes; max_parallel bounds the branches
of one fanout that run at once. A run stopped by a limit returns the state it reached and
says why in `stopped_reason`. See docs/orchestrator.md, "Workflows".
"""

import asyncio
import copy
import time
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async

from chat.orchestrator.conditions import assign
from chat.orchestrator.context import RunContext
from chat.orchestrator.nodes import branch_keys, combine, evaluate, holds, next_nodes, read_inputs
from chat.orchestrator.tools.runner import call_tool
from chat.orchestrator.workflow import (
    AgentNode,
    FanoutNode,
    LoopNode,
    MergeNode,
    Node,
    WorkflowSpec,
    load_workflow,
    parse_workflow,
)


@dataclass
class TraceEntry:
    """One node run. `iteration` is the loop pass it ran in (0 outside loops); `branch`
    names the fanout branch ("" in the main line, `fanout[key]`, nested with "/")."""

    node: str
    type: str
    tool: str = ""
    ms: float = 0.0
    ok: bool = True
    detail: str = ""
    iteration: int = 0
    branch: str = ""


@dataclass
class RunOutcome:
    state: dict[str, Any]
    trace: list[TraceEntry]
    steps: int
    stopped_reason: str = ""  # empty when the run ended on its own


class _Stopped(Exception):
    """A limit was reached; every line of the run stops at its next step."""


@dataclass(frozen=True)
class _Token:
    node: str
    iteration: int = 0


@dataclass
class _Line:
    """One line of execution: the main run or one fanout branch, with its own state."""

    state: dict[str, Any]
    branch: str = ""
    stop_at: str | None = None  # a branch ends where it reaches its fanout's merge
    loops: dict[str, tuple[int, int]] = field(default_factory=dict)  # id -> (passes, outer)
    merges: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> branch results


class _Executor:
    def __init__(self, spec: WorkflowSpec, ctx: RunContext) -> None:
        self.spec = spec
        self.ctx = ctx
        self.limits = spec.limits
        self.trace: list[TraceEntry] = []
        self.steps = 0
        self.stopped = ""

    async def run_line(self, line: _Line, start: str) -> None:
        queue = deque([_Token(start)])
        while queue:
            token = queue.popleft()
            if token.node == line.stop_at:
                continue
            self._count_step()
            queue.extend(await self._step(self.spec.nodes[token.node], token, line))

    def _count_step(self) -> None:
        if not self.stopped and self.steps >= self.limits.max_steps:
            self.stopped = f"max_steps reached ({self.limits.max_steps} node runs)"
        if self.stopped:
            raise _Stopped(self.stopped)
        self.steps += 1

    async def _step(self, node: Node, token: _Token, line: _Line) -> list[_Token]:
        entry = TraceEntry(node.id, node.type, iteration=token.iteration, branch=line.branch)
        self.trace.append(entry)  # in start order; a fanout's branches come after it
        started = time.perf_counter()
        try:
            if isinstance(node, AgentNode):
                return await self._agent(node, token, line, entry)
            if isinstance(node, FanoutNode):
                return await self._fanout(node, token, line, entry)
            if isinstance(node, LoopNode):
                return self._loop(node, token, line, entry)
            if isinstance(node, MergeNode):
                self._merge(node, line, entry)
            return self._follow(node, token.iteration, line, entry)
        except (asyncio.CancelledError, _Stopped):
            entry.ok, entry.detail = False, "interrupted"
            raise
        finally:
            entry.ms = round((time.perf_counter() - started) * 1000, 1)

    def _follow(self, node: Node, iteration: int, line: _Line, entry: TraceEntry) -> list[_Token]:
        targets = next_nodes(node, self.spec.outgoing(node.id), line.state)
        if node.type == "conditional":
            entry.detail = f"-> {targets[0]}" if targets else "no edge holds; this path ends"
        return [_Token(target, iteration) for target in targets]

    async def _agent(
        self, node: AgentNode, token: _Token, line: _Line, entry: TraceEntry
    ) -> list[_Token]:
        inputs = read_inputs(node.inputs, line.state)
        result = await call_tool(node.tool, inputs, self.ctx, node=node.id)
        entry.tool, entry.ok = node.tool, result.ok
        if result.ok:
            output: Any = result.output
            degraded = output.get("degraded") if isinstance(output, dict) else None
            entry.detail = str(degraded or "")
        else:
            output = {"ok": False, "error": result.error}
            entry.detail = result.error
        if node.output:
            assign(line.state, node.output, output)
        return self._follow(node, token.iteration, line, entry)

    def _loop(self, node: LoopNode, token: _Token, line: _Line, entry: TraceEntry) -> list[_Token]:
        """Repeat-until: the body runs at least once; each time the run comes back to the
        loop node, `until` is checked, and the loop exits along its own edges when it holds
        or when max_iters passes have run."""
        limit = min(node.max_iters or self.limits.max_iters, self.limits.max_iters)
        passes, outer = line.loops.get(node.id, (0, token.iteration))
        if passes and holds(node.until, line.state):
            entry.detail = f"done after {passes} pass(es): until holds"
        elif passes >= limit:
            entry.detail = f"done after {passes} passes: max_iters reached"
        else:
            line.loops[node.id] = (passes + 1, outer)
            entry.detail = f"pass {passes + 1} of at most {limit}"
            return [_Token(node.body, passes + 1)]
        del line.loops[node.id]
        return self._follow(node, outer, line, entry)

    async def _fanout(
        self, node: FanoutNode, token: _Token, line: _Line, entry: TraceEntry
    ) -> list[_Token]:
        items = evaluate(node.items, line.state)
        if not isinstance(items, list):
            entry.ok, entry.detail = False, f"items ({node.items}) is not a list; no branches"
            items = []
        keys = branch_keys(items)
        width = min(node.max_parallel or self.limits.max_parallel, self.limits.max_parallel)
        gate = asyncio.Semaphore(width)
        merge = self.spec.nodes[node.merge]
        assert isinstance(merge, MergeNode)

        async def branch(key: str, item: Any) -> Any:
            async with gate:
                # Copied once its turn comes, so no branch sees another's writes.
                state = copy.deepcopy(line.state)
                state[node.as_name] = item
                label = f"{line.branch}/{node.id}[{key}]" if line.branch else f"{node.id}[{key}]"
                await self.run_line(_Line(state, label, stop_at=node.merge), node.body)
                return evaluate(merge.source, state)

        values = await self._gather(
            [branch(key, item) for key, item in zip(keys, items, strict=True)]
        )
        results = dict(zip(keys, values, strict=True))
        line.merges[node.merge] = results
        if node.output:
            assign(line.state, node.output, results)
        if entry.ok:
            entry.detail = f"{len(keys)} branch(es), at most {width} at a time"
        return [_Token(node.merge, token.iteration)]

    async def _gather(self, branches: list[Coroutine[Any, Any, Any]]) -> list[Any]:
        tasks: list[asyncio.Task[Any]] = []
        try:
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(branch) for branch in branches]
        except BaseExceptionGroup as failures:
            if self.stopped:
                raise _Stopped(self.stopped) from None
            raise failures.exceptions[0] from None  # a bug in a branch, not a tool failure
        return [task.result() for task in tasks]

    def _merge(self, node: MergeNode, line: _Line, entry: TraceEntry) -> None:
        results = line.merges.pop(node.id, {})
        if node.output:
            assign(line.state, node.output, combine(node.strategy, results))
        entry.detail = f"{node.strategy} of {len(results)} branch(es)"


async def run_workflow(
    workflow: WorkflowSpec | dict[str, Any] | str, state: dict[str, Any], ctx: RunContext
) -> RunOutcome:
    """Run `workflow` (a spec, a definition or a workflow slug) over `state`, which is
    updated in place (the workflow's own "state" fills in keys the caller left out)."""
    spec = await _spec(workflow)
    for key, value in spec.defaults.items():
        state.setdefault(key, copy.deepcopy(value))
    executor = _Executor(spec, ctx)
    try:
        async with asyncio.timeout(spec.limits.timeout_ms / 1000):
            await executor.run_line(_Line(state), spec.entry_node_id)
    except _Stopped:
        pass
    except TimeoutError:
        executor.stopped = f"timeout_ms reached (the run took over {spec.limits.timeout_ms} ms)"
    return RunOutcome(state, executor.trace, executor.steps, executor.stopped)


async def _spec(workflow: WorkflowSpec | dict[str, Any] | str) -> WorkflowSpec:
    if isinstance(workflow, WorkflowSpec):
        return workflow
    if isinstance(workflow, dict):
        return parse_workflow(workflow)
    return await database_sync_to_async(load_workflow)(workflow)
