"""``streams.kafka.read_range`` times out on a partition that stops giving records, not on a
long read whose caller takes its time (the watchdog catching up a backlog of 40 000 messages
on a loaded machine was stopped as a broker failure after 60 s)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

from streams import kafka
from streams.settings import Settings


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeReader:
    """A partition of ``end`` records, fetched ``batch`` at a time; nothing once ``dry``."""

    def __init__(self, clock: Clock, end: int, batch: int, dry: bool = False) -> None:
        self.clock, self.end, self.batch, self.dry = clock, end, batch, dry
        self.offset = 0

    def assign(self, tps: list[Any]) -> None:
        self.tp = tps[0]

    def seek(self, tp: Any, offset: int) -> None:
        self.offset = offset

    async def position(self, tp: Any) -> int:
        return self.offset

    async def getmany(self, tp: Any, timeout_ms: int, max_records: int) -> dict[Any, list[Any]]:
        if self.dry:
            self.clock.now += timeout_ms / 1000
            return {}
        upto = min(self.end, self.offset + self.batch)
        out = [SimpleNamespace(offset=o) for o in range(self.offset, upto)]
        self.offset = upto
        return {tp: out}


async def read(monkeypatch: pytest.MonkeyPatch, reader: FakeReader, per_record: float) -> int:
    @contextlib.asynccontextmanager
    async def started(client: Any, settings: Any) -> AsyncIterator[Any]:
        yield client

    monkeypatch.setattr(kafka, "consumer", lambda settings: reader)
    monkeypatch.setattr(kafka, "started", started)
    monkeypatch.setattr(kafka.time, "monotonic", reader.clock)
    handled = 0
    async for _ in kafka.read_range(Settings(), "t", 0, 0, reader.end, timeout=60):
        reader.clock.now += per_record  # the caller handling the record
        handled += 1
    return handled


async def test_a_slow_caller_reads_the_whole_range(monkeypatch: pytest.MonkeyPatch) -> None:
    # 3 batches of 2 000, each taking the caller 200 s: 600 s in all, never 60 without a record
    assert await read(monkeypatch, FakeReader(Clock(), 6000, 2000), per_record=0.1) == 6000


async def test_a_partition_that_gives_nothing_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TimeoutError, match="nothing came for 60 s"):
        await read(monkeypatch, FakeReader(Clock(), 10, 5, dry=True), per_record=0.0)
