"""Successive TRF exports of one tournament, turned into the input events that are new.

An arbiter's pairing program writes the whole tournament again after each pairing and each
batch of results. :func:`read_snapshot` reads one export into the facts it states (the events
of :func:`tracker.formats.trf.to_events`, by :func:`tracker.ingest.ledger.fact_key`);
:func:`follow_snapshot` compares it with the last good export and with what the tracker
already holds, and says what to send.

When a snapshot is taken
========================

A file can be caught while the exporter writes it. A snapshot is not taken (it is *held*, and
the last good one stands until a complete one arrives) when

* it cannot be read (a cut line breaks the cross-references of the round cells, or a field);
* record ``062`` counts more players than the file lists;
* it does not end with a line break (every exporter we know ends its last line): the shell
  takes such a file only once it is unchanged on the next poll (:attr:`Snapshot.terminated`);
* it **loses facts** the last good snapshot had (:func:`losses`): a player gone or with other
  details, a pairing gone or changed, a bye gone or changed, a result taken back, a round no
  longer closed. A changed *result* is not a loss: it is the arbiter's correction and is sent
  as ``result_corrected``. ``--accept-removals`` takes such a snapshot as the arbiter's
  decision: each fact gone or changed is taken back by its correction event
  (:func:`tracker.ingest.ledger.retraction`: ``pairing_removed``, ``bye_removed``,
  ``round_reopened``, ``player_removed``, ``player_corrected``) and what the file says now
  is sent; what the tracker refuses is reported and kept.

Changes of the tournament record itself (name, dates, rounds, system) are reported and never
hold a snapshot: the registration stands as first sent.

When a round is closed
======================

As :func:`tracker.formats.trf.to_events` reads the file, and so as ``tracker replay`` does: a round
with boards is closed when every board has a result, whatever later rounds already hold;
byes, absences and withdrawals entered ahead for a round not yet paired are sent as they are
and never close it (blank cells there state nothing yet); a round whose boards are not all
finished stays open. The core finishes a round on the same terms.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from tracker import contract as ev
from tracker.formats.trf import TrfError, TrfFile, parse_trf, to_events
from tracker.ingest.ledger import (
    Fact,
    FactKey,
    Ledger,
    Report,
    Settled,
    correction,
    describe,
    fact_key,
    same,
    settle_facts,
    withdraw,
)


class Unreadable(ValueError):
    """A snapshot that cannot be taken as it is; the message says why."""


@dataclasses.dataclass(frozen=True, slots=True)
class Snapshot:
    """One export, read."""

    trf: TrfFile
    facts: Mapping[FactKey, ev.InputEvent]
    """Every fact the file states, in the order a live event states them."""
    terminated: bool
    """Whether the text ends with a line break."""

    @property
    def tournament_id(self) -> str:
        event = self.facts[("tournament",)]
        return event.tournament_id


def read_snapshot(
    text: str,
    *,
    tournament_id: str | None = None,
    overrides: ev.Overrides | None = None,
) -> Snapshot:
    """The facts of one export, with what the command line gives over its
    ``tournament_registered`` (``overrides``). Raises :exc:`Unreadable`."""
    try:
        trf = parse_trf(text)
    except TrfError as exc:
        raise Unreadable(str(exc)) from None
    counted = trf.header.player_count
    if counted is not None and counted > len(trf.players):
        raise Unreadable(
            f"record 062 counts {counted} players but the file lists {len(trf.players)}: cut short?"
        )
    if not trf.players:
        raise Unreadable("no player records (001): cut short?")
    try:
        events = to_events(trf, tournament_id)
    except TrfError as exc:
        raise Unreadable(str(exc)) from None
    if overrides:
        first = events[0]
        assert isinstance(first, ev.TournamentRegistered)
        events[0] = overrides.apply(first, len(trf.players))
    facts = {fact_key(event): event for event in events}
    return Snapshot(trf, MappingProxyType(facts), text.endswith(("\n", "\r")))


def losses(
    before: Mapping[FactKey, ev.InputEvent], after: Mapping[FactKey, ev.InputEvent]
) -> list[str]:
    """The facts of ``before`` that ``after`` drops or changes, in words; a changed result
    (a correction the contract can express) and the tournament record are not losses."""
    out = []
    for key, old in before.items():
        if key == ("tournament",):
            continue
        new = after.get(key)
        if new is not None and same(new, old):
            continue
        if new is not None and correction(old, new) is not None:
            continue
        if new is None:
            out.append(f"{describe(old)} is gone")
        else:
            out.append(f"{describe(old)} became {describe(new)}")
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """What to do with a snapshot: whether it becomes the last good one, and what to send."""

    taken: bool
    settled: Settled | None
    reports: tuple[Report, ...]


def follow_snapshot(
    ledger: Ledger,
    last_good: Snapshot | None,
    new: Snapshot,
    *,
    accept_removals: bool = False,
) -> Step:
    """The events a new snapshot adds to what the tracker holds, or why it is held.

    Losses are counted against the last good snapshot; before any (a follower that has just
    started), against the facts of the arbiter's file the tracker already holds."""
    if last_good is not None:
        baseline: Mapping[FactKey, ev.InputEvent] = last_good.facts
    else:
        baseline = {k: f.event for k, f in ledger.facts.items() if f.source == "trf"}
    lost = losses(baseline, new.facts)
    reports: list[Report] = []
    if lost:
        if not accept_removals:
            shown = "; ".join(lost[:5]) + (f"; … {len(lost) - 5} more" if len(lost) > 5 else "")
            message = (
                f"the snapshot loses {len(lost)} fact(s) the last good one had ({shown}); "
                "the last good snapshot stands (--accept-removals takes it as a correction)"
            )
            return Step(False, None, (Report("held", message),))
        reports.append(Report("info", f"removals accepted: {'; '.join(lost)}"))
    send: tuple[Fact, ...] = ()
    if lost:
        # the facts gone first: a board taken back frees its players for the new one
        gone = withdraw(ledger, "trf", new.facts)
        ledger, send = gone.ledger, gone.send
        reports.extend(gone.reports)
    candidates = [Fact(event, "trf") for event in new.facts.values()]
    settled = settle_facts(ledger, candidates, authority=True, accept_removals=bool(lost))
    reports.extend(settled.reports)
    settled = Settled(settled.ledger, send + settled.send, settled.reports)
    return Step(True, settled, tuple(reports))


__all__ = ["Snapshot", "Step", "Unreadable", "follow_snapshot", "losses", "read_snapshot"]
