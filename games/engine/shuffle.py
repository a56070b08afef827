"""A deterministic shuffler built on hashlib (SHA-256 in counter mode + Fisher-Yates).

Used by the replay command's ``seed`` and by the benchmark; the site itself passes
``secrets.SystemRandom()``. The ``random`` module is never used by the engine.
"""

from __future__ import annotations

import hashlib
from typing import Any


class SeededShuffler:
    """``shuffle(list)`` in place and ``randbelow(n)``, reproducible from an integer seed."""

    def __init__(self, seed: int) -> None:
        self._seed = str(int(seed)).encode()
        self._counter = 0
        self._pool = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._pool) < n:
            block = hashlib.sha256(self._seed + b":" + str(self._counter).encode()).digest()
            self._counter += 1
            self._pool += block
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        nbytes = ((n - 1).bit_length() + 7) // 8
        limit = (256**nbytes // n) * n
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big")
            if value < limit:
                return value % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def seeded_shuffler(seed: int) -> SeededShuffler:
    return SeededShuffler(seed)
