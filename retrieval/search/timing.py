"""Stage timings, in milliseconds, as searches and their traces report them."""

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """fn's value and how long it took."""
    started = time.perf_counter()
    value = fn()
    return value, ms_since(started)


def ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000
