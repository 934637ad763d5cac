"""Builders for the title-application tests: norms as an application counts them, and whole
tournaments in which one player makes a GM norm."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from tests.support.builders import berger
from tracker import contract as ev
from tracker.domain.tournaments import EventKind, System

CANDIDATE = 4_100_001
"""The FIDE id of the player who makes the norms."""


def norm(
    key: str,
    *,
    title: str = "GM",
    games: int = 9,
    credited: int | None = None,
    on: date = date(2025, 3, 1),
    start: date | None = None,
    edition: str = "fide-2024",
    exemption: str | None = None,
    normal: bool | None = True,
    short: bool = False,
    one_round_days: int | None = 5,
    event_type: bool | None = True,
    problems: tuple[str, ...] = (),
    tournament_id: str | None = None,
) -> ev.TitleNorm:
    """A norm of event ``key`` achieved ``on`` (started ``start``, by default the same day)."""
    return ev.TitleNorm(
        key=f"{key}/{title}",
        title=title,
        event=key,
        tournament_id=tournament_id or key,
        start_date=start or on,
        end_date=on,
        achieved_on=on,
        edition=edition,
        games=games,
        games_credited=credited if credited is not None else games,
        federation_exemption=exemption,
        normal_foreigners=normal,
        short_norm=short,
        one_round_days=one_round_days,
        event_type_1_5_6=event_type,
        source="test",
        problems=problems,
    )


def rating(
    value: int, on: date = date(2025, 1, 1), kind: str = "published", key: str | None = None
) -> ev.TitleRating:
    return ev.TitleRating(
        key=key or f"{kind}/{on.isoformat()}/{value}",
        rating=value,
        on=on,
        kind=kind,  # type: ignore[arg-type]
        source=f"{kind} test rating",
    )


PLAYER = ev.PlayerRef(
    rank=1, fide_id=CANDIDATE, name="Candidate, Carl", federation="GER", title="IM", rating=2480
)

_FEDS = ("FRA", "FRA", "FRA", "ESP", "ESP", "ESP", "NED", "NED", "NED")


def norm_tournament(
    tid: str,
    start: date,
    *,
    rating: int = 2480,
    rounds_a_day: Sequence[int] = (1,) * 9,
    kinds: Sequence[EventKind] = (),
    wins: int = 5,
    sex: str = "m",
    name: str = "",
) -> list[ev.InputEvent]:
    """A 10-player round robin of 9 rounds: the candidate (rank 1, an IM, a man unless
    ``sex`` says otherwise, GER, FIDE id
    :data:`CANDIDATE`, ``rating``) beats ``wins`` GMs rated 2550 (three each from FRA, ESP,
    NED) and draws with the others; every other game is drawn. 7/9 against Ra 2550 is a GM
    norm with one whole point to spare (5½ is needed): 10 games. ``rounds_a_day``: the
    rounds on each day from ``start`` on (TRF 132's dates)."""
    dates: list[date | None] = []
    day = start
    for n in rounds_a_day:
        dates += [day] * n
        day += timedelta(days=1)
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            name=name or f"Open {tid}",
            start_date=start,
            end_date=dates[-1],
            planned_rounds=9,
            system=System.ROUND_ROBIN,
            host_federation="GER",
            kinds=tuple(kinds),
            time_control="90 min/40 moves + 30 min + 30 sec/move",
            round_dates=tuple(dates),
        ),
        ev.PlayerRegistered(
            tournament_id=tid,
            rank=1,
            name=PLAYER.name,
            federation="GER",
            fide_id=CANDIDATE,
            sex=sex,  # type: ignore[arg-type]
            title="IM",
            rating=rating,
        ),
    ]
    for rank, fed in enumerate(_FEDS, 2):
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid,
                rank=rank,
                name=f"GM {fed} {rank}",
                federation=fed,
                fide_id=4_200_000 + rank,
                title="GM",
                rating=2550,
            )
        )
    for number, pairs in enumerate(berger(10), 1):
        for white, black in pairs:
            result = "1/2-1/2"
            if 1 in (white, black) and number <= wins:
                result = "1-0" if white == 1 else "0-1"
            out.append(
                ev.GameResult(
                    tournament_id=tid, round=number, white=white, black=black, result=result
                )
            )
    return out


def seed_events() -> dict[str, list[ev.InputEvent]]:
    """The three tournaments of ``seeds/titles/`` (checked equal to the files): the same
    player's GM norms of 10 games each, the first at an event that qualifies to the World
    Cup (1.5.6), the second with two rounds a day on four of its five days (no 1.1.3a), the
    third with one round a day. His live rating reaches 2500 in the first."""
    return {
        "titles-1-2025-03": norm_tournament(
            "titles-1-2025-03",
            date(2025, 3, 1),
            kinds=[EventKind.WORLD_CUP_QUALIFIER],
            name="Spring Masters 2025",
        ),
        "titles-2-2025-06": norm_tournament(
            "titles-2-2025-06",
            date(2025, 6, 1),
            rounds_a_day=(2, 2, 2, 2, 1),
            name="Summer Masters 2025",
        ),
        "titles-3-2025-09": norm_tournament(
            "titles-3-2025-09", date(2025, 9, 1), rating=2490, name="Autumn Masters 2025"
        ),
    }
