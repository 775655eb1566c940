"""The server's resource limits (`euchre serve` options) and the token buckets behind them.

A public server must not let one client (or many) make it hold unbounded
state: tables nobody plays, sockets that never speak, requests that never
finish. :class:`Limits` holds every bound, with the defaults of docs/protocol.md;
:class:`Buckets` is the rate limit of table creation, one token bucket per key
(the peer address, or one shared key for the server as a whole).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

__all__ = ["ALL", "Buckets", "Limits"]

#: The key of the bucket shared by every client (the server's overall rate).
ALL: Final = "*"


@dataclass(frozen=True)
class Limits:
    """The resource limits of one server process (0 in a count or rate: no limit)."""

    #: tables one peer address may create a minute (its bucket refills at this rate)
    create_rate: float = 6.0
    #: tables one peer address may create at once (the size of its bucket)
    create_burst: int = 3
    #: tables all clients together may create a minute (bursts of a quarter of it)
    create_rate_total: float = 120.0
    #: tables created by one peer address that may be waiting at once
    max_waiting_per_address: int = 5
    #: tables that may be waiting at once (all addresses)
    max_waiting: int = 500
    #: seconds a table may wait for its start; then it expires
    table_expiry: float = 3600.0
    #: seconds a WebSocket may stay open without a successful ``hello``
    hello_timeout: float = 30.0
    #: seconds a request's headers, and then its body, may take to arrive
    request_timeout: float = 10.0

    @property
    def total_burst(self) -> int:
        """The size of the overall creation bucket: a quarter of a minute's rate."""
        return max(1, int(self.create_rate_total // 4))


class Buckets:
    """Token buckets by key: each holds up to ``burst`` tokens and regains
    ``per_minute`` a minute; :meth:`take` spends one. ``per_minute`` 0: no limit.

    A bucket that has filled up again is forgotten (it is the same as a new
    one), so the memory held is bounded by the keys active within the last
    ``burst / per_minute`` minutes.
    """

    def __init__(self, per_minute: float, burst: int) -> None:
        """Buckets of ``burst`` tokens refilled at ``per_minute``."""
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        #: key -> (tokens, time.monotonic() of that count)
        self._buckets: dict[str, tuple[float, float]] = {}

    def _level(self, key: str, now: float) -> float:
        tokens, stamp = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.rate)

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may take a token (0: now)."""
        if self.rate <= 0:
            return 0.0
        level = self._level(key, time.monotonic())
        return 0.0 if level >= 1.0 else (1.0 - level) / self.rate

    def take(self, key: str) -> None:
        """Spend one of ``key``'s tokens (call after :meth:`wait` said 0)."""
        if self.rate <= 0:
            return
        now = time.monotonic()
        self._buckets[key] = (self._level(key, now) - 1.0, now)
        if len(self._buckets) > 1024:
            self._forget_full(now)

    def _forget_full(self, now: float) -> None:
        for key in [k for k in self._buckets if self._level(k, now) >= self.burst]:
            del self._buckets[key]
