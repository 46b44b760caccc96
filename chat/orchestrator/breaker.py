"""A circuit breaker per tool whose state lives in Redis, so every worker process shares it:
after `ORCHESTRATOR_BREAKER_FAILURES` consecutive failures the circuit opens for
`ORCHESTRATOR_BREAKER_OPEN_SECONDS`; the first call after that is a trial (half-open).

Keys (under ORCHESTRATOR_BREAKER_PREFIX:<tool>): `failures` counts consecutive failures,
`open` lives while the circuit is open, `tripped` remembers that it opened and has not
succeeded since (so the circuit is half-open once `open` expires), and `trial` is held by
the one caller, in any process, whose call is the trial."""

import contextlib
from dataclasses import dataclass
from functools import lru_cache

import redis
from django.conf import settings


@lru_cache(maxsize=1)
def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


@dataclass(frozen=True)
class CircuitBreaker:
    tool: str

    def _key(self, name: str) -> str:
        return f"{settings.ORCHESTRATOR_BREAKER_PREFIX}:{self.tool}:{name}"

    @property
    def _failures_key(self) -> str:
        return self._key("failures")

    @property
    def _open_key(self) -> str:
        return self._key("open")

    def is_open(self) -> bool:
        """True when a call must not go through: the circuit is open, or it is half-open
        and another call is already the trial. The caller that gets False while half-open
        holds the trial; its record_success closes the circuit, record_failure reopens it."""
        try:
            client = _client()
            if client.exists(self._open_key):
                return True
            if not client.exists(self._key("tripped")):
                return False
            # The trial slot expires, so a trial whose process died does not hold it forever.
            ttl = int(settings.ORCHESTRATOR_TOOL_TIMEOUT_SECONDS) + 5
            return not client.set(self._key("trial"), 1, nx=True, ex=ttl)
        except redis.RedisError:
            return False  # a breaker that cannot reach Redis must not stop every tool

    def is_half_open(self) -> bool:
        try:
            client = _client()
            return bool(client.exists(self._key("tripped")) and not client.exists(self._open_key))
        except redis.RedisError:
            return False

    def record_success(self) -> None:
        keys = (self._failures_key, self._open_key, self._key("tripped"), self._key("trial"))
        with contextlib.suppress(redis.RedisError):
            _client().delete(*keys)

    def record_failure(self) -> None:
        try:
            client = _client()
            if client.exists(self._key("tripped")):
                self._open(client, settings.ORCHESTRATOR_BREAKER_FAILURES)  # the trial failed
                return
            pipe = client.pipeline()
            pipe.incr(self._failures_key)
            pipe.expire(self._failures_key, settings.ORCHESTRATOR_BREAKER_OPEN_SECONDS * 10)
            failures = pipe.execute()[0]
            if failures >= settings.ORCHESTRATOR_BREAKER_FAILURES:
                self._open(client, failures)
        except redis.RedisError:
            pass

    def _open(self, client: redis.Redis, failures: int) -> None:
        pipe = client.pipeline()
        pipe.set(self._open_key, failures, ex=settings.ORCHESTRATOR_BREAKER_OPEN_SECONDS)
        pipe.set(self._key("tripped"), 1, ex=86_400)  # a tool unused for a day starts afresh
        pipe.delete(self._failures_key, self._key("trial"))
        pipe.execute()

    def reset(self) -> None:
        self.record_success()
