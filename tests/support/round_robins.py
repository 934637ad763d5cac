"""The ten-player round robin of the transition tests, its events and a replay helper."""

from __future__ import annotations

from collections.abc import Iterable

from tests.support.builders import berger, tournament_events
from tracker import contract as ev
from tracker.engine.state import TournamentState
from tracker.engine.transition import apply

RR = "rr"


RR_NAMES = [
    ("Candidate, Carla", 2450, "IM", "ESP"),
    ("Anton, A", 2560, "GM", "HUN"),
    ("Bauer, B", 2530, "GM", "GER"),
    ("Claes, C", 2510, "GM", "NED"),
    ("Dudek, D", 2495, "GM", "POL"),
    ("Erben, E", 2470, "IM", "CZE"),
    ("Filic, F", 2440, "IM", "SRB"),
    ("Gruber, G", 2410, "FM", "AUT"),
    ("Hoxha, H", 2400, "IM", "ITA"),
    ("Ibert, I", 2380, "FM", "FRA"),
]


def rr_games() -> list[tuple[int, int, int, str]]:
    games = []
    for number, pairs in enumerate(berger(10), 1):
        for white, black in pairs:
            if white == 1:
                result = _WHITE_RESULT[CANDIDATE_RESULTS[black]]
            elif black == 1:
                result = _BLACK_RESULT[CANDIDATE_RESULTS[white]]
            else:
                result = "1/2-1/2"
            games.append((number, white, black, result))
    return games


def rr_events(close_rounds: bool = False, tid: str = RR) -> list[ev.InputEvent]:
    return tournament_events(
        tid,
        RR_NAMES,
        rr_games(),
        planned_rounds=9,
        system="round_robin",
        host="ESP",
        close_rounds=close_rounds,
    )


def run(
    events: Iterable[ev.InputEvent], state: TournamentState | None = None
) -> tuple[TournamentState, list[ev.OutputEvent]]:
    out: list[ev.OutputEvent] = []
    for e in events:
        state, emitted = apply(state, e)
        out.extend(emitted)
    assert state is not None
    return state, out


def finished_rounds(alerts: Iterable[ev.OutputEvent]) -> list[int]:
    return [a.round for a in alerts if isinstance(a, ev.RoundFinished)]


def correction(round_: int, white: int, black: int, result: str) -> ev.ResultCorrected:
    return ev.ResultCorrected(
        tournament_id=RR, round=round_, white=white, black=black, result=result
    )


CANDIDATE_RESULTS = {2: "0", 3: "=", 4: "1", 5: "=", 6: "1", 7: "1", 8: "1", 9: "=", 10: "1"}
"""The candidate's result against each start rank: 5 wins, 3 draws, 1 loss = 6½."""


_WHITE_RESULT = {"1": "1-0", "=": "1/2-1/2", "0": "0-1"}


_BLACK_RESULT = {"1": "0-1", "=": "1/2-1/2", "0": "1-0"}
