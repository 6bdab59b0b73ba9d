"""The row generator: one client's rows, as VALUES tuples ready to join into a multi-row INSERT.

cashregisterid U[0,1000), productid U[0,10000), customerid U[0,100000), price U[0,500),
dateandtime the wall clock when the batch is made (the same for a whole batch), data of length U[min,max] of which
int(0.75 * random_pct/100 * length) characters are a random slice of a base64-encoded 4 MiB
random buffer and the rest the letter 'a' (base64's 4/3 expansion is what the 0.75 accounts
for, so about random_pct % of the bytes are incompressible). Seed per client = base + client.

The data alphabet is base64's plus 'a': no character needs escaping, so rows are formatted
straight into the statement, the cheapest way to build it in pure Python.
"""

from __future__ import annotations

import base64
import random
import time

CASHREGISTERS = 1000
PRODUCTS = 10_000
CUSTOMERS = 100_000
PRICES = 500
BUFFER_BYTES = 4 * 2**20
COLUMNS = "dateandtime, cashregisterid, productid, customerid, price, data"


def random_chars(length: int, random_pct: int) -> int:
    """How many of a data value's characters come from the random buffer."""
    return int(0.75 * random_pct / 100 * length)


def stamp(now: float | None = None) -> str:
    """dateandtime of a batch built at now (epoch seconds; None: the wall clock)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now))


class RowGenerator:
    def __init__(
        self,
        seed: int,
        length_min: int = 10,
        length_max: int = 20,
        random_pct: int = 50,
        buffer_bytes: int = BUFFER_BYTES,
    ):
        self._rng = random.Random(seed)
        self._min, self._max, self._pct = length_min, length_max, random_pct
        self._buffer = base64.b64encode(self._rng.randbytes(buffer_bytes)).decode("ascii")

    @property
    def rng(self) -> random.Random:
        return self._rng

    def data(self) -> str:
        rng = self._rng
        length = self._min + int(rng.random() * (self._max - self._min + 1))
        count = random_chars(length, self._pct)
        start = int(rng.random() * (len(self._buffer) - count))
        return self._buffer[start : start + count] + "a" * (length - count)

    def values(self, rows: int, stamp: str) -> str:
        """`(...),(...)` for `INSERT INTO t (COLUMNS) VALUES <this>`, dateandtime = stamp."""
        rnd, data = self._rng.random, self.data
        return ",".join(
            f"('{stamp}',{int(rnd() * CASHREGISTERS)},{int(rnd() * PRODUCTS)},"
            f"{int(rnd() * CUSTOMERS)},{int(rnd() * PRICES)},'{data()}')"
            for _ in range(rows)
        )
