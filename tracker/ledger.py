"""What a tracker has been given for one tournament, and what to send it next.

A follower (``tracker follow``) turns what the arbiter's file and the broadcast say into input
events. Before it sends a fact it asks the :class:`Ledger`, which holds every fact already sent
(keyed by what the fact is about) and a facts-only copy of the tournament's state
(:func:`tracker.transition.settle`), so that it

* never sends a fact twice (a repeated fact changes nothing in the core, but a publisher that
  restarts should not fill the input topic with copies);
* turns a changed fact into the correction event the contract has for it (:func:`correction`),
  or reports it as *not expressible yet*;
* never sends what the core would refuse (a pairing in a round that has finished, a player
  placed twice), and says why instead.

The input topic (or the embedded mode's state file) is the source of truth: a restarted
follower rebuilds its ledger from what was sent (:meth:`Ledger.of`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Literal

from tracker import events as ev
from tracker.results import format_result, parse_result
from tracker.state import TournamentState
from tracker.transition import Rejected, settle

FactKey = tuple[str | int, ...]
"""What a fact is about: ``("tournament",)``, ``("player", rank)``, ``("pairing", round, a,
b)`` and ``("result", round, a, b)`` with ``a < b`` (so that a board whose colours change is
the same board), ``("bye", round, player)``, ``("closed", round)``."""

Source = Literal["trf", "pgn", "cli"]
"""Where a fact came from: the arbiter's file, the broadcast, or the command line (a
PGN-only event's registration)."""


def fact_key(event: ev.InputEvent) -> FactKey:
    """What an input event is about.

    >>> fact_key(ev.GameResult(tournament_id="t", round=2, white=9, black=4, result="1-0"))
    ('result', 2, 4, 9)
    """
    kind = type(event)  # by type, not isinstance: the follower keys every fact it reads
    if kind is ev.GameResult or kind is ev.ResultCorrected or kind is ev.Pairing:
        assert isinstance(event, ev.GameResult | ev.ResultCorrected | ev.Pairing)
        a, b = (
            (event.white, event.black) if event.white < event.black else (event.black, event.white)
        )
        return ("pairing" if kind is ev.Pairing else "result", event.round, a, b)
    if kind is ev.Bye:
        assert isinstance(event, ev.Bye)
        return ("bye", event.round, event.player)
    if kind is ev.RoundClosed:
        assert isinstance(event, ev.RoundClosed)
        return ("closed", event.round)
    if kind is ev.PlayerRegistered:
        assert isinstance(event, ev.PlayerRegistered)
        return ("player", event.rank)
    return ("tournament",)


_CANONICAL_RESULTS = frozenset(
    {"1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "W-L", "L-W", "D-D", "0-0"}
)


def canonical(event: ev.InputEvent) -> ev.InputEvent:
    """The form a fact is compared in: a correction is the result it gives, and a result is
    written as :func:`tracker.results.format_result` writes it (``½-½`` is ``1/2-1/2``)."""
    if type(event) is ev.GameResult and event.result in _CANONICAL_RESULTS:
        return event
    if isinstance(event, ev.ResultCorrected | ev.GameResult):
        result = format_result(*parse_result(event.result))
        fields = event.model_dump(exclude={"type"}, exclude_none=True)
        return ev.GameResult(**{**fields, "result": result})
    return event


def same(a: ev.InputEvent, b: ev.InputEvent) -> bool:
    """Whether two events state the same fact: ``==`` without pydantic's general ``__eq__``
    (input events are frozen, without private attributes or extras), which the follower
    would otherwise spend most of its time in."""
    return type(a) is type(b) and a.__dict__ == b.__dict__


def correction(before: ev.InputEvent, after: ev.InputEvent | None) -> ev.InputEvent | None:
    """The input event that turns a fact the tracker holds (``before``) into what the source
    now says (``after``; ``None``: the source no longer has the fact), or ``None`` when the
    contract has no event for that change yet.

    Today only a result can be corrected (``result_corrected``). A pairing changed or gone, a
    bye changed or gone, a player gone or with other details, a result taken back and a round
    reopened wait for the correction events of issue 15 (item 7): they slot in here, and the
    follower then sends them instead of reporting "not expressible yet".

    >>> old = ev.GameResult(tournament_id="t", round=1, white=1, black=2, result="1-0")
    >>> correction(old, old.model_copy(update={"result": "0-1"})).type
    'result_corrected'
    >>> correction(old, None) is None
    True
    """
    if (
        isinstance(before, ev.GameResult)
        and isinstance(after, ev.GameResult)
        and (before.white, before.black) == (after.white, after.black)
    ):
        fields = after.model_dump(exclude={"type"}, exclude_none=True)
        return ev.ResultCorrected(**fields)
    return None


@dataclasses.dataclass(frozen=True, slots=True)
class Fact:
    """An input event and where it came from."""

    event: ev.InputEvent
    source: Source


@dataclasses.dataclass(frozen=True, slots=True)
class Report:
    """Something the follower must tell its operator.

    ``kind``: ``held`` (a snapshot not taken: half-written, or it loses facts), ``not
    expressible`` (a change the contract has no correction event for yet), ``disagreement``
    (the broadcast and the arbiter's file differ), ``unmatched`` (a broadcast player not found
    in the start list, or found twice), ``refused`` (a fact the tracker would refuse), ``info``.
    """

    kind: Literal["held", "not expressible", "disagreement", "unmatched", "refused", "info"]
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def describe(event: ev.InputEvent) -> str:
    """A fact in words, for reports.

    >>> describe(ev.Bye(tournament_id="t", round=3, player=7, kind="H"))
    'round 3: bye H of player 7'
    """
    if isinstance(event, ev.GameResult | ev.ResultCorrected):
        return f"round {event.round}: {event.white}-{event.black} {event.result}"
    if isinstance(event, ev.Pairing):
        return f"round {event.round}: board {event.white}-{event.black}"
    if isinstance(event, ev.Bye):
        return f"round {event.round}: bye {event.kind} of player {event.player}"
    if isinstance(event, ev.RoundClosed):
        return f"round {event.round} closed"
    if isinstance(event, ev.PlayerRegistered):
        return f"player {event.rank} ({event.name})"
    return f"tournament {event.tournament_id}"


def _differences(before: ev.InputEvent, after: ev.InputEvent) -> str:
    """The fields that differ, ``field old → new``."""
    a, b = before.model_dump(mode="json"), after.model_dump(mode="json")
    changed = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return ", ".join(f"{k} {a.get(k)!r} → {b.get(k)!r}" for k in changed)


@dataclasses.dataclass(frozen=True, slots=True)
class Ledger:
    """The facts a tracker has been given for one tournament (by :func:`fact_key`, in the
    form of :func:`canonical`) and the tournament's state built from them alone."""

    facts: Mapping[FactKey, Fact] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    state: TournamentState | None = None
    """Facts only: rounds are marked finished (:func:`tracker.transition.settle`) but nothing
    is evaluated."""

    @classmethod
    def of(cls, sent: Iterable[Fact]) -> Ledger:
        """The ledger of facts already sent, in the order they were sent (a result corrected
        later replaces the earlier one). Facts the tracker refused are left out, as the core
        left them out."""
        facts: dict[FactKey, Fact] = {}
        state: TournamentState | None = None
        for fact in sent:
            try:
                state = settle(state, fact.event)
            except Rejected:
                continue
            facts[fact_key(fact.event)] = Fact(canonical(fact.event), fact.source)
        return cls(MappingProxyType(facts), state)

    @property
    def announced(self) -> int:
        """The last round the tracker has finished (0 before any)."""
        return self.state.announced if self.state else 0

    @property
    def finished(self) -> bool:
        """Whether the tracker has finished the tournament's last planned round."""
        if self.state is None:
            return False
        planned = self.state.tournament.planned_rounds
        return planned is not None and self.state.announced >= planned > 0

    def board(self, round_: int, white: int, black: int) -> ev.Pairing | ev.GameResult | None:
        """The result, else the pairing, the tracker holds for the board of these two players
        (in either colour), or ``None``."""
        a, b = sorted((white, black))
        for kind in ("result", "pairing"):
            found = self.facts.get((kind, round_, a, b))
            if found is not None:
                assert isinstance(found.event, ev.Pairing | ev.GameResult)
                return found.event
        return None

    def paired(self, round_: int) -> bool:
        """Whether the tracker holds at least one board of the round."""
        return bool(self.state and self.state.round(round_).boards)


@dataclasses.dataclass(frozen=True, slots=True)
class Settled:
    """What to send, in order, and the ledger once it has been sent."""

    ledger: Ledger
    send: tuple[Fact, ...]
    reports: tuple[Report, ...]


def settle_facts(ledger: Ledger, candidates: Iterable[Fact], *, authority: bool) -> Settled:
    """Which of ``candidates`` (what a source says now, in the order a live event states
    facts) the tracker still needs, as the events to send.

    A fact already held is skipped. A fact the tracker holds with another value is a change:
    from the ``authority`` (the arbiter's file; the broadcast when it is the only source) it
    is sent as its :func:`correction`, or reported as *not expressible yet* when there is
    none; from a source that is not the authority it is reported as a disagreement and not
    sent. A fact the tracker would refuse is reported, not sent."""
    facts = dict(ledger.facts)
    state = ledger.state
    send: list[Fact] = []
    reports: list[Report] = []
    for candidate in candidates:
        event = canonical(candidate.event)
        key = fact_key(event)
        known = facts.get(key)
        if known is not None and same(known.event, event):
            if authority and known.source != candidate.source:
                facts[key] = Fact(event, candidate.source)  # confirmed by the authority
            continue
        if known is not None:
            if not authority:
                reports.append(_disagreement(known, candidate.source, event, kept=True))
                continue
            fix = correction(known.event, event)
            if fix is None:
                reports.append(
                    Report(
                        "not expressible",
                        f"{describe(known.event)}: the {_NAMES[candidate.source]} now says "
                        f"{_differences(known.event, event)}; the tracker keeps what it has "
                        "(no correction event for this yet)",
                    )
                )
                continue
            if known.source != candidate.source:
                reports.append(_disagreement(known, candidate.source, event, kept=False))
            to_send = fix
        else:
            to_send = event
        try:
            after = settle(state, to_send)
        except Rejected as exc:
            reports.append(Report("refused", f"{describe(to_send)}: {exc}"))
            continue
        facts[key] = Fact(event, candidate.source)
        if after is state:
            continue  # implied by a fact already sent (a pairing after its result)
        state = after
        send.append(Fact(to_send, candidate.source))
    return Settled(Ledger(MappingProxyType(facts), state), tuple(send), tuple(reports))


_NAMES: dict[str, str] = {
    "trf": "arbiter's file",
    "pgn": "broadcast",
    "cli": "command line",
}


def _disagreement(known: Fact, source: Source, event: ev.InputEvent, kept: bool) -> Report:
    said = f"the {_NAMES[known.source]} gave {describe(known.event)}"
    now = f"the {_NAMES[source]} says {describe(event)}"
    outcome = (
        f"the {_NAMES[known.source]} stands" if kept else f"the {_NAMES[source]} stands (corrected)"
    )
    return Report("disagreement", f"{said}, {now}: {outcome}")


def held_only(ledger: Ledger, source: Source, keys: Iterable[FactKey]) -> Iterator[Report]:
    """Reports for the facts from ``source`` that the tracker holds but the source no longer
    states (``keys``: every fact the source states now), once the operator accepted the loss:
    they cannot be taken back yet (see :func:`correction`)."""
    stated = set(keys)
    for key, fact in ledger.facts.items():
        if fact.source == source and key not in stated and correction(fact.event, None) is None:
            yield Report(
                "not expressible",
                f"{describe(fact.event)}: no longer in the {_NAMES[source]}; the tracker "
                "keeps it (no correction event for this yet)",
            )


__all__ = [
    "Fact",
    "FactKey",
    "Ledger",
    "Report",
    "Settled",
    "Source",
    "canonical",
    "correction",
    "describe",
    "fact_key",
    "held_only",
    "same",
    "settle_facts",
]
