"""Event feeds built for one rule and shared by the tests of several articles: a Swiss
with FID players (1.4.2a) and the fields of the title-category tests (0.6.2)."""

from __future__ import annotations

from datetime import date

from tests.support.builders import (
    START,
)
from tracker import contract as ev


def fid_swiss(edition: str | None) -> list[ev.InputEvent]:
    """Issue 12, 6, as a tournament: a 28-player Swiss (paired like a round robin, 9 of its
    rounds) hosted by GER. The candidate (GER, 2450) draws with nine GMs rated 2600 and wins
    two of those games (5½/9, 61 % -> 80, Rp 2680): six of them from GER, two from FRA, one
    from ESP. The field: 7 players from FRA and ESP, 14 under the FIDE flag, all GMs. The GM
    norm holds only if the event is exempt from 1.4.4 (6 > 5 from the own federation)."""
    tid = "fid-open"
    start = date(2025, 3, 1)
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            start_date=start,
            planned_rounds=9,
            host_federation="GER",
            edition=edition,
        )
    ]
    ring = list(range(2, 29))
    schedule = []  # (round, a, b)
    for number in range(1, 10):
        turn = ring[-(number - 1) :] + ring[: -(number - 1)] if number > 1 else ring
        line = [1, *turn]
        schedule += [(number, line[i], line[27 - i]) for i in range(14)]
    met = [b for number, a, b in schedule if a == 1]
    feds = dict.fromkeys(met[:6], "GER") | dict.fromkeys(met[6:8], "FRA") | {met[8]: "ESP"}
    rest = [r for r in range(2, 29) if r not in feds]
    feds |= dict.fromkeys(rest[:2], "FRA") | dict.fromkeys(rest[2:4], "ESP")
    feds |= dict.fromkeys(rest[4:], "FID")
    assert sum(1 for f in feds.values() if f in ("FRA", "ESP")) == 7
    assert sum(1 for f in feds.values() if f == "FID") == 14
    out.append(
        ev.PlayerRegistered(
            tournament_id=tid, rank=1, name="Candidate", federation="GER", rating=2450
        )
    )
    for rank in range(2, 29):
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid,
                rank=rank,
                name=f"GM {rank}",
                federation=feds[rank],
                title="GM",
                rating=2600,
            )
        )
    for number, a, b in schedule:
        won = a == 1 and number in (1, 2)
        out.append(
            ev.GameResult(
                tournament_id=tid,
                round=number,
                white=a,
                black=b,
                result="1-0" if won else "1/2-1/2",
            )
        )
    return out


def events(edition: str, sex: str, title: str | None, rating: int = 2300) -> list[ev.InputEvent]:
    tid = "cat"
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid, start_date=START[edition], planned_rounds=9, host_federation="GER"
        ),
        ev.PlayerRegistered(
            tournament_id=tid,
            rank=1,
            name="Anna",
            federation="GER",
            sex=sex,
            title=title,
            rating=rating,
        ),
    ]
    for rank, (name, s, t, fed) in enumerate(FIELD, 2):
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid, rank=rank, name=name, federation=fed, sex=s, title=t, rating=2350
            )
        )
    for number, result in enumerate(SCORES, 1):
        out.append(
            ev.GameResult(tournament_id=tid, round=number, white=1, black=number + 1, result=result)
        )
        out.append(ev.RoundClosed(tournament_id=tid, round=number))
    return out


FIELD = [
    # name, sex, title, federation: the candidate's nine opponents, all rated 2350
    ("Man GM", "m", "GM", "NED"),
    ("Iris IM", "w", "IM", "ESP"),
    ("Wanda WGM", "w", "WGM", "FRA"),
    ("Wera WGM", "w", "WGM", "FRA"),
    ("Wilma WGM", "w", "WGM", "FRA"),
    ("Ivo IM", "m", "IM", "ESP"),
    ("Greg GM", "m", "GM", "NED"),
    ("Fritz FM", "m", "FM", "GER"),
    ("Franz FM", "m", "FM", "GER"),
]


SCORES = ["1-0", "1-0", "1-0", "1-0", "1/2-1/2", "0-1", "0-1", "1-0", "0-1"]
"""The candidate (White every round): 5½/9 (61 % -> dp 80), Ra 2350, Rp 2430: a WGM and a
WIM norm (2400 / 2250), not an IM norm (2450)."""
