"""The one pure transition: ``apply(state, event) -> (state, emitted events)``.

Facts are stored; everything else is derived when a round finishes or a fact of a finished
round is corrected (:mod:`tracker.engine.corrections`), and compared with the alerts already in
force so that only changes are emitted. Applying the same fact twice changes nothing and
emits nothing.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from types import MappingProxyType

from tracker import contract as ev
from tracker.domain.players import Player
from tracker.engine.alerts import alert_id
from tracker.engine.carry import Carry
from tracker.engine.corrections import correct
from tracker.engine.evaluation import PlayerRound
from tracker.engine.facts import RECORDERS, Rejected, begin, register_tournament
from tracker.engine.round_alerts import (
    Emitted,
    norm_alerts,
    prospect_alerts,
    rating_alerts,
    summary_fields,
)
from tracker.engine.round_view import view_after
from tracker.engine.state import TournamentState
from tracker.engine.watch import Watch

Evaluate = Callable[[TournamentState, int], tuple[TournamentState, Emitted]]
"""What a finished round derives: the state after announcing round ``number`` and its
alerts (:func:`evaluate_round`)."""

Core = Callable[[TournamentState | None, ev.InputEvent], tuple[TournamentState, Emitted]]
"""A transition as the stream processor calls it (:func:`apply`, or :func:`apply` with a
lighter :data:`Evaluate` in the benchmarks that measure the shell around the core)."""


def apply(
    state: TournamentState | None, event: ev.InputEvent, evaluate: Evaluate | None = None
) -> tuple[TournamentState, Emitted]:
    """Apply one input event. Raises :exc:`Rejected` for input that must not change state.

    ``evaluate`` is what each finished round derives, :func:`evaluate_round` unless given:
    ``bench/bench_streams.py`` passes one that derives only ``round_finished``, to measure
    what the worker costs without the norm work."""
    after = record(state, event)
    if after is state or isinstance(event, ev.TournamentRegistered | ev.PlayerRegistered):
        return after, []  # a repeated fact derives nothing again; registrations derive nothing
    assert state is not None
    return _derive(state, after, event, evaluate or evaluate_round)


def record(state: TournamentState | None, event: ev.InputEvent) -> TournamentState:
    """The first half of :func:`apply`: the state with the event's fact recorded and nothing
    derived (no round announced, no alert). The same state object when the fact is already
    known. Raises :exc:`Rejected` exactly where :func:`apply` does, so that a publisher (the
    follower, ``follow/``) can check a fact against the facts already sent without the cost of
    evaluating rounds."""
    if isinstance(event, ev.TournamentRegistered):
        return register_tournament(state, event)
    if state is None:
        raise Rejected("tournament_id", f"unknown tournament {event.tournament_id!r}")
    if event.tournament_id != state.tournament.id:
        raise Rejected(
            "tournament_id", f"event for {event.tournament_id!r} given to {state.tournament.id!r}"
        )
    return RECORDERS[type(event)](state, event)


def settle(state: TournamentState | None, event: ev.InputEvent) -> TournamentState:
    """:func:`record`, and the rounds :func:`apply` would have announced after the same
    event, without evaluating anything: every round that has finished, and none that a
    correction made incomplete again. It keeps a facts-only copy of a tournament that
    refuses exactly what the core refuses (a pairing in a finished round, …)."""
    after = record(state, event)
    if after is state or state is None:
        return after
    last = _still_finished(state, after, event)
    if last != after.announced:
        after = dataclasses.replace(after, announced=last)
    finished = after.finished_after(last)
    return after if finished == last else dataclasses.replace(after, announced=finished)


# ----------------------------------------------------------------------------- derived


def _derive(
    before: TournamentState, after: TournamentState, event: ev.InputEvent, evaluate: Evaluate
) -> tuple[TournamentState, Emitted]:
    """What a new fact changes in what is announced. A fact of a round still being played
    derives nothing until its round finishes; every round that has now finished is
    announced, in order. A fact that changes a finished round (or a player) is a
    correction: :func:`tracker.engine.corrections.correct` works the announced rounds out again
    and emits what changed; a round reopened and no longer complete (and those after it)
    is no longer finished."""
    first = _first_round(event)
    if not _corrects(before, after, event):
        return _advance(after, evaluate)
    last = _still_finished(before, after, event)
    state, out = correct(before, after, first, last, _why(event))
    state, more = _advance(state, evaluate)
    return state, out + more


def _first_round(event: ev.InputEvent) -> int:
    """The first round a fact can change: its own, or 1 for a player's or the event's
    (``system_corrected``)."""
    return event.round if isinstance(event, ev.RoundEvent) else 1


def _corrects(before: TournamentState, after: TournamentState, event: ev.InputEvent) -> bool:
    """Whether the fact changes what finished rounds rest on: the event's system, a player's
    record, the games, byes or ratings of a finished round, or whether that round is still
    finished (a round closed, or opened for changes and still complete, is)."""
    first = _first_round(event)
    if first > before.announced:
        return False
    if after.tournament is not before.tournament or after.players is not before.players:
        return True
    return not after.round(first).same_facts(before.round(first)) or _unfinished(after, event)


def _unfinished(after: TournamentState, event: ev.InputEvent) -> bool:
    """Whether the fact's round is no longer finished: reopened (``round_reopened``) and not
    complete. A board or bye taken back leaves a finished round finished."""
    if not isinstance(event, ev.RoundEvent):
        return False
    rnd = after.round(event.round)
    return rnd.reopened and not rnd.complete(after.players)


def _still_finished(before: TournamentState, after: TournamentState, event: ev.InputEvent) -> int:
    """The last round that stays finished after the fact: the round before the one it took
    back, else the last one announced."""
    first = _first_round(event)
    if first <= before.announced and _unfinished(after, event):
        return first - 1
    return before.announced


@functools.singledispatch
def _why(event: ev.InputEvent) -> str:
    """The correction, as the reason of the alerts it leads to says it: one function per
    input event type that can correct a finished round."""
    raise TypeError(f"{type(event).__name__} corrects no round")


@_why.register
def _(event: ev.PlayerCorrected) -> str:
    return f"the registration of player {event.rank} was corrected"


@_why.register
def _(event: ev.SystemCorrected) -> str:
    return f"the event's system was corrected to {event.system.value.replace('_', ' ')}"


@_why.register
def _(event: ev.PlayerRemoved) -> str:
    return f"player {event.rank} was taken off the start list"


@_why.register
def _(event: ev.RoundReopened) -> str:
    return f"round {event.round} was reopened"


@_why.register
def _(event: ev.ByeRemoved) -> str:
    return f"the bye of player {event.player} in round {event.round} was taken back"


@_why.register
def _(event: ev.Bye) -> str:
    return f"a bye of player {event.player} was added to round {event.round}"


@_why.register
def _(event: ev.PairingRemoved) -> str:
    return f"board {event.white}-{event.black} of round {event.round} was taken back"


@_why.register
def _(event: ev.Pairing) -> str:
    return f"board {event.white}-{event.black} of round {event.round} was added"


@_why.register
def _(event: ev.GameResult | ev.ResultCorrected) -> str:
    board = f"board {event.white}-{event.black} of round {event.round}"
    return f"the result of {board} was corrected to {event.result}"


def _advance(state: TournamentState, evaluate: Evaluate) -> tuple[TournamentState, Emitted]:
    """Announce every round that has now finished, in order."""
    out: Emitted = []
    for number in range(state.announced + 1, state.finished_after(state.announced) + 1):
        state, emitted = evaluate(state, number)
        out.extend(emitted)
    return state, out


def evaluate_round(state: TournamentState, number: int) -> tuple[TournamentState, Emitted]:
    """Round ``number``'s ``round_finished``, then its alerts against those in force:
    norms, title levels, prospects."""
    view = view_after(state, number)
    watch = Watch(state, view)
    sent = dict(state.sent)
    out = norm_alerts(state, view, sent)
    out.extend(rating_alerts(state, view, sent))
    if view.gate.norms:
        out.extend(prospect_alerts(state, view, sent, watch=watch))
    finished = round_finished(state, number, view.rows, view.not_a_norm_event, view.ref)
    if f"round:{number}" in sent:
        sent[f"round:{number}"] = finished.alert_id  # finished again after a reopening
    out.insert(0, finished)  # first, then its alerts
    new_state = dataclasses.replace(
        state,
        sent=MappingProxyType(sent),
        announced=max(state.announced, number),
        carry=Carry.of(state, number, watch),
    )
    return new_state, out


def round_finished(
    state: TournamentState,
    number: int,
    rows: Sequence[PlayerRound],
    not_a_norm_event: str | None = None,
    ref: Callable[[Player], ev.PlayerRef] | None = None,
) -> ev.RoundFinished:
    """The round's summary: every player's score and live rating, and why the event gives
    no norm alerts where it cannot. One validation of the whole alert: a model per standing
    costs as much again. A round that finishes again after a reopening gets an id that
    rests on the reopening (``round:<n>``). ``ref``: how the alerts name a player, made
    once (:meth:`RoundView.ref`): a model the validation takes as it is."""
    t = state.tournament
    reopened = state.sent.get(f"round:{number}")
    parts = (t.id, "round_finished", number)
    ident = alert_id(*parts, reopened) if reopened else alert_id(*parts)
    fields = summary_fields(state, number, rows, not_a_norm_event, ref)
    return ev.RoundFinished.model_validate({**fields, "alert_id": ident})


# ----------------------------------------------------------------------------- helpers


__all__ = ["Rejected", "apply", "begin", "record", "settle"]
