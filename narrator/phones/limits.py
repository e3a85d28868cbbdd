"""Rate limits for the phones' server: a token bucket per client, in bounded memory.

The threat is a player at the table hammering the server from their phone; the buckets are keyed by
whoever is asking (a seat once it has one, else the address) and the oldest are forgotten first.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rate:
    burst: float = 60.0  # requests allowed at once (a page load is four)
    per_second: float = 20.0  # refilled each second


class Buckets:
    """How many requests each client may still make now; never more than `most` clients remembered."""

    def __init__(self, rate: Rate, most: int = 1024, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.most = most
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, when)

    def allow(self, key: str) -> bool:
        now = self._clock()
        tokens, when = self._buckets.pop(key, (self.rate.burst, now))
        tokens = min(self.rate.burst, tokens + (now - when) * self.rate.per_second)
        allowed = tokens >= 1
        self._buckets[key] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > self.most:
            self._buckets.popitem(last=False)
        return allowed

    def __len__(self) -> int:
        return len(self._buckets)
