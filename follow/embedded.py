"""The embedded tracker as the follower's destination: events go straight into the core
(:class:`tracker.host.replay.Replay`) and the alerts are printed as ``tracker replay`` prints them.

With a state file, every event handed to the core is appended to it (JSON lines, after the
alerts are printed), so that a restarted follower rebuilds the core silently from it and
prints only what is new. A follower killed between printing and appending prints those
alerts again after the restart, under the same ids.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from tracker import contract as ev
from tracker.host.replay import InputError, Replay, Sourced, render
from tracker.ingest.ledger import Fact, Ledger, Report, describe


class EmbeddedSink:
    def __init__(
        self,
        out: TextIO,
        fmt: str,
        top: int,
        state_file: Path | None,
        report: Callable[[Report], None],
        watch: int = 0,
    ) -> None:
        """``watch``: in text, the rows of the norm watch printed after each round, as
        ``tracker replay --watch`` prints them."""
        self.out, self.fmt, self.top, self.watch = out, fmt, top, watch
        self.state_file = state_file
        self.report = report
        self.run = Replay()
        self.announced: set[str] = set()

    async def load(self, tournament_id: str) -> Ledger:
        """The facts in the state file, fed to the core without printing."""
        sent: list[Fact] = []
        if self.state_file is not None and self.state_file.exists():
            for number, line in enumerate(self.state_file.read_text("utf-8").splitlines(), 1):
                try:
                    record = json.loads(line)
                    fact = Fact(ev.parse_input(record["event"]), record["source"])
                except (ValueError, KeyError, TypeError):
                    # a line cut by a kill while it was written: its fact is sent again
                    self.report(Report("info", f"{self.state_file}:{number}: skipped"))
                    continue
                if fact.event.tournament_id == tournament_id:
                    sent.append(fact)
        for fact in sent:
            # a fact refused then is refused again; Ledger.of leaves it out as well
            with contextlib.suppress(InputError):
                self.run.feed(Sourced(fact.event, "state file"))
        return Ledger.of(sent)

    async def send(self, facts: Sequence[Fact]) -> None:
        for fact in facts:
            item = Sourced(fact.event, f"{fact.source}: {describe(fact.event)}")
            try:
                alerts = self.run.feed(item)
            except InputError as exc:
                self.report(Report("refused", str(exc)))
                continue
            lines = render(self.run, item, alerts, self.fmt, self.top, self.announced, self.watch)
            for line in lines:
                print(line, file=self.out)
        self.out.flush()
        if self.state_file is not None and facts:
            with self.state_file.open("a", encoding="utf-8") as f:
                for fact in facts:
                    event = fact.event.model_dump(mode="json", exclude_none=True)
                    f.write(json.dumps({"source": fact.source, "event": event}) + "\n")
                f.flush()
                os.fsync(f.fileno())

    async def close(self) -> None:
        return None


__all__ = ["EmbeddedSink"]
