"""Indented text outlines: the compact way the catalogues below are written down."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Node:
    text: str
    children: list[Node] = field(default_factory=list)


def parse_outline(text: str) -> list[Node]:
    """Each non-blank line becomes a node; deeper-indented lines are its children."""
    roots: list[Node] = []
    stack: list[tuple[int, Node]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        node = Node(line.strip())
        while stack and stack[-1][0] >= depth:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(node)
        stack.append((depth, node))
    return roots


def fields(text: str, separator: str = ";") -> list[str]:
    return [part.strip() for part in text.split(separator)]


def names(text: str) -> list[str]:
    """The non-empty items of a comma-separated list."""
    return [name for name in fields(text, ",") if name]
