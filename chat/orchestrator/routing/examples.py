"""The admin-editable example questions of each route, and how near a question is to them
(embedding similarity). Without rows in the table the shipped examples
(chat/route_examples.json) serve."""

import json
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.db.models import Count, Max, Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from chat.models import RouteExample
from chat.orchestrator.routing.decision import ROUTES, Evidence
from core.providers.embeddings import embed_texts

EXAMPLES_FILE = Path(__file__).resolve().parent.parent.parent / "route_examples.json"
NEAREST_EXAMPLES = 3  # per route, averaged


@dataclass(frozen=True)
class ExampleIndex:
    fingerprint: tuple[Any, ...]
    routes: tuple[str, ...]
    questions: tuple[str, ...]
    vectors: Any  # numpy array, one normalised row per question

    def nearest(self, vector: Any) -> dict[str, list[tuple[float, str]]]:
        """Per route, its NEAREST_EXAMPLES most similar examples (cosine, best first)."""
        similarities = self.vectors @ vector if len(self.questions) else np.zeros(0)
        found: dict[str, list[tuple[float, str]]] = {route: [] for route in ROUTES}
        for index in np.argsort(-similarities):
            route = self.routes[index]
            if route in found and len(found[route]) < NEAREST_EXAMPLES:
                found[route].append((float(similarities[index]), self.questions[index]))
        return found


_example_index: ExampleIndex | None = None
_example_checked = 0.0  # when the RouteExample rows were last compared with the index
_example_lock = threading.Lock()
# Another process's admin edit is seen within this many seconds; this process's at once.
EXAMPLES_RECHECK_SECONDS = 10.0


@receiver([post_save, post_delete], sender=RouteExample)
def _examples_changed(**kwargs: Any) -> None:
    global _example_checked
    _example_checked = 0.0


def shipped_examples(path: Path = EXAMPLES_FILE) -> list[tuple[str, str]]:
    """(route, question) pairs of chat/route_examples.json."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(route, q) for route, questions in data["examples"].items() for q in questions]


def example_index() -> ExampleIndex:
    """The example questions with their embeddings, built once per process and rebuilt
    when the RouteExample rows change: a save or delete in this process is seen at once;
    otherwise one small query, at most every EXAMPLES_RECHECK_SECONDS, compares the number
    of rows, of enabled rows and the latest edit time with the index's."""
    global _example_index, _example_checked
    cached = _example_index
    if cached is not None and time.monotonic() - _example_checked < EXAMPLES_RECHECK_SECONDS:
        return cached
    seen = RouteExample.objects.aggregate(
        rows=Count("id"), enabled=Count("id", filter=Q(enabled=True)), latest=Max("updated_at")
    )
    fingerprint = (seen["rows"], seen["enabled"], seen["latest"], settings.EMBEDDING_MODEL)
    _example_checked = time.monotonic()
    if cached is not None and cached.fingerprint == fingerprint:
        return cached
    with _example_lock:
        if _example_index is not None and _example_index.fingerprint == fingerprint:
            return _example_index
        if seen["rows"]:
            pairs = list(
                RouteExample.objects.filter(enabled=True)
                .order_by("route", "id")
                .values_list("route", "question")
            )
        else:
            pairs = shipped_examples()
        vectors = np.array(embed_texts([q for _, q in pairs]), dtype=np.float32)
        _example_index = ExampleIndex(
            fingerprint, tuple(r for r, _ in pairs), tuple(q for _, q in pairs),
            vectors.reshape(len(pairs), -1) if pairs else np.zeros((0, 1), dtype=np.float32),
        )  # fmt: skip
        return _example_index


def add_examples(embedding: "Future[list[float]]", evidence: Evidence) -> None:
    """Weighs each route by its example questions nearest to the question's embedding."""
    index = example_index()
    if not index.questions:
        return
    nearest = index.nearest(np.array(embedding.result(), dtype=np.float32))
    for route, found in nearest.items():
        if not found:
            continue
        similarity = sum(s for s, _ in found) / len(found)
        evidence.add(
            route, max(similarity, 0.0),
            f"near example questions ({similarity:.2f}): {found[0][1]!r}",
        )  # fmt: skip


def forget_examples() -> None:
    global _example_index
    with _example_lock:
        _example_index = None
