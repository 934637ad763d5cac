"""What a tracker has been given for one tournament, and what to send it next.

A follower (``tracker follow``) turns what the arbiter's file and the broadcast say into input
events. Before it sends a fact it asks the :class:`Ledger`, which holds every fact already sent
(keyed by what the fact is about) and a facts-only copy of the tournament's state
(:func:`tracker.engine.transition.settle`), so that it

* never sends a fact twice (a repeated fact changes nothing in the core, but a publisher that
  restarts should not fill the input topic with copies);
* turns a changed result into ``result_corrected`` (:func:`correction`), and, once the
  operator accepts removals, any other fact changed or gone into the correction events that
  take it back (:func:`retraction`, :func:`withdraw`); otherwise reports it as *not
  expressible*;
* never sends what the core would refuse (a pairing in a round that has finished, a player
  placed twice), and says why instead.

The input topic (or the embedded mode's state file) is the source of truth: a restarted
follower rebuilds its ledger from what was sent (:meth:`Ledger.of`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Literal

from tracker import contract as ev
from tracker.domain.results import CANONICAL_RESULTS, format_result, parse_result
from tracker.engine.state import TournamentState
from tracker.engine.transition import Rejected, settle

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
    if kind is ev.PlayerRegistered or kind is ev.PlayerCorrected:
        assert isinstance(event, ev.PlayerRegistered | ev.PlayerCorrected)
        return ("player", event.rank)
    return ("tournament",)


def canonical(event: ev.InputEvent) -> ev.InputEvent:
    """The form a fact is compared in: a correction is the result or the record it gives,
    and a result is written as :func:`tracker.domain.results.format_result` writes it (``½-½`` is
    ``1/2-1/2``)."""
    if type(event) is ev.GameResult and event.result in CANONICAL_RESULTS:
        return event
    if isinstance(event, ev.PlayerCorrected):
        return ev.PlayerRegistered(**event.model_dump(exclude={"type"}))
    if isinstance(event, ev.ResultCorrected | ev.GameResult):
        result = format_result(*parse_result(event.result))
        fields = event.model_dump(exclude={"type"}, exclude_none=True)
        return ev.GameResult(**{**fields, "result": result})
    return event


def same(a: ev.InputEvent, b: ev.InputEvent) -> bool:
    """Whether two events state the same fact: ``==`` without pydantic's general ``__eq__``
    (input events are frozen, without private attributes or extras), which the follower
    would otherwise spend most of its time in."""
    if type(a) is not type(b):
        return False
    if a.__dict__ == b.__dict__:
        return True
    # how the system was read is words about the registration, not one of its facts
    return type(a) is ev.TournamentRegistered and _without_evidence(a) == _without_evidence(b)


def _without_evidence(e: ev.InputEvent) -> dict[str, object]:
    return {**e.__dict__, "system_evidence": None}


def correction(before: ev.InputEvent, after: ev.InputEvent | None) -> ev.InputEvent | None:
    """The ``result_corrected`` that turns a result the tracker holds (``before``) into the
    one the source now gives (``after``), or ``None`` for any other change: a changed result
    is the arbiter's correction and is always sent; other changes and facts gone are taken
    back only when the operator accepts removals (:func:`retraction`).

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
    if isinstance(before, ev.TournamentRegistered) and isinstance(after, ev.TournamentRegistered):
        return _system_correction(before, after)
    return None


_SYSTEM_FIELDS = frozenset({"system", "planned_rounds", "system_evidence", "event_type"})
"""What a later export may put right in the registration: the system it reads from more
evidence, with the rounds that system plans (a round robin's follow from its field), how it
was read and the ``092`` words it was read from."""


def _system_correction(
    before: ev.TournamentRegistered, after: ev.TournamentRegistered
) -> ev.SystemCorrected | None:
    """``system_corrected`` when the registration now differs in its system (and with it,
    only in the rounds it plans and how it was read); ``None`` for any other change.

    >>> old = ev.parse_input('{"type": "tournament_registered", "tournament_id": "t", '
    ...                      '"start_date": "2011-05-02", "system": "unknown"}')
    >>> new = ev.parse_input('{"type": "tournament_registered", "tournament_id": "t", '
    ...                      '"start_date": "2011-05-02", "system": "round_robin", '
    ...                      '"planned_rounds": 9}')
    >>> fix = correction(old, new)
    >>> fix.type, fix.system.value, fix.planned_rounds
    ('system_corrected', 'round_robin', 9)
    """
    if before.system is after.system:
        return None
    a, b = before.__dict__, after.__dict__
    if any(a[k] != b[k] for k in a if k not in _SYSTEM_FIELDS):
        return None
    return ev.SystemCorrected(
        tournament_id=after.tournament_id,
        system=after.system,
        planned_rounds=after.planned_rounds,
        system_evidence=after.system_evidence,
        event_type=after.event_type,
    )


def with_system(held: ev.TournamentRegistered, fix: ev.SystemCorrected) -> ev.TournamentRegistered:
    """The registration ``held`` as ``fix`` puts it right (what the core does to its
    tournament, :func:`tracker.engine.transition.apply`), for a ledger rebuilt from the
    events sent."""
    update: dict[str, object] = {
        "system": fix.system,
        "planned_rounds": fix.planned_rounds,
        "system_evidence": fix.system_evidence,
    }
    if fix.event_type is not None:
        update["event_type"] = fix.event_type
    return held.model_copy(update=update)


def retraction(held: ev.InputEvent, now: ev.InputEvent | None) -> tuple[ev.InputEvent, ...]:
    """The correction events that take back a fact the tracker holds, and put what the
    source now says in its place (``now``; ``None``: the source no longer states it), once
    the operator accepts removals: a board (pairing or result) by ``pairing_removed`` (then
    the board again, with its colours or result as they are now), a bye by ``bye_removed``
    (then the new bye), a close by ``round_reopened``, a player by ``player_removed`` or
    ``player_corrected``. Nothing for the tournament record, which stands as first sent.

    >>> held = ev.Bye(tournament_id="t", round=3, player=7, kind="F")
    >>> [e.type for e in retraction(held, held.model_copy(update={"kind": "U"}))]
    ['bye_removed', 'bye']
    >>> [e.type for e in retraction(ev.RoundClosed(tournament_id="t", round=3), None)]
    ['round_reopened']
    """
    fix = correction(held, now)
    if fix is not None:
        return (fix,)
    tid = held.tournament_id
    again = () if now is None else (now,)
    if isinstance(held, ev.Pairing | ev.GameResult):
        removed = ev.PairingRemoved(
            tournament_id=tid, round=held.round, white=held.white, black=held.black
        )
        return (removed, *again)
    if isinstance(held, ev.Bye):
        return (ev.ByeRemoved(tournament_id=tid, round=held.round, player=held.player), *again)
    if isinstance(held, ev.RoundClosed):
        return (ev.RoundReopened(tournament_id=tid, round=held.round),)
    if isinstance(held, ev.PlayerRegistered):
        if now is None:
            return (ev.PlayerRemoved(tournament_id=tid, rank=held.rank),)
        return (ev.PlayerCorrected(**now.model_dump(exclude={"type"})),)
    return ()


@dataclasses.dataclass(frozen=True, slots=True)
class Fact:
    """An input event and where it came from."""

    event: ev.InputEvent
    source: Source


@functools.singledispatch
def _forget(event: ev.InputEvent, facts: dict[FactKey, Fact]) -> None:
    """Drop the facts a correction event takes back (:data:`_RETRACTIONS`), one function per
    type; other events take nothing back."""


@_forget.register
def _(event: ev.PairingRemoved, facts: dict[FactKey, Fact]) -> None:
    a, b = sorted((event.white, event.black))
    facts.pop(("pairing", event.round, a, b), None)
    facts.pop(("result", event.round, a, b), None)


@_forget.register
def _(event: ev.ByeRemoved, facts: dict[FactKey, Fact]) -> None:
    facts.pop(("bye", event.round, event.player), None)


@_forget.register
def _(event: ev.RoundReopened, facts: dict[FactKey, Fact]) -> None:
    facts.pop(("closed", event.round), None)


@_forget.register
def _(event: ev.PlayerRemoved, facts: dict[FactKey, Fact]) -> None:
    gone = [
        k for k in facts if k == ("player", event.rank) or (k[0] == "bye" and k[2] == event.rank)
    ]
    for key in gone:
        del facts[key]


_RETRACTIONS = tuple(kind for kind in _forget.registry if kind is not object)
"""The correction events that take facts back: those :func:`_forget` has a function for."""


@dataclasses.dataclass(frozen=True, slots=True)
class Report:
    """Something the follower must tell its operator.

    ``kind``: ``held`` (a snapshot not taken: half-written, or it loses facts), ``not
    expressible`` (a change the tracker keeps: not accepted, from a broadcast, or of the
    tournament record), ``disagreement``
    (the broadcast and the arbiter's file differ), ``unmatched`` (a broadcast player not found
    in the start list, or found twice), ``refused`` (a fact the tracker would refuse), ``info``.
    """

    kind: Literal["held", "not expressible", "disagreement", "unmatched", "refused", "info"]
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


@functools.singledispatch
def describe(event: ev.InputEvent) -> str:
    """A fact in words, for reports: one function per input event type.

    >>> describe(ev.Bye(tournament_id="t", round=3, player=7, kind="H"))
    'round 3: bye H of player 7'
    """
    return f"tournament {event.tournament_id}"


@describe.register
def _(event: ev.GameResult | ev.ResultCorrected) -> str:
    return f"round {event.round}: {event.white}-{event.black} {event.result}"


@describe.register
def _(event: ev.Pairing) -> str:
    return f"round {event.round}: board {event.white}-{event.black}"


@describe.register
def _(event: ev.Bye) -> str:
    return f"round {event.round}: bye {event.kind} of player {event.player}"


@describe.register
def _(event: ev.RoundClosed) -> str:
    return f"round {event.round} closed"


@describe.register
def _(event: ev.PlayerRegistered | ev.PlayerCorrected) -> str:
    return f"player {event.rank} ({event.name})"


@describe.register
def _(event: ev.PairingRemoved) -> str:
    return f"round {event.round}: board {event.white}-{event.black} taken back"


@describe.register
def _(event: ev.ByeRemoved) -> str:
    return f"round {event.round}: bye of player {event.player} taken back"


@describe.register
def _(event: ev.RoundReopened) -> str:
    return f"round {event.round} reopened"


@describe.register
def _(event: ev.PlayerRemoved) -> str:
    return f"player {event.rank} taken off the start list"


@describe.register
def _(event: ev.SystemCorrected) -> str:
    return f"tournament {event.tournament_id}: system {event.system.value}"


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
    """Facts only: rounds are marked finished (:func:`tracker.engine.transition.settle`) but nothing
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
            if isinstance(fact.event, _RETRACTIONS):
                _forget(fact.event, facts)
            elif isinstance(fact.event, ev.SystemCorrected):
                # the registration held, as the correction left it
                held = facts[("tournament",)].event
                assert isinstance(held, ev.TournamentRegistered)
                fixed = with_system(held, fact.event)
                facts[("tournament",)] = Fact(fixed, fact.source)
            else:
                facts[fact_key(fact.event)] = Fact(canonical(fact.event), fact.source)
        return cls(MappingProxyType(facts), state)

    @property
    def announced(self) -> int:
        """The last round the tracker has finished (0 before any)."""
        return self.state.announced if self.state else 0

    @property
    def finished(self) -> bool:
        """Whether the tracker has finished the tournament's last planned round (never while
        the number of rounds is unknown)."""
        return self.state is not None and self.state.tournament.is_last(self.state.announced)

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


def settle_facts(
    ledger: Ledger, candidates: Iterable[Fact], *, authority: bool, accept_removals: bool = False
) -> Settled:
    """Which of ``candidates`` (what a source says now, in the order a live event states
    facts) the tracker still needs, as the events to send.

    A fact already held is skipped. A fact the tracker holds with another value is a change:
    from the ``authority`` (the arbiter's file; the broadcast when it is the only source) a
    changed result is sent as its :func:`correction`, any other change as its
    :func:`retraction` when the operator accepts removals, and reported as *not expressible*
    otherwise; from a source that is not the authority it is reported as a disagreement and
    not sent. A fact the tracker would refuse is reported, not sent."""
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
        to_send: tuple[ev.InputEvent, ...] = (event,)
        if known is not None:
            if not authority:
                reports.append(_disagreement(known, candidate.source, event, kept=True))
                continue
            fix = correction(known.event, event)
            to_send = (fix,) if fix is not None else ()
            if not to_send and accept_removals:
                to_send = retraction(known.event, event)
            if not to_send:
                reports.append(
                    Report(
                        "not expressible",
                        f"{describe(known.event)}: the {_NAMES[candidate.source]} now says "
                        f"{_differences(known.event, event)}; the tracker keeps what it has"
                        + ("" if key == ("tournament",) else " (--accept-removals sends it)"),
                    )
                )
                continue
            if known.source != candidate.source:
                reports.append(_disagreement(known, candidate.source, event, kept=False))
        sent = _send(state, to_send, candidate.source, reports)
        if sent is None:
            continue
        state, events = sent
        for e in events:
            _forget(e.event, facts)
        facts[key] = Fact(event, candidate.source)
        send.extend(events)
    return Settled(Ledger(MappingProxyType(facts), state), tuple(send), tuple(reports))


def _send(
    state: TournamentState | None,
    events: Iterable[ev.InputEvent],
    source: Source,
    reports: list[Report],
) -> tuple[TournamentState | None, list[Fact]] | None:
    """The state after the events and those of them that change it (the others are implied
    by facts already sent: a pairing after its result); ``None``, with the report, if the
    tracker would refuse one."""
    out: list[Fact] = []
    for event in events:
        try:
            after = settle(state, event)
        except Rejected as exc:
            reports.append(Report("refused", f"{describe(event)}: {exc}"))
            return None
        if after is not state:
            state = after
            out.append(Fact(event, source))
    return state, out


def withdraw(ledger: Ledger, source: Source, stated: Mapping[FactKey, ev.InputEvent]) -> Settled:
    """The :func:`retraction` of every fact from ``source`` the tracker holds and the source
    no longer states (``stated``: all it states now), once the operator accepted the loss:
    boards and byes first (the latest round first: a player's boards go before the player),
    then closes, then players. A result gone from a board still paired takes the board back
    and pairs it again without its result. What the tracker refuses is reported and kept."""
    rank = {"pairing": 0, "result": 0, "bye": 0, "closed": 1, "player": 2}
    gone = sorted(
        (key for key, fact in ledger.facts.items() if fact.source == source and key not in stated),
        key=lambda k: (rank.get(str(k[0]), 3), -int(k[1]) if len(k) > 2 else 0, k),
    )
    facts = dict(ledger.facts)
    state = ledger.state
    send: list[Fact] = []
    reports: list[Report] = []
    for key in gone:
        fact = facts.get(key)
        if fact is None:
            continue  # taken back with another (a board's pairing with its result)
        again = stated.get(("pairing", *key[1:])) if key[0] == "result" else None
        sent = _send(state, retraction(fact.event, again), source, reports)
        if sent is None:
            continue
        state, events = sent
        for e in events:
            _forget(e.event, facts)
        facts.pop(key, None)
        if again is not None:
            facts[fact_key(again)] = Fact(again, source)
        send.extend(events)
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
    "retraction",
    "same",
    "settle_facts",
    "withdraw",
]
