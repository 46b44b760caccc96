"""The executor on small workflows whose nodes call the `test_*` tools of engine_tools."""

import time
from typing import Any

import pytest

from chat.orchestrator.context import RunContext
from chat.orchestrator.executor import RunOutcome, run_workflow
from chat.orchestrator.nodes import STITCH_SEPARATOR, branch_keys, combine
from chat.orchestrator.workflow import parse_workflow

from . import engine_tools
from .conftest import EventLog

pytestmark = pytest.mark.usefixtures("engine_tool_calls")


def workflow(
    nodes: list[dict[str, Any]], edges: list[dict[str, Any]], **limits: int
) -> dict[str, Any]:
    return {
        "name": "test",
        "entry_node_id": nodes[0]["id"],
        "nodes": nodes,
        "edges": edges,
        "limits": {"max_steps": 100, "timeout_ms": 10_000, "max_iters": 3, "max_parallel": 4}
        | limits,
    }


def agent(node_id: str, tool: str, output: str | None = None, **inputs: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"id": node_id, "type": "agent", "tool": tool, "inputs": inputs}
    if output:
        node["output"] = output
    return node


def edge(source: str, target: str, condition: str | None = None) -> dict[str, Any]:
    return {"from": source, "to": target} | ({"condition": condition} if condition else {})


def ran(outcome: RunOutcome) -> list[str]:
    return [entry.node for entry in outcome.trace]


async def test_agent_maps_inputs_from_state_and_output_back(
    engine_ctx: RunContext, engine_events: EventLog
) -> None:
    spec = workflow(
        [
            agent("first", "test_echo", "echo.first", text="question", n={"value": 7},
                  nested="profile.name", missing="nothing.here"),
            agent("second", "test_echo", "echo.second", again="echo.first.text"),
        ],
        [edge("first", "second")],
    )  # fmt: skip
    state = {"question": "Who leads Atlas?", "profile": {"name": "Ada"}}
    outcome = await run_workflow(spec, state, engine_ctx)

    assert outcome.stopped_reason == ""
    assert outcome.state is state
    assert state["echo"] == {
        "first": {"text": "Who leads Atlas?", "n": 7, "nested": "Ada", "missing": None},
        "second": {"again": "Who leads Atlas?"},
    }
    assert outcome.steps == 2
    first = outcome.trace[0]
    assert (first.node, first.type, first.tool, first.ok, first.iteration, first.branch) == (
        "first", "agent", "test_echo", True, 0, ""
    )  # fmt: skip
    assert first.ms >= 0
    starts = engine_events.named("tool_start")
    assert [(e["tool"], e["node"]) for e in starts] == [
        ("test_echo", "first"),
        ("test_echo", "second"),
    ]
    assert starts[0]["inputs"]["text"] == "Who leads Atlas?"
    assert [e["ok"] for e in engine_events.named("tool_end")] == [True, True]


async def test_a_failed_tool_writes_ok_false_and_the_conditions_decide(
    engine_ctx: RunContext,
) -> None:
    spec = workflow(
        [
            agent("try", "test_fail", "attempt", q="question"),
            {"id": "check", "type": "conditional"},
            agent("fallback", "test_echo", "result", reason="attempt.error"),
            agent("use", "test_echo", "result", value="attempt"),
        ],
        [edge("try", "check"), edge("check", "fallback", "attempt.ok == false"),
         edge("check", "use")],
    )  # fmt: skip
    outcome = await run_workflow(spec, {"question": "q"}, engine_ctx)
    assert outcome.state["attempt"] == {"ok": False, "error": "the test tool refuses"}
    assert outcome.state["result"] == {"reason": "the test tool refuses"}
    assert ran(outcome) == ["try", "check", "fallback"]
    failed = outcome.trace[0]
    assert (failed.ok, failed.detail) == (False, "the test tool refuses")
    assert outcome.trace[1].detail == "-> fallback"


async def test_an_unexpected_tool_error_leaks_no_detail(engine_ctx: RunContext) -> None:
    spec = workflow([agent("boom", "test_crash", "boom")], [])
    outcome = await run_workflow(spec, {}, engine_ctx)
    assert outcome.state["boom"] == {"ok": False, "error": "test_crash failed"}
    assert "internal detail" not in repr(outcome.trace)


async def test_a_tool_that_outlives_its_timeout_fails_and_the_run_goes_on(
    engine_ctx: RunContext,
) -> None:
    spec = workflow(
        [agent("wait", "test_sleepy", "woke", seconds={"value": 2}),
         agent("next", "test_echo", "after", seen="woke.error")],
        [edge("wait", "next")],
    )  # fmt: skip
    started = time.perf_counter()
    outcome = await run_workflow(spec, {}, engine_ctx)
    assert time.perf_counter() - started < 1.5
    assert outcome.state["woke"] == {"ok": False, "error": "test_sleepy took longer than 0.3 s"}
    assert outcome.state["after"] == {"seen": "test_sleepy took longer than 0.3 s"}
    assert outcome.stopped_reason == ""


@pytest.mark.parametrize(
    ("score", "taken"),
    [(0.9, "high"), (0.5, "middle"), (0.1, "fallback"), (None, "fallback")],
)
async def test_a_conditional_takes_the_first_edge_that_holds_else_its_default(
    engine_ctx: RunContext, score: float | None, taken: str
) -> None:
    spec = workflow(
        [
            {"id": "choose", "type": "conditional"},
            agent("high", "test_echo", "took", name={"value": "high"}),
            agent("middle", "test_echo", "took", name={"value": "middle"}),
            agent("fallback", "test_echo", "took", name={"value": "fallback"}),
        ],
        # The default edge comes first and still only counts when no condition holds;
        # both conditions hold for 0.9 and the first one listed wins.
        [edge("choose", "fallback"), edge("choose", "high", "score >= 0.8"),
         edge("choose", "middle", "score >= 0.3")],
    )  # fmt: skip
    outcome = await run_workflow(spec, {"score": score}, engine_ctx)
    assert ran(outcome) == ["choose", taken]
    assert outcome.state["took"] == {"name": taken}


async def test_a_conditional_without_a_matching_edge_ends_its_path(engine_ctx: RunContext) -> None:
    spec = workflow(
        [{"id": "choose", "type": "conditional"}, agent("never", "test_echo", "x")],
        [edge("choose", "never", "flag == true")],
    )
    outcome = await run_workflow(spec, {"flag": False}, engine_ctx)
    assert ran(outcome) == ["choose"]
    assert outcome.trace[0].detail == "no edge holds; this path ends"
    assert engine_tools.calls("test_echo") == []


async def test_other_nodes_follow_every_edge_that_holds(engine_ctx: RunContext) -> None:
    spec = workflow(
        [
            agent("start", "test_echo", "start"),
            agent("a", "test_echo", "a", name={"value": "a"}),
            agent("b", "test_echo", "b", name={"value": "b"}),
            agent("c", "test_echo", "c", name={"value": "c"}),
        ],
        [edge("start", "a"), edge("start", "b", "go_b"), edge("start", "c", "go_c")],
    )
    outcome = await run_workflow(spec, {"go_b": True, "go_c": False}, engine_ctx)
    assert ran(outcome) == ["start", "a", "b"]
    assert "c" not in outcome.state


async def test_a_cycle_of_edges_runs_until_its_condition_changes(engine_ctx: RunContext) -> None:
    spec = workflow(
        [agent("bump", "test_add", "counter", value="counter.value"),
         {"id": "again", "type": "conditional"}],
        [edge("bump", "again"), edge("again", "bump", "counter.value < 4")],
    )  # fmt: skip
    outcome = await run_workflow(spec, {}, engine_ctx)
    assert outcome.state["counter"] == {"value": 4}
    assert [c["value"] for c in engine_tools.calls("test_add")] == [None, 1, 2, 3]
    assert outcome.steps == 8


def loop_workflow(until: str, **loop: Any) -> dict[str, Any]:
    return workflow(
        [
            {"id": "review", "type": "loop", "body": "draft", "until": until} | loop,
            agent("draft", "test_add", "drafts", value="drafts.value"),
            agent("done", "test_echo", "final", value="drafts.value"),
        ],
        [edge("draft", "review"), edge("review", "done")],
        max_iters=3,
    )


async def test_a_loop_repeats_its_body_until_the_condition_holds(engine_ctx: RunContext) -> None:
    outcome = await run_workflow(loop_workflow("drafts.value >= 2"), {}, engine_ctx)
    assert outcome.state["final"] == {"value": 2}
    assert ran(outcome) == ["review", "draft", "review", "draft", "review", "done"]
    assert [e.iteration for e in outcome.trace] == [0, 1, 1, 2, 2, 0]
    assert [e.detail for e in outcome.trace if e.node == "review"] == [
        "pass 1 of at most 3",
        "pass 2 of at most 3",
        "done after 2 pass(es): until holds",
    ]


async def test_a_loop_runs_its_body_once_even_when_the_condition_already_holds(
    engine_ctx: RunContext,
) -> None:
    outcome = await run_workflow(loop_workflow("true"), {}, engine_ctx)
    assert ran(outcome) == ["review", "draft", "review", "done"]


async def test_a_loop_stops_at_max_iters(engine_ctx: RunContext) -> None:
    outcome = await run_workflow(loop_workflow("false", max_iters=2), {}, engine_ctx)
    assert len(engine_tools.calls("test_add")) == 2
    assert outcome.state["final"] == {"value": 2}
    assert outcome.trace[-2].detail == "done after 2 passes: max_iters reached"
    assert outcome.stopped_reason == ""


async def test_a_loop_without_its_own_max_iters_stops_at_the_workflow_limit(
    engine_ctx: RunContext,
) -> None:
    await run_workflow(loop_workflow("false"), {}, engine_ctx)
    assert len(engine_tools.calls("test_add")) == 3


def fanout_workflow(strategy: str = "collect", source: str = "work", **limits: int) -> dict:
    return workflow(
        [
            agent("prepare", "test_echo", "shared", note={"value": "before"}),
            {"id": "spread", "type": "fanout", "items": "angles", "as": "angle",
             "body": "work", "merge": "join", "output": "per_angle"},
            agent("work", "test_append", "work", items="trail", item="angle"),
            agent("mark", "test_echo", "shared", note="angle"),
            {"id": "join", "type": "merge", "strategy": strategy, "from": source,
             "output": "joined"},
            agent("after", "test_echo", "after", shared="shared.note", angle="angle"),
        ],
        [edge("prepare", "spread"), edge("work", "mark"), edge("mark", "join"),
         edge("join", "after")],
        **limits,
    )  # fmt: skip


async def test_fanout_branches_run_on_isolated_copies_of_the_state(
    engine_ctx: RunContext,
) -> None:
    state = {"angles": ["summary", "details", "risks"], "trail": ["start"]}
    outcome = await run_workflow(fanout_workflow(), state, engine_ctx)

    expected = {
        "summary": {"items": ["start", "summary"]},
        "details": {"items": ["start", "details"]},
        "risks": {"items": ["start", "risks"]},
    }
    assert state["per_angle"] == expected
    assert state["joined"] == expected
    # What a branch wrote stays in its branch: the parent keeps its own values, and no
    # branch saw another branch's trail.
    assert state["trail"] == ["start"]
    assert state["shared"] == {"note": "before"}
    assert "angle" not in state and "work" not in state
    assert state["after"] == {"shared": "before", "angle": None}
    branches = [(e.node, e.branch) for e in outcome.trace if e.branch]
    assert sorted(branches) == sorted(
        (node, f"spread[{angle}]") for node in ("work", "mark") for angle in expected
    )
    entries = {e.node: e for e in outcome.trace if not e.branch}
    assert entries["spread"].detail == "3 branch(es), at most 4 at a time"
    assert entries["join"].detail == "collect of 3 branch(es)"
    assert ran(outcome)[0:2] == ["prepare", "spread"] and ran(outcome)[-2:] == ["join", "after"]
    assert outcome.steps == 1 + 1 + 6 + 1 + 1


async def test_fanout_runs_branches_in_parallel_within_max_parallel(
    engine_ctx: RunContext,
) -> None:
    def spec(width: int) -> dict[str, Any]:
        return workflow(
            [
                {"id": "spread", "type": "fanout", "items": "items", "as": "item",
                 "body": "nap", "merge": "join", "output": "naps"},
                agent("nap", "test_slow", "nap", seconds={"value": 0.2}, item="item"),
                {"id": "join", "type": "merge", "strategy": "concat", "from": "[nap.item]",
                 "output": "order"},
            ],
            [edge("nap", "join")],
            max_parallel=width,
        )  # fmt: skip

    started = time.perf_counter()
    outcome = await run_workflow(spec(2), {"items": [1, 2, 3, 4]}, engine_ctx)
    elapsed = time.perf_counter() - started
    assert engine_tools.PEAK["running"] == 2
    assert outcome.state["order"] == [1, 2, 3, 4]  # item order, whatever finished first
    assert 0.35 < elapsed < 1.5  # two rounds of two, not four rounds of one

    engine_tools.reset()
    await run_workflow(spec(1), {"items": [1, 2, 3]}, engine_ctx)
    assert engine_tools.PEAK["running"] == 1


async def test_fanout_over_something_that_is_not_a_list_runs_no_branch(
    engine_ctx: RunContext,
) -> None:
    outcome = await run_workflow(fanout_workflow(), {"angles": "summary"}, engine_ctx)
    spread = next(e for e in outcome.trace if e.node == "spread")
    assert (spread.ok, spread.detail) == (False, "items (angles) is not a list; no branches")
    assert outcome.state["joined"] == {}
    assert ran(outcome) == ["prepare", "spread", "join", "after"]


async def test_nested_fanouts_name_their_branches(engine_ctx: RunContext) -> None:
    spec = workflow(
        [
            {"id": "outer", "type": "fanout", "items": "letters", "as": "letter",
             "body": "inner", "merge": "outer_join"},
            {"id": "inner", "type": "fanout", "items": "numbers", "as": "number",
             "body": "pair", "merge": "inner_join"},
            agent("pair", "test_echo", "pair", letter="letter", number="number"),
            {"id": "inner_join", "type": "merge", "strategy": "concat", "from": "[pair]",
             "output": "pairs"},
            {"id": "outer_join", "type": "merge", "strategy": "concat", "from": "pairs",
             "output": "pairs"},
        ],
        [edge("pair", "inner_join"), edge("inner_join", "outer_join")],
    )  # fmt: skip
    outcome = await run_workflow(spec, {"letters": ["a", "b"], "numbers": [1, 2]}, engine_ctx)
    assert outcome.state["pairs"] == [
        {"letter": "a", "number": 1}, {"letter": "a", "number": 2},
        {"letter": "b", "number": 1}, {"letter": "b", "number": 2},
    ]  # fmt: skip
    pair_branches = sorted(e.branch for e in outcome.trace if e.node == "pair")
    assert pair_branches == [
        "outer[a]/inner[1]", "outer[a]/inner[2]", "outer[b]/inner[1]", "outer[b]/inner[2]"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("strategy", "source", "expected"),
    [
        ("collect", "work.items[1]", {"summary": "summary", "details": "details"}),
        ("stitch", "shared.note", f"summary{STITCH_SEPARATOR}details"),
        ("concat", "work.items", ["start", "summary", "start", "details"]),
        ("first_ok", "work", {"items": ["start", "summary"]}),
    ],
)
async def test_merge_strategies_in_a_run(
    engine_ctx: RunContext, strategy: str, source: str, expected: Any
) -> None:
    state = {"angles": ["summary", "details"], "trail": ["start"]}
    outcome = await run_workflow(fanout_workflow(strategy, source), state, engine_ctx)
    assert outcome.state["joined"] == expected


def test_merge_strategies_on_awkward_results() -> None:
    results = {
        "a": {"ok": False, "error": "down"},
        "b": None,
        "c": {"markdown": "## C\n\ntext c "},
        "d": "plain d",
        "e": [1, 2],
        "f": "",
    }
    assert combine("collect", results) == results
    assert combine("stitch", results) == f"## C\n\ntext c{STITCH_SEPARATOR}plain d"
    assert combine("concat", results) == [
        {"ok": False, "error": "down"}, {"markdown": "## C\n\ntext c "}, "plain d", 1, 2, ""
    ]  # fmt: skip
    assert combine("first_ok", results) == {"markdown": "## C\n\ntext c "}
    assert combine("first_ok", {"a": None, "b": {"error": "x"}}) is None
    assert combine("stitch", {}) == ""
    with pytest.raises(ValueError, match="unknown merge strategy"):
        combine("zip", results)


def test_branch_keys_are_unique_and_readable() -> None:
    items = ["summary", "summary", 3, {"id": "x"}, {"name": "n"}, {"other": 1}, None, True]
    assert branch_keys(items) == ["summary", "summary#2", "3", "x", "n", "5", "6", "7"]


async def test_max_steps_stops_the_run_and_says_so(engine_ctx: RunContext) -> None:
    spec = workflow(
        [agent("bump", "test_add", "counter", value="counter.value"),
         {"id": "again", "type": "conditional"}],
        [edge("bump", "again"), edge("again", "bump", "true")],
        max_steps=7,
    )  # fmt: skip
    outcome = await run_workflow(spec, {}, engine_ctx)
    assert outcome.steps == 7
    assert outcome.stopped_reason == "max_steps reached (7 node runs)"
    assert outcome.state["counter"] == {"value": 4}
    assert len(outcome.trace) == 7


async def test_max_steps_counts_every_branch(engine_ctx: RunContext) -> None:
    outcome = await run_workflow(
        fanout_workflow(max_steps=5), {"angles": ["a", "b", "c"], "trail": []}, engine_ctx
    )
    assert outcome.steps == 5
    assert outcome.stopped_reason == "max_steps reached (5 node runs)"
    assert "joined" not in outcome.state  # the merge never ran
    spread = next(e for e in outcome.trace if e.node == "spread")
    assert (spread.ok, spread.detail) == (False, "interrupted")


async def test_timeout_ms_stops_the_whole_run(engine_ctx: RunContext) -> None:
    spec = workflow(
        [agent("first", "test_echo", "first"),
         agent("nap", "test_slow", "nap", seconds={"value": 1.0}),
         agent("never", "test_echo", "never")],
        [edge("first", "nap"), edge("nap", "never")],
        timeout_ms=300,
    )  # fmt: skip
    started = time.perf_counter()
    outcome = await run_workflow(spec, {}, engine_ctx)
    assert time.perf_counter() - started < 0.9
    assert outcome.stopped_reason == "timeout_ms reached (the run took over 300 ms)"
    assert "first" in outcome.state and "never" not in outcome.state
    nap = outcome.trace[-1]
    assert (nap.node, nap.ok, nap.detail) == ("nap", False, "interrupted")


async def test_state_defaults_fill_in_what_the_caller_left_out(engine_ctx: RunContext) -> None:
    spec = workflow([agent("show", "test_echo", "shown", a="a", b="b")], [])
    spec["state"] = {"a": "default a", "b": {"nested": True}}
    outcome = await run_workflow(spec, {"a": "caller a"}, engine_ctx)
    assert outcome.state["shown"] == {"a": "caller a", "b": {"nested": True}}
    again = await run_workflow(parse_workflow(spec), {}, engine_ctx)
    assert again.state["shown"] == {"a": "default a", "b": {"nested": True}}
