"""Questions' vectors: embedded in batches and remembered.

A question is embedded by routing, by the search and by the answer writer in turn; the
model runs once. Questions asked at the same moment (fifty people pressing enter) share
one call of the model: one thread per process takes every question waiting and embeds them
together, which costs little more than one (the model's per-call overhead is Python, and
holds the interpreter lock; the arithmetic of a short question is small)."""

import os
import queue
import threading
from collections import OrderedDict
from concurrent.futures import Future

from .embeddings import embed_texts, get_embedder

REMEMBERED = 1024  # questions whose vectors a process keeps
BATCH = 32  # questions embedded in one call at most

Key = tuple[str, str]  # (model, text)


class _QueryVectors:
    def __init__(self) -> None:
        self.items: OrderedDict[Key, list[float]] = OrderedDict()
        self.waiting: dict[Key, Future[list[float]]] = {}  # asked, not yet embedded
        self.lock = threading.Lock()
        self.queue: queue.SimpleQueue[Key] = queue.SimpleQueue()
        self.pid = 0  # the process whose thread serves the queue (a fork has none)

    def submit(self, text: str) -> Future[list[float]]:
        key = (get_embedder().name, text)
        with self.lock:
            vector = self.items.get(key)
            if vector is not None:
                self.items.move_to_end(key)
                done: Future[list[float]] = Future()
                done.set_result(vector)
                return done
            if key in self.waiting:
                return self.waiting[key]
            future = self.waiting[key] = Future()
            if self.pid != os.getpid():
                self.pid = os.getpid()
                self.queue = queue.SimpleQueue()
                threading.Thread(target=self._serve, name="query-embed", daemon=True).start()
            self.queue.put(key)
        return future

    def _serve(self) -> None:
        line = self.queue
        while True:
            keys = [line.get()]
            while len(keys) < BATCH:
                try:
                    keys.append(line.get_nowait())
                except queue.Empty:
                    break
            try:
                vectors = embed_texts([text for _, text in keys])
            except BaseException as error:  # each caller sees the failure as its own
                with self.lock:
                    futures = [self.waiting.pop(key) for key in keys]
                for future in futures:
                    future.set_exception(error)
                continue
            with self.lock:
                futures = [self.waiting.pop(key) for key in keys]
                for key, vector in zip(keys, vectors, strict=True):
                    self.items[key] = vector
                while len(self.items) > REMEMBERED:
                    self.items.popitem(last=False)
            for future, vector in zip(futures, vectors, strict=True):
                future.set_result(vector)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_vectors = _QueryVectors()


def embed_query_soon(text: str) -> Future[list[float]]:
    """The question's vector, as a future: the caller goes on while the model runs."""
    return _vectors.submit(text)


def embed_query(text: str) -> list[float]:
    return _vectors.submit(text).result()


def forget_queries() -> None:
    _vectors.clear()
