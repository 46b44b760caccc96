"""What the orchestrator streams while it works. Every event is a JSON object whose
`event` key is one of EVENT_NAMES; the chat relays them unchanged over websockets and SSE."""

from dataclasses import dataclass, field
from typing import Any

EVENT_NAMES = (
    "route_decision",  # {route, confidence, reasons, mode}
    "tool_start",  # {tool, node, inputs}
    "tool_end",  # {tool, node, ok, ms, summary, degraded}
    "token",  # {channel: "final" | "thinking", content}
    "sources",  # {sources: [{file_name, file_path, section_path, score, snippet, url, ...}]}
    "table",  # {columns, rows, sql, row_count, join_path, chart}
    "complete",  # {answer: {...}, stats: {...}, trace: [...], route_decision: {...}}
    "error",  # {message, code}
)


@dataclass(frozen=True)
class Event:
    name: str
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.name not in EVENT_NAMES:
            raise ValueError(f"unknown event {self.name!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.name, **self.data}
