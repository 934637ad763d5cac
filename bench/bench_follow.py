"""How long ``tracker follow`` takes from a new snapshot to its alerts, on a 500-player,
9-round open.

A generated open (the Swiss of ``bench_norms.py``: 500 players, 9 rounds, seed 1) is written,
as its pairing program would, into a file the follower watches: the start list, then for
each round its pairing and its results in batches of 25 boards (100 exports). Each export is
written at a random moment of the polling interval, and the time until the follower has
handed its events to the embedded tracker and printed the alerts is measured. Then the same
with a broadcast of the top 50 boards beside the file: the games of a round finish one by
one in the PGN, before the arbiter's next export.

Printed, per polling interval: the latency (write → alerts, wall clock) median and 99th
percentile; the follower's own work (reading, parsing, comparing with what the tracker holds)
in CPU and wall time; and the tracker's (the core's evaluation when a round finishes), median,
99th percentile and worst. The machines are shared: the wall times include the load average
printed first. No pass/fail.

Run: ``.venv/bin/python bench/bench_follow.py [--intervals 1 0.2]`` (``--baseline REV`` for
another revision's figures beside these: ``bench/baseline.py``)
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, os.environ.get("BENCH_TREE") or sys.path[0])  # a baseline's code first

from bench import baseline
from follow.embedded import EmbeddedSink
from follow.runner import Follower, Options
from follow.sources import FileSource
from tests.support.follow import boards, cut, games, pgn_game
from tests.support.swiss import swiss_events
from tracker import contract as ev
from tracker.domain.results import Code, parse_result
from tracker.domain.titles import Title
from tracker.formats.trf import Cell, TrfFile, TrfHeader, TrfPlayer, format_trf
from tracker.ingest.ledger import Fact


def open_trf(players: int = 500, rounds: int = 9) -> TrfFile:
    """The finished open as the arbiter's program would export it."""
    groups = swiss_events(players, rounds, seed=1, start=date(2012, 7, 1))
    regs = [e for e in groups[0] if isinstance(e, ev.PlayerRegistered)]
    cells: dict[int, list[Cell | None]] = {p.rank: [] for p in regs}
    for number, events in enumerate(groups[1:], 1):
        for e in events:
            if isinstance(e, ev.GameResult):
                white, black = parse_result(e.result)
                cells[e.white].append(Cell(e.black, "w", white))
                cells[e.black].append(Cell(e.white, "b", black))
            elif isinstance(e, ev.Bye):
                cells[e.player].append(Cell(None, "-", Code.parse(e.kind)))
        assert all(len(c) == number for c in cells.values())
    header = TrfHeader(
        name="Bench Open 2012",
        federation="GER",
        start_date=date(2012, 7, 1),
        end_date=date(2012, 7, 9),
        player_count=players,
        planned_rounds=rounds,
        tournament_id="bench-open-2012",
    )
    return TrfFile(
        header,
        tuple(
            TrfPlayer(
                rank=p.rank,
                name=f"Player{p.rank:03d}, Bench",
                federation=p.federation,
                sex=p.sex,
                title=Title.parse(p.title),
                rating=p.rating,
                fide_id=90_100_000 + p.rank,
                cells=tuple(cells[p.rank]),
            )
            for p in regs
        ),
    )


def exports(trf: TrfFile, batch: int = 25) -> list[str]:
    out = [format_trf(cut(trf, 0))]
    for r in range(1, trf.rounds + 1):
        total = len(boards(trf, r))
        out.extend(format_trf(cut(trf, r, k)) for k in range(0, total, batch))
        out.append(format_trf(cut(trf, r)))
    return out


class TimedSink(EmbeddedSink):
    """The embedded tracker, timing its own work (CPU) and noting when a send is done."""

    def __init__(self) -> None:
        super().__init__(io.StringIO(), "text", 10, None, lambda r: None)
        self.done = asyncio.Event()
        self.core: list[float] = []
        self.finished = (0.0, 0.0)

    async def send(self, facts: Sequence[Fact]) -> None:
        started = time.process_time()
        await super().send(facts)
        self.core.append(time.process_time() - started)
        self.finished = (time.perf_counter(), time.process_time())
        self.done.set()


class TimedFile(FileSource):
    """A file source noting when (wall clock and CPU) it read new bytes."""

    read_at = (0.0, 0.0)

    async def fetch(self) -> bytes | None:
        data = await super().fetch()
        if data is not None:
            self.read_at = (time.perf_counter(), time.process_time())
        return data


class Figures:
    """Latency, the follower's work (wall, CPU) and the tracker's, change by change."""

    def __init__(self) -> None:
        self.latency: list[float] = []
        self.work: list[tuple[float, float]] = []
        self.core: list[float] = []

    async def change(self, path: Path, text: str, source: TimedFile, sink: TimedSink) -> None:
        """Write the change and wait for the follower to have sent what it brings."""
        sink.done.clear()
        path.write_text(text)
        written = time.perf_counter()
        await asyncio.wait_for(sink.done.wait(), 60)
        (wall0, cpu0), (wall1, cpu1) = source.read_at, sink.finished
        core = sink.core[-1]
        self.latency.append(wall1 - written)
        self.core.append(core)
        self.work.append((wall1 - wall0 - core, cpu1 - cpu0 - core))

    def numbers(self, label: str) -> baseline.Figures:
        ordered = sorted(self.latency)
        return {
            f"{label}: write -> alerts p50 ms": statistics.median(ordered) * 1000,
            f"{label}: write -> alerts p99 ms": _p99(ordered) * 1000,
            f"{label}: tracker's work p99 ms": _p99(sorted(self.core)) * 1000,
        }

    def print(self, what: str) -> None:
        print(f"    write → alerts (wall)     {_ms(self.latency)}")
        print(f"    follower's work (CPU)     {_ms([c for _, c in self.work])}  ({what})")
        print(f"    follower's work (wall)    {_ms([w for w, _ in self.work])}")
        print(f"    tracker's work (CPU)      {_ms(self.core)}  (the core: a round's evaluation)")


def _p99(ordered: Sequence[float]) -> float:
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def _ms(values: Sequence[float]) -> str:
    ordered = sorted(values)
    p99 = _p99(ordered)
    return (
        f"median {statistics.median(ordered) * 1000:7.1f} ms, p99 {p99 * 1000:7.1f} ms, "
        f"worst {ordered[-1] * 1000:7.1f} ms"
    )


async def follow_file(texts: list[str], interval: float, folder: Path) -> baseline.Figures:
    path = folder / "export.trf"
    source = TimedFile(path)
    sink = TimedSink()
    follower = Follower(sink, lambda line: None, Options(interval=interval), trf=source)
    path.write_text(texts[0])
    task = asyncio.create_task(follower.run())
    figures = Figures()
    rng = random.Random(7)
    try:
        await asyncio.wait_for(sink.done.wait(), 120)  # the start list
        for text in texts[1:]:
            await asyncio.sleep(rng.uniform(0, interval))
            await figures.change(path, text, source, sink)
    finally:
        task.cancel()
    print(f"  TRF exports ({len(texts) - 1} after the start list), polling every {interval:g} s")
    figures.print("read, parse, compare")
    return figures.numbers(f"file every {interval:g} s")


async def follow_broadcast(
    trf: TrfFile, interval: float, folder: Path, top: int = 50
) -> baseline.Figures:
    """Rounds 1-4 from the file; round 5 paired by the file, its top boards finishing one by
    one in the broadcast."""
    path, pgn = folder / "b.trf", folder / "top.pgn"
    source, feed = TimedFile(path), TimedFile(pgn)
    sink = TimedSink()
    follower = Follower(
        sink, lambda line: None, Options(interval=interval), trf=source, pgns=[feed]
    )
    path.write_text(format_trf(cut(trf, 5, 0)))
    pgn.write_text("")
    task = asyncio.create_task(follower.run())
    figures = Figures()
    rng = random.Random(8)
    try:
        await asyncio.wait_for(sink.done.wait(), 120)
        boards_ = games(trf, 5)[:top]
        for k in range(1, top + 1):
            await asyncio.sleep(rng.uniform(0, interval))
            text = "".join(
                pgn_game(trf, 5, w, b, result if i < k else None)
                for i, (w, b, result) in enumerate(boards_)
            )
            await figures.change(pgn, text, feed, sink)
    finally:
        task.cancel()
    print(
        f"  broadcast of the top {top} boards, one result at a time, polling every {interval:g} s"
    )
    figures.print("read, match, compare")
    return figures.numbers(f"broadcast every {interval:g} s")


async def main(intervals: Sequence[float]) -> baseline.Figures:
    trf = open_trf()
    texts = exports(trf)
    print(
        f"{len(trf.players)}-player, {trf.rounds}-round open; exports of "
        f"{min(map(len, texts)) // 1024}-{max(map(len, texts)) // 1024} KB"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall times include it)")
    figures: baseline.Figures = {}
    with tempfile.TemporaryDirectory() as folder:
        for interval in intervals:
            figures.update(await follow_file(texts, interval, Path(folder)))
            figures.update(await follow_broadcast(trf, interval, Path(folder)))
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--intervals", type=float, nargs="+", default=[1.0, 0.2])
    baseline.add_arguments(parser)
    raise SystemExit(baseline.run(parser, lambda args: asyncio.run(main(args.intervals))))
