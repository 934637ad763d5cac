"""The follower's loop: poll the sources, hand each new snapshot to the pure core of
``tracker`` (:func:`tracker.ingest.snapshots.follow_snapshot`,
:func:`tracker.ingest.broadcast.follow_broadcast`) and send what it says to a sink; sleep, back
off on errors, report.

A TRF snapshot that does not end with a line break is taken only once it is unchanged on the
next poll (the exporter may still be writing it). A source that fails, for whatever reason
(:class:`~follow.sources.SourceError` says why), is polled again after twice the delay of the
last try (from the interval up to ``max_backoff``); the failure and the recovery are reported.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from follow.sources import Source, SourceError
from tracker import contract as ev
from tracker.formats.decoding import decode
from tracker.formats.pgn import BroadcastGame, read_games
from tracker.formats.start_list import StartList
from tracker.ingest.broadcast import follow_broadcast, registration
from tracker.ingest.ledger import Fact, Ledger, Report, Settled
from tracker.ingest.snapshots import Snapshot, Unreadable, follow_snapshot, read_snapshot

IDLE_COLLECT = 0.5
"""The least wait before the next poll in which the follower makes a full garbage collection
after a change (seconds): long enough to hide one (tens of milliseconds with a 500-player
export's state), so that none falls inside the next change's work. Polls closer together
than that (``--interval 0``, the tests) leave the collector to its own schedule: a full
collection after every poll would cost more than the work it keeps clean."""


class SinkError(OSError):
    """The destination cannot take events now (a broker gone); the follower tries again."""


class Sink(Protocol):
    """Where the events go: the embedded core, or the input topic. Transport failures are
    raised as :exc:`SinkError`."""

    async def load(self, tournament_id: str) -> Ledger:
        """The facts already sent for the tournament (after a restart)."""

    async def send(self, facts: Sequence[Fact]) -> None:
        """Send the events in order; return once they are taken (printed, or acknowledged)."""

    async def close(self) -> None: ...


@dataclasses.dataclass
class Options:
    interval: float = 2.0
    max_backoff: float = 60.0
    accept_removals: bool = False
    tournament_id: str | None = None
    """For the arbiter's file: overrides the file's id (``XNI`` or a slug of the name)."""
    overrides: ev.Overrides = ev.Overrides()
    """What the command line gives over the file's ``tournament_registered``."""
    event: ev.TournamentRegistered | None = None
    """A broadcast-only event's registration (from the command line)."""


@dataclasses.dataclass
class _Poll:
    source: Source
    due: float = 0.0
    failures: int = 0


class Follower:
    def __init__(
        self,
        sink: Sink,
        report: Callable[[str], None],
        options: Options,
        trf: Source | None = None,
        pgns: Sequence[Source] = (),
        start_list: StartList | None = None,
    ) -> None:
        if trf is None and (not pgns or start_list is None or options.event is None):
            raise ValueError("a broadcast alone needs a start list and the event's facts")
        self.sink, self.options = sink, options
        self._print = report
        self.trf = _Poll(trf) if trf else None
        self.pgns = [_Poll(p) for p in pgns]
        self.start_list = start_list
        self.own_start_list = start_list is not None
        self.ledger: Ledger | None = None
        self.last_good: Snapshot | None = None
        self.pending: Snapshot | None = None
        """A snapshot without a final line break, waiting to be seen unchanged."""
        self.held = False
        """Whether the arbiter's file as last read was not taken."""
        self.failed = False
        """Whether the destination failed on the last try."""
        self.once = False
        """Whether this run polls once (a failed destination is then not tried again)."""
        self.games: dict[int, list[BroadcastGame]] = {}
        self._registered: list[ev.InputEvent] | None = None
        self.reported: set[str] = set()
        self.last_change = time.monotonic()
        self.sent = 0

    # ------------------------------------------------------------------ running

    async def run(
        self, *, once: bool = False, idle: float | None = None, until_finished: bool = False
    ) -> None:
        """Poll until stopped: after one poll of every source (``once``), after ``idle``
        seconds without a change, or once the tracker has finished the last round."""
        self.once = once
        try:
            while True:
                await self.poll()
                if once:
                    if self.pending is not None:
                        self.held = True
                        self._report(
                            self.trf.source if self.trf else None,
                            Report("held", "no line break at the end, and no next poll (--once)"),
                        )
                    return
                if until_finished and self.ledger is not None and self.ledger.finished:
                    return
                if idle is not None and time.monotonic() - self.last_change > idle:
                    return
                await asyncio.sleep(self._delay())
        finally:
            await self.sink.close()

    @property
    def unread(self) -> bool:
        """Whether a source failed on its last poll."""
        return any(p is not None and p.failures for p in (self.trf, *self.pgns))

    def _delay(self) -> float:
        polls = [p for p in (self.trf, *self.pgns) if p is not None]
        return max(0.0, min(p.due for p in polls) - time.monotonic())

    async def poll(self) -> bool:
        """One poll of every source that is due; whether anything new arrived."""
        try:
            return await self._poll()
        except SinkError as exc:  # reading back what was sent failed: all again next poll
            self._unavailable(exc)
            return False

    async def _poll(self) -> bool:
        changed = False
        if self.trf is not None and self._due(self.trf):
            data = await self._fetch(self.trf)
            if data is not None:
                changed = True
                await self._file(data)
            elif self.pending is not None:
                await self._take(self.pending)  # unchanged since the last poll: complete
        for poll in self.pgns:
            if not self._due(poll):
                continue
            data = await self._fetch(poll)
            if data is not None:
                changed = True
                self.games[id(poll)] = read_games(decode(data).text)
        if changed or self.sent:
            self.sent = 0
            await self._broadcast()
        if changed:
            self.last_change = time.monotonic()
            if not self.once and self._delay() >= IDLE_COLLECT:
                # a full collection while the loop sleeps anyway (:data:`IDLE_COLLECT`)
                gc.collect()
        return changed

    def _unavailable(self, exc: SinkError) -> None:
        """The destination failed: report it, read back what arrived before sending again,
        and take every source's current bytes as new on the next poll."""
        again = "" if self.once else "; trying again"
        self._report(None, Report("info", f"the destination failed ({exc}){again}"))
        self.failed = True
        self.ledger = None
        for poll in (self.trf, *self.pgns):
            if poll is not None:
                poll.source.forget()

    def _due(self, poll: _Poll) -> bool:
        return time.monotonic() >= poll.due - 1e-3

    async def _fetch(self, poll: _Poll) -> bytes | None:
        try:
            data = await poll.source.fetch()
        except SourceError as exc:
            poll.failures += 1
            wait = min(self.options.interval * 2**poll.failures, self.options.max_backoff)
            poll.due = time.monotonic() + wait
            again = "" if self.once else f"; trying again in {wait:g} s"
            if poll.failures == 1 or wait >= self.options.max_backoff:
                self._report(poll.source, Report("info", f"{exc}{again}"))
            return None
        if poll.failures:
            self._report(
                poll.source, Report("info", f"readable again after {poll.failures} failure(s)")
            )
            poll.failures = 0
        poll.due = time.monotonic() + self.options.interval
        return data

    # ------------------------------------------------------------------ the file

    async def _file(self, data: bytes) -> None:
        assert self.trf is not None
        self.pending = None
        try:
            snapshot = read_snapshot(
                decode(data).text,
                tournament_id=self.options.tournament_id,
                overrides=self.options.overrides,
            )
        except Unreadable as exc:
            self.held = True
            self._report(
                self.trf.source,
                Report("held", f"cannot be taken: {exc}; the last good snapshot stands"),
            )
            return
        if not snapshot.terminated:
            self.pending = snapshot
            return
        await self._take(snapshot)

    async def _take(self, snapshot: Snapshot) -> None:
        assert self.trf is not None
        self.pending = None
        ledger = await self._ledger(snapshot.tournament_id)
        step = follow_snapshot(
            ledger, self.last_good, snapshot, accept_removals=self.options.accept_removals
        )
        for r in step.reports:
            self._report(self.trf.source, r)
        self.held = not step.taken
        if not step.taken or step.settled is None:
            return
        if await self._send(step.settled, self.trf.source):
            self.last_good = snapshot
            if self.pgns and not self.own_start_list:
                self.start_list = StartList.of(snapshot.facts.values())

    # ------------------------------------------------------------------ the broadcast

    async def _broadcast(self) -> None:
        if not self.pgns or self.start_list is None:
            return
        alone = self.trf is None
        registered: list[ev.InputEvent] = []
        games = [g for poll in self.pgns for g in self.games.get(id(poll), [])]
        if alone:
            assert self.options.event is not None
            tid = self.options.event.tournament_id
            if self._registered is None:
                self._registered = registration(self.options.event, self.start_list, games)
            registered = self._registered
        elif self.last_good is not None:
            tid = self.last_good.tournament_id
        else:
            return
        ledger = await self._ledger(tid)
        settled = follow_broadcast(
            ledger, games, self.start_list, tid, alone=alone, registered=registered
        )
        label = self.pgns[0].source
        for r in settled.reports:
            self._report(label, r)
        await self._send(settled, label)

    # ------------------------------------------------------------------ sending

    async def _ledger(self, tournament_id: str) -> Ledger:
        if self.ledger is None:
            self.ledger = await self.sink.load(tournament_id)
            if self.ledger.facts:
                self._print(
                    f"follow: {len(self.ledger.facts)} facts of {tournament_id} already sent"
                )
        return self.ledger

    async def _send(self, settled: Settled, source: Source) -> bool:
        if not settled.send:
            self.ledger = settled.ledger
            return True
        try:
            await self.sink.send(settled.send)
        except SinkError as exc:
            self._unavailable(exc)
            return False
        self.ledger = settled.ledger
        self.failed = False
        self.sent += len(settled.send)
        self._print(f"follow: {source.label}: sent {len(settled.send)} event(s)")
        return True

    def _report(self, source: Source | None, report: Report) -> None:
        line = f"follow: {source.label + ': ' if source else ''}{report}"
        if line in self.reported:
            return
        self.reported.add(line)
        self._print(line)


__all__ = ["Follower", "Options", "Sink", "SinkError"]
