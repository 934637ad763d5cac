"""FIDE Title Regulations 2024 (``fide-2024``): 1.3 titles by rating, 1.5.6 the type of event,
and the tournament-level flags every norm alert carries (a half-point bye in the last round,
the Swiss exemption of 1.4.3d round by round, the 1.5.6 event type, events longer than 30
days of 1.1.4), all computed from the facts by ``apply``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from tests.support.builders import FIDE_2009, FIDE_2024, climber_events, live_levels, player
from tracker import contract as ev
from tracker.domain.results import Code
from tracker.domain.tournaments import EventKind, System, Tournament
from tracker.engine.event_flags import strong_swiss_every_round
from tracker.engine.transition import apply
from tracker.norms.search import Cell
from tracker.rules import TitleRules

FEDS = ("FRA", "ESP", "NED")


def replay(events: Sequence[ev.InputEvent]) -> list[ev.OutputEvent]:
    state = None
    out: list[ev.OutputEvent] = []
    for e in events:
        state, emitted = apply(state, e)
        out.extend(emitted)
    return out


def norm_event(
    *,
    start: date = date(2024, 5, 1),
    end: date | None = None,
    rounds: int = 9,
    system: System = System.SWISS,
    kinds: tuple[EventKind, ...] = (),
    feds: Sequence[str] = FEDS,
    last_round_bye: str | None = None,
) -> list[ev.InputEvent]:
    """The candidate (rank 1, GER 2450) meets GMs rated 2500 (ranks 2–10) in rounds 1–9 and
    scores 6/9 (67 % -> 125 -> 2625): a GM norm after round 9."""
    tid = "t"
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            start_date=start,
            end_date=end,
            planned_rounds=rounds,
            system=system,
            host_federation="GER",
            kinds=kinds,
        ),
        ev.PlayerRegistered(tournament_id=tid, rank=1, name="Cand", federation="GER", rating=2450),
    ]
    for rank in range(2, 11):
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid,
                rank=rank,
                name=f"Opp {rank}",
                federation=feds[rank % len(feds)],
                title="GM",
                rating=2500,
            )
        )
    if last_round_bye:
        out.append(ev.Bye(tournament_id=tid, round=rounds, player=1, kind=last_round_bye))
    for r in range(1, 10):
        result = "1-0" if r <= 6 else "0-1"
        out.append(ev.GameResult(tournament_id=tid, round=r, white=1, black=r + 1, result=result))
        out.append(ev.RoundClosed(tournament_id=tid, round=r))
    return out


def norm_flags(events: Sequence[ev.InputEvent]) -> ev.NormFlags:
    norms = [a for a in replay(events) if isinstance(a, ev.NormAchieved) and a.title == "GM"]
    assert len(norms) == 1
    assert norms[0].flags is not None
    return norms[0].flags


# ----------------------------------------------------------------------------- 1.3


def rating_events(start: date, rated_games: int | None) -> list[ev.InputEvent]:
    """A player rated 2290 beats five players rated 2290, one a round."""
    return climber_events(start, 2290, 5, rated_games=rated_games)


def fm_alert(events: Sequence[ev.InputEvent]) -> ev.TitleRatingReached:
    found = [a for a in replay(events) if isinstance(a, ev.TitleRatingReached) and a.title == "FM"]
    assert len(found) == 1
    return found[0]


def test_1_3_title_by_rating_needs_30_rated_games() -> None:
    """25 rated games before the event (K 40 for a new player, 8.3.3): each win against an
    equal rating is +20, so 2310 after round 1, but only 26 games. The FM level counts from
    round 5, the 30th rated game (2390)."""
    alert = fm_alert(rating_events(date(2024, 5, 1), 25))
    assert (alert.round, alert.live_rating, alert.rated_games, alert.edition) == (
        5,
        2390,
        30,
        "fide-2024",
    )


def test_1_3_the_2009_edition_has_no_game_count_before_1_july_2017() -> None:
    """An event starting the day before 1.3's 30 games took effect: fide-2009r2012, whose
    FM level counts from round 1 with 26 games, on a published list (2009 1.3, issue 19):
    said on the standing, not announced."""
    found = list(replay(rating_events(date(2017, 6, 30), 25)))
    assert not [a for a in found if isinstance(a, ev.TitleRatingReached)]
    assert {a.edition for a in found} == {"fide-2009r2012"}
    assert live_levels(found, 1) == [("FM", 1, 2310)]


def test_1_3_unknown_game_count_reports_the_level_and_says_so() -> None:
    """An established player (K 20): +10 a win, 2300 after round 1; the count is unknown."""
    alert = fm_alert(rating_events(date(2024, 5, 1), None))
    assert (alert.round, alert.live_rating, alert.rated_games) == (1, 2300, None)


# ----------------------------------------------------------------------------- 1.5.6


@pytest.mark.parametrize(
    ("start", "kinds", "system", "expected", "reason"),
    [
        pytest.param(
            date(2024, 5, 1),
            (EventKind.NATIONAL_CHAMPIONSHIP_FINAL,),
            System.ROUND_ROBIN,
            True,
            "1.5.6: the final stage of a national championship",
            id="national-final",
        ),
        pytest.param(
            date(2024, 5, 1),
            (EventKind.OLYMPIAD,),
            System.SWISS,
            True,
            "1.5.6: the Chess Olympiad",
            id="olympiad",
        ),
        pytest.param(date(2024, 5, 1), (), System.ROUND_ROBIN, False, "", id="plain-rr"),
        pytest.param(date(2024, 5, 1), (), System.SWISS, False, "", id="small-swiss"),
        pytest.param(
            date(2022, 6, 30),
            (EventKind.NATIONAL_CHAMPIONSHIP_FINAL,),
            System.ROUND_ROBIN,
            None,
            "",
            id="2009-no-rule",
        ),
        pytest.param(
            date(2022, 7, 1),
            (EventKind.NATIONAL_CHAMPIONSHIP_FINAL,),
            System.ROUND_ROBIN,
            True,
            "1.5.6: the final stage of a national championship",
            id="2009r2022-norm-after-30-june-2022",
        ),
        pytest.param(date(2023, 5, 1), (), System.ROUND_ROBIN, False, "", id="2009r2022-plain"),
    ],
)
def test_1_5_6_event_type_flag_on_the_norm(
    start: date,
    kinds: tuple[EventKind, ...],
    system: System,
    expected: bool | None,
    reason: str,
) -> None:
    """1.5.6 of 2024: an application with a norm achieved after 30 June 2022 needs one norm
    from the events it lists; the flag says whether this event is one (``None``: a norm
    before 1 July 2022, the rule does not reach it; ``fide-2009r2022`` from 1 July 2022)."""
    flags = norm_flags(norm_event(start=start, kinds=kinds, system=system))
    assert flags.event_type_1_5_6 is expected
    assert flags.event_type_reason == reason


SWISS_2024 = Tournament(id="s", start_date=date(2024, 5, 1), planned_rounds=3)


def strong(ratings: Sequence[int | None], rules: TitleRules = FIDE_2024, **missing: str) -> bool:
    """Players with these ratings, each playing rounds 1–3 (``p<rank>="2,3"`` makes a player
    miss those rounds)."""
    players = {rank: player(rank, rating) for rank, rating in enumerate(ratings, 1)}
    cells: dict[int, list[Cell]] = {}
    for rank in players:
        away = {int(r) for r in missing.get(f"p{rank}", "").split(",") if r}
        cells[rank] = [Cell(r, 999, Code.DRAW) for r in (1, 2, 3) if r not in away]
    return strong_swiss_every_round(SWISS_2024, players, cells, 3, rules)


def test_1_5_6_strong_swiss_40_participants_averaging_2000_every_round() -> None:
    assert strong([2000] * 40)
    assert not strong([2000] * 39 + [1999])  # average 1999.975
    assert not strong([2000] * 39)
    assert not strong([2000] * 40, FIDE_2009)  # no 1.5.6 in 2009


def test_1_5_6_participants_missing_two_rounds_do_not_count() -> None:
    # 41 players; one misses round 2, another round 3: 40 in every round
    assert strong([2000] * 41, p40="2", p41="3")
    # one misses round 1, another rounds 2 and 3: the second counts in no round, so round 1
    # has 39 (it would have 40 if players missing two rounds counted where present)
    assert not strong([2000] * 41, p40="1", p41="2,3")
    assert not strong([2000] * 40, p40="2")  # 39 in round 2


def test_1_5_6_unrated_participants_count_but_not_in_the_average() -> None:
    """Reading: every participant counts towards the 40, the average is of the rated."""
    assert strong([2000] * 39 + [None])
    assert not strong([1990] * 39 + [None])


# ----------------------------------------------------------------------------- flags


def test_flags_half_point_bye_in_the_last_round() -> None:
    """10 rounds, the norm after round 9 (secured early) and a half-point bye announced for
    round 10."""
    flags = norm_flags(norm_event(rounds=10, last_round_bye="H"))
    assert flags.half_point_bye_last_round
    assert not norm_flags(norm_event(rounds=10)).half_point_bye_last_round


def test_flags_swiss_exemption_per_round() -> None:
    """A small Swiss: the exemption fails in each of the 9 rounds."""
    flags = norm_flags(norm_event())
    assert flags.swiss_exemption_by_round == (False,) * 9
    assert not flags.swiss_exemption


@pytest.mark.parametrize(
    ("end", "longer"),
    [(None, None), (date(2024, 5, 30), False), (date(2024, 5, 31), True)],
)
def test_flags_events_longer_than_30_days(end: date | None, longer: bool | None) -> None:
    flags = norm_flags(norm_event(end=end))
    assert flags.longer_than_30_days is longer
    assert flags.ratings_at_game_date is bool(longer)


def test_flags_round_robin_norm_is_announced_only_after_the_last_round() -> None:
    """1.4.1e: a round robin must use all rounds, so a norm after round 9 of 10 is not
    secured early under 2024; 2009 announces it as secured."""
    for start, round_, early in ((date(2024, 5, 1), None, None), (date(2023, 5, 1), 9, True)):
        events = norm_event(start=start, rounds=10, system=System.ROUND_ROBIN)
        norms = [a for a in replay(events) if isinstance(a, ev.NormAchieved) and a.title == "GM"]
        assert [(a.round, a.secured_early) for a in norms] == ([(round_, early)] if round_ else [])
