"""Workflow definitions: a JSON graph parsed and validated into frozen dataclasses.

`validate_workflow(data)` lists every problem at once (the admin shows them all);
`parse_workflow(data)` returns a WorkflowSpec or raises WorkflowError with that list;
`load_workflow(slug)` reads the enabled Workflow row, else `chat/workflows/<slug>.json`.
The format is documented in docs/orchestrator.md, "Workflows".
"""

import json
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from chat.orchestrator.conditions import (
    CONSTANTS,
    KEYWORDS,
    STATE_ROOT,
    ConditionError,
    compile_condition,
    parse_target,
)

WORKFLOWS_DIR = Path(__file__).resolve().parent.parent / "workflows"
NODE_TYPES = ("agent", "conditional", "fanout", "loop", "merge")
MERGE_STRATEGIES = ("collect", "stitch", "concat", "first_ok")
# name: (default, smallest, largest)
LIMIT_RANGES: dict[str, tuple[int, int, int]] = {
    "max_steps": (100, 1, 10_000),
    "timeout_ms": (120_000, 100, 3_600_000),
    "max_iters": (3, 1, 100),
    "max_parallel": (4, 1, 64),
}
RESERVED_NAMES = KEYWORDS | set(CONSTANTS) | {STATE_ROOT}
_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,99}")
_SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")


class WorkflowError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class WorkflowNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Limits:
    max_steps: int = LIMIT_RANGES["max_steps"][0]
    timeout_ms: int = LIMIT_RANGES["timeout_ms"][0]
    max_iters: int = LIMIT_RANGES["max_iters"][0]
    max_parallel: int = LIMIT_RANGES["max_parallel"][0]


@dataclass(frozen=True)
class Input:
    """A tool parameter: an expression over the state, or a literal (`{"value": ...}`)."""

    expression: str | None = None
    value: Any = None


@dataclass(frozen=True)
class AgentNode:
    id: str
    tool: str
    inputs: Mapping[str, Input] = field(default_factory=dict)
    output: tuple[str, ...] = ()  # empty: the output is not kept
    description: str = ""
    type: str = "agent"


@dataclass(frozen=True)
class ConditionalNode:
    id: str
    description: str = ""
    type: str = "conditional"


@dataclass(frozen=True)
class FanoutNode:
    id: str
    items: str  # expression giving a list
    as_name: str  # the state key each branch finds its item under
    body: str
    merge: str
    output: tuple[str, ...] = ()  # per-item branch results, {key: value}
    max_parallel: int | None = None
    description: str = ""
    type: str = "fanout"


@dataclass(frozen=True)
class LoopNode:
    id: str
    body: str
    until: str
    max_iters: int | None = None
    description: str = ""
    type: str = "loop"


@dataclass(frozen=True)
class MergeNode:
    id: str
    strategy: str
    source: str  # expression read in each branch's state ("from" in JSON)
    output: tuple[str, ...] = ()
    description: str = ""
    type: str = "merge"


Node = AgentNode | ConditionalNode | FanoutNode | LoopNode | MergeNode


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    condition: str | None = None


@dataclass(frozen=True)
class WorkflowSpec:
    name: str
    entry_node_id: str
    nodes: Mapping[str, Node]
    edges: tuple[Edge, ...]
    limits: Limits = Limits()
    description: str = ""
    defaults: Mapping[str, Any] = field(default_factory=dict)  # initial state ("state")

    def outgoing(self, node_id: str) -> tuple[Edge, ...]:
        return tuple(edge for edge in self.edges if edge.source == node_id)


_TOP_KEYS = {"name", "description", "entry_node_id", "nodes", "edges", "limits", "state"}
_NODE_KEYS = {
    "agent": {"tool", "inputs", "output"},
    "conditional": set(),
    "fanout": {"items", "as", "body", "merge", "output", "max_parallel"},
    "loop": {"body", "until", "max_iters"},
    "merge": {"strategy", "from", "output"},
}
_EDGE_KEYS = {"from", "to", "condition"}


class _Checker:
    """Collects problems while building the spec; the spec is used only when none."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def text(self, where: str, value: Any, *, required: bool = True) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.problem(f"{where}: expected a non-empty string")
            return ""
        return value

    def expression(self, where: str, value: Any) -> str:
        text = self.text(where, value)
        if text:
            try:
                compile_condition(text)
            except ConditionError as error:
                self.problem(f"{where}: {error}")
        return text

    def target(self, where: str, value: Any) -> tuple[str, ...]:
        if value is None:
            return ()
        try:
            return parse_target(value)
        except ConditionError as error:
            self.problem(f"{where}: {error}")
            return ()

    def integer(self, where: str, value: Any, low: int, high: int) -> int | None:
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.problem(f"{where}: expected a whole number from {low} to {high}, got {value!r}")
            return None
        return value

    def unknown_keys(self, where: str, data: Mapping[str, Any], allowed: set[str]) -> None:
        extra = sorted(set(data) - allowed)
        if extra:
            self.problem(f"{where}: unknown keys {', '.join(extra)}")


def _limits(check: _Checker, data: Any) -> Limits:
    if data is None:
        return Limits()
    if not isinstance(data, dict):
        check.problem("limits: expected an object")
        return Limits()
    check.unknown_keys("limits", data, set(LIMIT_RANGES))
    values: dict[str, int] = {}
    for name, (_default, low, high) in LIMIT_RANGES.items():
        value = check.integer(f"limits.{name}", data.get(name), low, high)
        if value is not None:
            values[name] = value
    return Limits(**values)


def _inputs(check: _Checker, where: str, data: Any) -> dict[str, Input]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        check.problem(f"{where}.inputs: expected an object")
        return {}
    inputs: dict[str, Input] = {}
    for name, value in data.items():
        if isinstance(value, dict) and set(value) == {"value"}:
            inputs[name] = Input(value=value["value"])
        elif isinstance(value, str):
            inputs[name] = Input(expression=check.expression(f"{where}.inputs.{name}", value))
        else:
            check.problem(f'{where}.inputs.{name}: expected a state path or {{"value": literal}}')
    return inputs


def _node(check: _Checker, index: int, data: Any, limits: Limits) -> Node | None:
    if not isinstance(data, dict):
        check.problem(f"nodes[{index}]: expected an object")
        return None
    node_id = data.get("id")
    if not isinstance(node_id, str) or not _ID.fullmatch(node_id):
        check.problem(f"nodes[{index}]: id must be a name (letters, digits, - and _)")
        return None
    where = f"node {node_id}"
    kind = data.get("type")
    if kind not in NODE_TYPES:
        check.problem(f"{where}: unknown type {kind!r} (known: {', '.join(NODE_TYPES)})")
        return None
    check.unknown_keys(where, data, {"id", "type", "description"} | _NODE_KEYS[kind])
    description = check.text(f"{where}.description", data.get("description"), required=False)
    if kind == "agent":
        tool = check.text(f"{where}.tool", data.get("tool"))
        if tool:
            _check_tool(check, where, tool)
        return AgentNode(
            node_id,
            tool,
            MappingProxyType(_inputs(check, where, data.get("inputs"))),
            check.target(f"{where}.output", data.get("output")),
            description,
        )
    if kind == "conditional":
        return ConditionalNode(node_id, description)
    if kind == "fanout":
        as_name = check.text(f"{where}.as", data.get("as"))
        if as_name and (
            not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", as_name) or as_name in RESERVED_NAMES
        ):
            check.problem(f"{where}.as: expected a state key name, got {as_name!r}")
        return FanoutNode(
            node_id,
            check.expression(f"{where}.items", data.get("items")),
            as_name,
            check.text(f"{where}.body", data.get("body")),
            check.text(f"{where}.merge", data.get("merge")),
            check.target(f"{where}.output", data.get("output")),
            check.integer(f"{where}.max_parallel", data.get("max_parallel"), 1,
                          limits.max_parallel),
            description,
        )  # fmt: skip
    if kind == "loop":
        return LoopNode(
            node_id,
            check.text(f"{where}.body", data.get("body")),
            check.expression(f"{where}.until", data.get("until")),
            check.integer(f"{where}.max_iters", data.get("max_iters"), 1, limits.max_iters),
            description,
        )
    strategy = data.get("strategy")
    if strategy not in MERGE_STRATEGIES:
        check.problem(
            f"{where}.strategy: unknown {strategy!r} (known: {', '.join(MERGE_STRATEGIES)})"
        )
    return MergeNode(
        node_id,
        strategy if isinstance(strategy, str) else "",
        check.expression(f"{where}.from", data.get("from")),
        check.target(f"{where}.output", data.get("output")),
        description,
    )


def _check_tool(check: _Checker, where: str, tool: str) -> None:
    from chat.orchestrator.tools.runner import get_tool

    try:
        get_tool(tool)
    except KeyError as error:
        check.problem(f"{where}.tool: {error.args[0]}")


def _edges(check: _Checker, data: Any, node_ids: set[str]) -> list[Edge]:
    if not isinstance(data, list):
        check.problem("edges: expected a list")
        return []
    edges: list[Edge] = []
    for index, item in enumerate(data):
        where = f"edges[{index}]"
        if not isinstance(item, dict):
            check.problem(f"{where}: expected an object")
            continue
        check.unknown_keys(where, item, _EDGE_KEYS)
        source = check.text(f"{where}.from", item.get("from"))
        target = check.text(f"{where}.to", item.get("to"))
        for end, name in (("from", source), ("to", target)):
            if name and name not in node_ids:
                check.problem(f"{where}.{end}: unknown node {name!r}")
        condition = None
        if item.get("condition") is not None:
            condition = check.expression(f"{where}.condition", item["condition"])
        edges.append(Edge(source, target, condition))
    return edges


def _check_links(check: _Checker, nodes: dict[str, Node], edges: list[Edge]) -> None:
    """What a node names must exist and be of the right type; the graph's shape must let
    the executor do what each node type promises."""
    for node in nodes.values():
        if isinstance(node, FanoutNode | LoopNode) and node.body and node.body not in nodes:
            check.problem(f"node {node.id}.body: unknown node {node.body!r}")
        merge_node = nodes.get(node.merge) if isinstance(node, FanoutNode) else None
        if isinstance(node, FanoutNode) and node.merge and not isinstance(merge_node, MergeNode):
            check.problem(f"node {node.id}.merge: {node.merge!r} is not a merge node")
        outgoing = [edge for edge in edges if edge.source == node.id]
        if isinstance(node, FanoutNode) and outgoing:
            check.problem(
                f"node {node.id}: a fanout has no edges of its own; its branches start at "
                "its body and the run continues after its merge"
            )
        if isinstance(node, ConditionalNode):
            if not outgoing:
                check.problem(f"node {node.id}: a conditional needs outgoing edges")
            if sum(edge.condition is None for edge in outgoing) > 1:
                check.problem(f"node {node.id}: a conditional has at most one default edge")
    merges = [node.merge for node in nodes.values() if isinstance(node, FanoutNode)]
    for node in nodes.values():
        if isinstance(node, MergeNode) and merges.count(node.id) != 1:
            check.problem(f"node {node.id}: a merge must close exactly one fanout")


def successors(node: Node, edges: list[Edge] | tuple[Edge, ...]) -> list[str]:
    """Every node a run may go to from `node`, implicit links included."""
    found = [edge.target for edge in edges if edge.source == node.id]
    if isinstance(node, FanoutNode):
        found += [node.body, node.merge]
    if isinstance(node, LoopNode):
        found.append(node.body)
    return found


def _check_reachable(
    check: _Checker, entry: str, nodes: dict[str, Node], edges: list[Edge]
) -> None:
    seen = {entry}
    queue = deque([entry])
    while queue:
        for target in successors(nodes[queue.popleft()], edges):
            if target in nodes and target not in seen:
                seen.add(target)
                queue.append(target)
    for node_id in nodes:
        if node_id not in seen:
            check.problem(f"node {node_id}: unreachable from the entry node {entry!r}")


def _build(data: Any) -> tuple[WorkflowSpec | None, list[str]]:
    check = _Checker()
    if not isinstance(data, dict):
        return None, ["a workflow is a JSON object"]
    check.unknown_keys("workflow", data, _TOP_KEYS)
    name = check.text("name", data.get("name"))
    description = check.text("description", data.get("description"), required=False)
    limits = _limits(check, data.get("limits"))
    defaults = data.get("state", {})
    if not isinstance(defaults, dict):
        check.problem("state: expected an object (the initial state)")
        defaults = {}
    raw_nodes = data.get("nodes")
    if not isinstance(raw_nodes, list) or not raw_nodes:
        check.problem("nodes: expected a non-empty list")
        raw_nodes = []
    nodes: dict[str, Node] = {}
    for index, raw in enumerate(raw_nodes):
        node = _node(check, index, raw, limits)
        if node is None:
            continue
        if node.id in nodes:
            check.problem(f"node {node.id}: duplicate id")
        nodes[node.id] = node
    # Ids of nodes that failed to parse still count as known, so one bad node does not
    # also report every edge that touches it.
    known = set(nodes) | {
        raw["id"] for raw in raw_nodes if isinstance(raw, dict) and isinstance(raw.get("id"), str)
    }
    edges = _edges(check, data.get("edges", []), known)
    entry = check.text("entry_node_id", data.get("entry_node_id"))
    if entry and entry not in known:
        check.problem(f"entry_node_id: unknown node {entry!r}")
    _check_links(check, nodes, edges)
    if entry in nodes and len(nodes) == len(known):
        _check_reachable(check, entry, nodes, edges)
    if check.problems:
        return None, check.problems
    spec = WorkflowSpec(
        name=name,
        entry_node_id=entry,
        nodes=MappingProxyType(nodes),
        edges=tuple(edges),
        limits=limits,
        description=description,
        defaults=MappingProxyType(defaults),
    )
    return spec, []


def validate_workflow(data: Any) -> list[str]:
    """Every problem of a definition; empty when it is valid."""
    return _build(data)[1]


def parse_workflow(data: Any) -> WorkflowSpec:
    spec, problems = _build(data)
    if spec is None:
        raise WorkflowError(problems)
    return spec


def workflow_file(slug: str) -> Path:
    if not _SLUG.fullmatch(slug):
        raise WorkflowNotFound(f"{slug!r} is not a workflow name")
    return WORKFLOWS_DIR / f"{slug}.json"


def read_workflow_file(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise WorkflowError([f"{path.name}: not valid JSON ({error})"]) from error
    if not isinstance(data, dict):
        raise WorkflowError([f"{path.name}: a workflow is a JSON object"])
    return data


def load_workflow(slug: str) -> WorkflowSpec:
    """The enabled Workflow row named `slug`, else the shipped file. Synchronous (it reads
    the database): call it through a thread from async code."""
    from chat.models import Workflow

    row = Workflow.objects.filter(slug=slug, enabled=True).only("definition").first()
    if row is not None:
        return parse_workflow(row.definition)
    path = workflow_file(slug)
    if not path.is_file():
        raise WorkflowNotFound(f"no enabled workflow {slug!r} and no file {path.name}")
    return parse_workflow(read_workflow_file(path))
