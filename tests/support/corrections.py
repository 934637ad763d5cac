"""A ten-player round robin fed with each kind of mistake an arbiter makes, and its
correction; the state and alerts a feed gives."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tests.support.builders import berger
from tests.support.round_robins import RR, RR_NAMES, rr_events, rr_games
from tracker import contract as ev
from tracker.engine.state import TournamentState
from tracker.engine.transition import Rejected, apply


def rr(close_rounds: bool, tid: str = RR) -> Events:
    """The round robin's feed, its rounds closed or not."""
    return rr_events(close_rounds, tid)


def feed(events: Sequence[ev.InputEvent]) -> tuple[TournamentState, list[ev.OutputEvent], int]:
    """The state and alerts after the events; refused events are left out (the worker
    dead-letters them) and counted."""
    state: TournamentState | None = None
    out: list[ev.OutputEvent] = []
    refused = 0
    for e in events:
        try:
            state, emitted = apply(state, e)
        except Rejected:
            refused += 1
            continue
        out.extend(emitted)
    assert state is not None
    return state, out, refused


def cases(tid: str = RR) -> dict[str, Case]:
    """Each mistake of the issue in the round robin ``tid``, with its correction."""

    def before_round_3(wrong: ev.InputEvent) -> Callable[[Events], Events]:
        return lambda e: [*e[: round_start(e, 3)], wrong, *e[round_start(e, 3) :]]

    ghost = ev.PlayerRegistered(tournament_id=tid, rank=11, name="Ghost", federation="ESP")
    win = next(g for g in rr_games() if g[0] == 1 and 1 in g[1:3])
    lost = "0-1" if win[1] == 1 else "1-0"
    return {
        "a pairing that contradicts the real one": (
            before_round_3(ev.Pairing(tournament_id=tid, round=3, white=1, black=OTHER)),
            [ev.PairingRemoved(tournament_id=tid, round=3, white=1, black=OTHER)],
        ),
        "an eleventh player": (
            lambda e: [*e[: after_registrations(e)], ghost, *e[after_registrations(e) :]],
            [ev.PlayerRemoved(tournament_id=tid, rank=11)],
        ),
        "round 3 closed before its last results": (
            lambda e: [
                *e[: round_start(e, 3) + 2],
                ev.RoundClosed(tournament_id=tid, round=3),
                *e[round_start(e, 3) + 2 :],
            ],
            [ev.RoundReopened(tournament_id=tid, round=3)],
        ),
        "a full-point bye for a player who played": (
            before_round_3(ev.Bye(tournament_id=tid, round=3, player=1, kind="F")),
            [ev.ByeRemoved(tournament_id=tid, round=3, player=1)],
        ),
        "a result on a board that was not paired": (
            before_round_3(
                ev.GameResult(tournament_id=tid, round=3, white=1, black=OTHER, result="1-0")
            ),
            [ev.PairingRemoved(tournament_id=tid, round=3, white=1, black=OTHER)],
        ),
        "an opponent's rating registered 300 points low": (
            lambda e: [_registration(2, tid, rating=2260) if _is(x, 2) else x for x in e],
            [_corrected(2, tid)],
        ),
        "the candidate registered as a GM": (
            lambda e: [_registration(1, tid, title="GM") if _is(x, 1) else x for x in e],
            [_corrected(1, tid)],
        ),
        "the candidate's round-1 win entered as a loss": (
            lambda e: [
                x.model_copy(update={"result": lost})
                if isinstance(x, ev.GameResult) and x.round == 1 and 1 in (x.white, x.black)
                else x
                for x in e
            ],
            [
                ev.ResultCorrected(
                    tournament_id=tid, round=1, white=win[1], black=win[2], result=win[3]
                )
            ],
        ),
    }


Events = list[ev.InputEvent]


def round_start(events: Events, number: int) -> int:
    return next(i for i, e in enumerate(events) if getattr(e, "round", 0) == number)


def after_registrations(events: Events) -> int:
    return max(i for i, e in enumerate(events) if isinstance(e, ev.PlayerRegistered)) + 1


CANDIDATE_R3 = next(b for b in berger(10)[2] if 1 in b)
OTHER = next(r for r in range(2, 11) if r not in CANDIDATE_R3)
"""A player the candidate does not meet in round 3."""


def _registration(rank: int, tid: str = RR, **fields: object) -> ev.PlayerRegistered:
    name, rating, title, fed = RR_NAMES[rank - 1]
    base = {"name": name, "rating": rating, "title": title, "federation": fed}
    return ev.PlayerRegistered.model_validate(
        {"tournament_id": tid, "rank": rank, **base, **fields}
    )


def _corrected(rank: int, tid: str = RR) -> ev.PlayerCorrected:
    return ev.PlayerCorrected(**_registration(rank, tid).model_dump(exclude={"type"}))


Case = tuple[Callable[[Events], Events], list[ev.InputEvent]]
"""How the mistake goes into the feed, and its correction."""


def _is(event: ev.InputEvent, rank: int) -> bool:
    return isinstance(event, ev.PlayerRegistered) and event.rank == rank
