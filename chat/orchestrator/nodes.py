"""What the executor does inside one node, apart from scheduling: read a node's inputs from
the state, name fanout branches, choose edges and combine branch results at a merge."""

from collections.abc import Mapping, Sequence
from typing import Any

from chat.orchestrator.conditions import compile_condition
from chat.orchestrator.workflow import ConditionalNode, Edge, Input, Node

STITCH_SEPARATOR = "\n\n---\n\n"


def read_inputs(inputs: Mapping[str, Input], state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        name: item.value if item.expression is None else evaluate(item.expression, state)
        for name, item in inputs.items()
    }


def evaluate(expression: str, state: Mapping[str, Any]) -> Any:
    return compile_condition(expression).evaluate(state)


def holds(expression: str, state: Mapping[str, Any]) -> bool:
    return compile_condition(expression).holds(state)


def next_nodes(node: Node, edges: Sequence[Edge], state: Mapping[str, Any]) -> list[str]:
    """A conditional follows its first edge whose condition holds, else its default edge
    (the one without a condition); any other node follows every edge whose condition
    holds or that has none."""
    if isinstance(node, ConditionalNode):
        for edge in edges:
            if edge.condition is not None and holds(edge.condition, state):
                return [edge.target]
        return [edge.target for edge in edges if edge.condition is None][:1]
    return [edge.target for edge in edges if edge.condition is None or holds(edge.condition, state)]


def branch_keys(items: Sequence[Any]) -> list[str]:
    """One key per fanout item: the item itself when it is a string or a number, its `id`
    or `name` when it is an object that has one, else its position; repeats get `#n`."""
    keys: list[str] = []
    for index, item in enumerate(items):
        if isinstance(item, str | int | float) and not isinstance(item, bool):
            key = str(item)
        elif isinstance(item, dict) and isinstance(item.get("id") or item.get("name"), str):
            key = item.get("id") or item["name"]
        else:
            key = str(index)
        candidate, repeat = key, 2
        while candidate in keys:
            candidate, repeat = f"{key}#{repeat}", repeat + 1
        keys.append(candidate)
    return keys


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dict):
        for key in ("markdown", "content", "text"):
            if isinstance(value.get(key), str):
                return str(value[key]).strip()
    return ""


def _ok(value: Any) -> bool:
    if value is None or value == "" or value == [] or value == {}:
        return False
    return not (isinstance(value, dict) and (value.get("ok") is False or value.get("error")))


def combine(strategy: str, results: Mapping[str, Any]) -> Any:
    """Branch results (key -> value, in item order) combined by a merge strategy:
    collect  -> the dict itself;
    stitch   -> the branches' markdown (a string, or a dict's markdown/content/text)
                joined by horizontal rules, empty ones left out;
    concat   -> one list of every branch's list items (a non-list value is one item,
                None is nothing);
    first_ok -> the first value that is not empty and not a failure ({"ok": false} or
                with an "error"), else None."""
    values = list(results.values())
    if strategy == "collect":
        return dict(results)
    if strategy == "stitch":
        return STITCH_SEPARATOR.join(text for text in map(_text, values) if text)
    if strategy == "concat":
        joined: list[Any] = []
        for value in values:
            if isinstance(value, list):
                joined.extend(value)
            elif value is not None:
                joined.append(value)
        return joined
    if strategy == "first_ok":
        return next((value for value in values if _ok(value)), None)
    raise ValueError(f"unknown merge strategy {strategy!r}")
