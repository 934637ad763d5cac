"""A tournament's state as a record of its current facts and its memory of alerts, so that a
host can store the state a correction leaves instead of the history of corrections that led
to it (issue 22): a tournament corrected a thousand times is rebuilt from one record and the
facts after it, not by replaying the thousand corrections.

The record holds exactly what :class:`~tracker.engine.state.TournamentState` holds -- nothing
derived (:mod:`tracker.engine.state`): the registered tournament, the players as registered
or corrected, each round's boards, byes, game-date ratings and flags, the last round
announced, and the alerts in force by subject with their ids. The editions are chosen again
from the tournament, as its registration chose them (:func:`~tracker.engine.transition.begin`).
So ``state_of(record_of(s)) == s``, with the players, rounds, boards and byes in the same
order, and every event after gives the same alerts (tested against the live states of
corrected tournaments).

>>> from datetime import date
>>> from tracker import contract as ev
>>> from tracker.engine.transition import apply
>>> s, _ = apply(None, ev.TournamentRegistered(
...     tournament_id="t", name="T", start_date=date(2012, 5, 1), planned_rounds=3))
>>> state_of(record_of(s)) == s
True
"""

from __future__ import annotations

from types import MappingProxyType

from pydantic import BaseModel, ConfigDict

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.tournaments import Tournament
from tracker.engine.facts import begin
from tracker.engine.state import Round, TournamentState


class RoundRecord(BaseModel):
    """One round of the state: boards as ``(white, black, white's code, black's code)`` (the
    codes ``None`` until the result), byes as ``(rank, code)``, ratings as ``(rank, rating)``,
    each in the round's order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    boards: tuple[tuple[int, int, str | None, str | None], ...] = ()
    byes: tuple[tuple[int, str], ...] = ()
    closed: bool = False
    ratings: tuple[tuple[int, int], ...] = ()
    implied: bool = False
    amended: bool = False
    reopened: bool = False


class StateRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tournament: Tournament
    players: tuple[Player, ...]
    """In the state's order."""
    rounds: tuple[RoundRecord, ...]
    announced: int
    sent: tuple[tuple[str, str], ...]
    """``(subject, alert id)`` of the alerts in force, in the state's order."""


def record_of(state: TournamentState) -> StateRecord:
    rounds = []
    for number, rnd in state.rounds.items():
        boards = tuple(
            (white, black, *((r[0].value, r[1].value) if r is not None else (None, None)))
            for (white, black), r in rnd.boards.items()
        )
        rounds.append(
            RoundRecord(
                number=number,
                boards=boards,
                byes=tuple((rank, code.value) for rank, code in rnd.byes.items()),
                closed=rnd.closed,
                ratings=tuple(rnd.ratings.items()),
                implied=rnd.implied,
                amended=rnd.amended,
                reopened=rnd.reopened,
            )
        )
    return StateRecord(
        tournament=state.tournament,
        players=tuple(state.players.values()),
        rounds=tuple(rounds),
        announced=state.announced,
        sent=tuple(state.sent.items()),
    )


def state_of(record: StateRecord) -> TournamentState:
    rounds = {}
    for r in record.rounds:
        boards: dict[tuple[int, int], tuple[Code, Code] | None] = {}
        for white, black, w, b in r.boards:
            boards[(white, black)] = (Code(w), Code(b)) if w is not None and b is not None else None
        rounds[r.number] = Round(
            MappingProxyType(boards),
            MappingProxyType({rank: Code(code) for rank, code in r.byes}),
            r.closed,
            MappingProxyType(dict(r.ratings)),
            r.implied,
            r.amended,
            r.reopened,
        )
    base = begin(record.tournament)
    return TournamentState(
        base.tournament,
        base.title_rules,
        base.rating_rules,
        base.edition_reason,
        MappingProxyType({p.rank: p for p in record.players}),
        MappingProxyType(rounds),
        record.announced,
        MappingProxyType(dict(record.sent)),
    )


__all__ = ["RoundRecord", "StateRecord", "record_of", "state_of"]
