"""Saving verified queries, keeping them checked, and the ones a question may use.

Saving checks the SQL (one read, known tables and columns, the database runs it) and embeds
the question. When the data source's registry version moves on, each query is checked again
against the new registry before it is used; one that no longer validates is marked stale
and left out until someone fixes it.
"""

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from django.contrib.auth.models import User
from django.db.models import Count, Max
from django.utils import timezone
from sqlglot import exp

from core.providers.embeddings import embed_texts, get_embedder
from registries.models import DataSource
from registries.services import SemanticLayer, load_semantic_layer
from sqlagent.linking.question import Word, read_words
from sqlagent.models import VerifiedQuery
from sqlagent.validation import parse_single_read
from sqlagent.verified.checks import VerifiedSqlError, check_runs, parse_verified

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class Known:
    """A usable verified query, read once per version of it and of the registry."""

    id: int
    question: str
    sql: str
    statement: exp.Expression
    words: tuple[Word, ...]
    vector: tuple[float, ...]
    derived: dict[str, Any] = field(default_factory=dict)  # read from it once, when needed


class Pool(list[Known]):
    """A data source's usable verified queries, with their question vectors as one matrix."""

    @cached_property
    def unit_vectors(self) -> np.ndarray:
        if not self:
            return np.zeros((0, 0))
        width = max(len(k.vector) for k in self)
        matrix = np.array([k.vector if len(k.vector) == width else [0.0] * width for k in self])
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1.0, norms)


def save_verified(
    source: DataSource,
    question: str,
    sql: str,
    *,
    url: str,
    agent: bool,
    confirmed_by: User | None = None,
    notes: str = "",
    tags: Iterable[str] = (),
    embed: bool = True,
) -> tuple[VerifiedQuery, bool]:
    """Check and store one pair (the same question on the same source is replaced).
    Raises VerifiedSqlError naming what is wrong; nothing is stored then. `embed=False`
    leaves the question's vector to a later `embed_missing` over many rows."""
    question = " ".join(question.split())
    if not question:
        raise VerifiedSqlError("the question is empty")
    layer = load_semantic_layer(source.name)
    statement = parse_verified(sql, layer)
    check_runs(statement, layer, url=url, agent=agent)
    row, created = VerifiedQuery.objects.update_or_create(
        data_source=source,
        question=question,
        defaults={
            "sql": sql.strip(),
            "confirmed_by": confirmed_by,
            "confirmed_at": timezone.now(),
            "notes": notes,
            "tags": list(tags),
            "stale": False,
            "stale_reason": "",
            "checked_version": layer.version,
        },
    )
    if embed:
        embed_missing([row])
    return row, created


def embed_missing(rows: Iterable[VerifiedQuery]) -> None:
    """Embed questions whose vector is missing or from another model, in one batch. With
    the embedding service out of reach they stay as they are (and unused) until it is back:
    the pairs themselves are kept."""
    model = get_embedder().name
    todo = [r for r in rows if not r.embedding or r.embedding_model != model]
    if not todo:
        return
    try:
        vectors = embed_texts([r.question for r in todo])
    except Exception as error:  # each embedding backend has its own errors
        log.warning("verified questions not embedded: %s", error)
        return
    for row, vector in zip(todo, vectors, strict=True):
        row.embedding, row.embedding_model = [round(v, 6) for v in vector], model
    VerifiedQuery.objects.bulk_update(todo, ["embedding", "embedding_model"])


def recheck(rows: Iterable[VerifiedQuery], layer: SemanticLayer) -> None:
    """Check rows last checked on another registry version; mark them stale or fresh."""
    changed = []
    for row in rows:
        if row.checked_version == layer.version:
            continue
        try:
            parse_verified(row.sql, layer)
            row.stale, row.stale_reason = False, ""
        except VerifiedSqlError as error:
            row.stale, row.stale_reason = True, str(error)
        row.checked_version = layer.version
        changed.append(row)
    VerifiedQuery.objects.bulk_update(changed, ["stale", "stale_reason", "checked_version"])


def recheck_source(layer: SemanticLayer) -> None:
    """Check the data source's queries that were last checked on another registry version."""
    rows = VerifiedQuery.objects.filter(data_source__name=layer.data_source)
    recheck(rows.exclude(checked_version=layer.version), layer)


_pool: dict[str, tuple[Any, Pool]] = {}
_lock = threading.Lock()


def usable(layer: SemanticLayer) -> Pool:
    """The data source's verified queries that validate on its registry as it is now."""
    cached = _pool.get(layer.data_source)
    if cached is not None and cached[0] == _stamp(layer):
        return cached[1]
    with _lock:
        everything = list(VerifiedQuery.objects.filter(data_source__name=layer.data_source))
        recheck(everything, layer)
        embed_missing([r for r in everything if not r.stale])
        known = Pool(
            Known(
                r.pk,
                r.question,
                r.sql,
                parse_single_read(r.sql, layer.dialect),  # validated by `recheck`
                read_words(r.question),
                tuple(r.embedding),
            )
            for r in everything
            if not r.stale and r.embedding_model == get_embedder().name
        )
        _pool[layer.data_source] = (_stamp(layer), known)  # after the rechecks' saves
    return known


def _stamp(layer: SemanticLayer) -> tuple[Any, ...]:
    rows = VerifiedQuery.objects.filter(data_source__name=layer.data_source)
    latest = rows.aggregate(latest=Max("updated_at"), count=Count("id"))
    return (layer.version, latest["latest"], latest["count"], get_embedder().name)
