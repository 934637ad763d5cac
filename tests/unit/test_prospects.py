"""Norm prospects worked out by hand, each citing the articles it rests on (2009 edition)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from fractions import Fraction

import pytest

from cli.main import main
from tests.support.builders import berger, tournament_events
from tests.support.paths import SEEDS
from tests.support.round_robins import RR, correction, rr_events, run
from tracker import contract as ev
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.engine import prospects
from tracker.engine.evaluation import standings
from tracker.engine.prospects import Need, Outlook, Status
from tracker.engine.state import TournamentState
from tracker.host.replay import Replay, read_events, replay


def seed_state(name: str, up_to: int) -> TournamentState:
    """The seed's state once round ``up_to`` is announced."""
    path = SEEDS / name
    run_ = Replay()
    for item in read_events(path.read_text(encoding="utf-8"), path.name):
        state = run_.states.get(item.event.tournament_id)
        if state is not None and state.announced == up_to:
            return state
        run_.feed(item)
    raise AssertionError(f"round {up_to} never announced")


def seed_alerts(name: str) -> list[ev.OutputEvent]:
    path = SEEDS / name
    return list(replay(read_events(path.read_text(encoding="utf-8"), path.name)))


# ----------------------------------------------------------------------------- round robin


def test_round_robin_near_miss_needs_every_remaining_point() -> None:
    """gm-roundrobin-2011, player 9 (IM Santoro) after round 6: 3½/6, three games left, against
    GM Wrobel 2495, IM Garrido Ruiz 2455 and FM Oberhuber 2410. His nine opponents total 22255,
    Ra 2473 (1.47b). 6½/9 is 72 % (dp 166): Rp 2639 ≥ 2600 (1.48); 6/9 is 67 % (dp 125):
    Rp 2598. Leaving a win out (1.42e) leaves 8 games (1.41a). Only 3/3 gives the norm."""
    state = seed_state("gm-roundrobin-2011.trf", 6)
    p = Outlook(state, 6).prospect(9, Title.GM, secured=False)
    assert p.status is Status.POSSIBLE
    assert p.exact
    assert [(r.opponent.name, r.opponent.rating) for r in p.remaining] == [
        ("Wrobel, Kacper", 2495),
        ("Garrido Ruiz, Pablo", 2455),
        ("Oberhuber, Lukas", 2410),
    ]
    assert [(w.score, w.results) for w in p.ways] == [(Fraction(3), (Code.WIN,) * 3)]
    # the mix of the whole record is already met, except the number of games (1.41a)
    assert [c.article for c in p.open if not c.met] == ["1.41a"]


def test_round_robin_near_miss_is_out_of_reach_when_6_half_cannot_be_reached() -> None:
    """The same player after round 8 has 5/8 (he finished with 6): at most 6/9, Rp 2598 < 2600
    (1.48); the transition says so once, with the reason."""
    state = seed_state("gm-roundrobin-2011.trf", 8)
    p = Outlook(state, 8).prospect(9, Title.GM, secured=False)
    assert p.status is Status.OUT_OF_REACH
    assert p.reason.startswith("rating:")
    gone = [
        a
        for a in seed_alerts("gm-roundrobin-2011.trf")
        if isinstance(a, ev.NormOutOfReach) and a.player.rank == 9
    ]
    assert [(a.round, a.title) for a in gone] == [(8, "GM")]


def test_winner_of_the_round_robin_needs_five_and_a_half_of_eight_after_round_one() -> None:
    """Player 6 (IM Garrido Ruiz) after round 1 enters contention for the GM norm: with the
    nine opponents' total 22195 (Ra 2466), 6½/9 (72 %, dp 166) gives Rp 2632 and 6/9
    (67 %, dp 125) only 2591 (1.48); he has 1 point, so 5½ of the last 8."""
    alerts = seed_alerts("gm-roundrobin-2011.trf")
    (entered,) = [
        a
        for a in alerts
        if isinstance(a, ev.NormProspect) and a.player.rank == 6 and a.status == "entered"
    ]
    assert entered.round == 1
    assert entered.prospect is not None
    assert entered.prospect.exact
    assert entered.prospect.games_left == 8
    assert entered.prospect.ways[0].score == 5.5
    assert [w.score for w in entered.prospect.ways] == [5.5, 6, 6.5, 7, 7.5, 8]
    # the wire form gives each way's example as one TRF letter per game of ``remaining``,
    # whose letters add up to the way's score
    points = {"1": 2, "=": 1, "0": 0}
    for w in entered.prospect.ways:
        assert len(w.results) == len(entered.prospect.remaining) == 8
        assert sum(points[r] for r in w.results) == 2 * w.score


# ----------------------------------------------------------------------------- Swiss


def swiss_state(pool: Sequence[tuple[str, int | None, str | None, str]]) -> TournamentState:
    """A 9-round Swiss after round 7: the candidate (IM, GER, 2450) has met seven 2500 GMs of
    seven federations and scored 4½ (three wins, three draws, a loss); ``pool`` are the
    players she has not met (start ranks 9, 10, …)."""
    met = [
        (f"GM {fed}", 2500, "GM", fed) for fed in ("FRA", "ESP", "NED", "HUN", "POL", "ENG", "USA")
    ]
    names = [("Candidate", 2450, "IM", "GER"), *met, *pool]
    results = ["1-0", "1-0", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "0-1"]
    games = [(r, 1, r + 1, results[r - 1]) for r in range(1, 8)]
    # everyone else plays someone every round, never the candidate's opponents of that round
    others = list(range(2, len(names) + 1))
    for r in range(1, 8):
        free = [x for x in others if x != r + 1]
        games += [(r, free[i], free[i + 1], "1/2-1/2") for i in range(0, len(free) - 1, 2)]
    events = tournament_events("sw", names, games, planned_rounds=9, start=date(2012, 5, 1))
    state, _ = run(events)
    assert state.announced == 7
    return state


def test_swiss_average_needed_per_score_with_the_floor_and_rounding() -> None:
    """Seven 2500 opponents (17500), 4½/7, two rounds left; the strongest players not met
    are 2600 and 2100, the second counted at the GM floor of 2200 (1.46c): 2400 at best.

    * 2/2 → 6½/9, 72 %, dp 166: Ra must be 2434 (1.48), a total of 21902 with 1.47b's
      rounding (2433.5 rounds up), so the two must bring 4402: average 2201.
    * 1½/2 → 6/9, 67 %, dp 125: Ra 2475, total 22271, the two must bring 4771: average 2386.
    * 1/2 → 5½/9, 61 %, dp 80: Ra 2520, total 22676, 5176 from two: above 4800, impossible.

    Fewer than two counted games would leave fewer than nine (1.41a)."""
    pool = [("Strong", 2600, "GM", "ITA"), ("Weak", 2100, None, "ITA"), ("C", 2000, None, "ITA")]
    state = swiss_state(pool)
    p = Outlook(state, 7).prospect(1, Title.GM, secured=False)
    assert p.status is Status.POSSIBLE
    assert not p.exact
    assert p.games_left == 2
    assert p.needs == (
        Need(games=2, score=Fraction(3, 2), average=2386, best=2400),
        Need(games=2, score=Fraction(2), average=2201, best=2400),
    )


def test_swiss_out_of_reach_when_the_field_cannot_give_the_average() -> None:
    """The same record when the players left are 2100, 2000 and 1900: at best 2200 (floor)
    and 2100, so 4300 < 4402 even with 2/2 (1.48)."""
    pool = [("A", 2100, None, "ITA"), ("B", 2000, None, "ITA"), ("C", 1900, None, "ITA")]
    p = Outlook(swiss_state(pool), 7).prospect(1, Title.GM, secured=False)
    assert p.status is Status.OUT_OF_REACH
    assert "strongest opponents still available" in p.reason


def test_swiss_out_of_reach_on_the_title_mix() -> None:
    """Seven opponents, none a GM this time (IMs at 2600), and the players left untitled:
    three GMs are needed (1.45b: max(3, ⌈9/3⌉)), whatever the ratings."""
    met = [
        (f"IM {fed}", 2600, "IM", fed) for fed in ("FRA", "ESP", "NED", "HUN", "POL", "ENG", "USA")
    ]
    names = [
        ("Candidate", 2450, "IM", "GER"),
        *met,
        ("X", 2650, None, "ITA"),
        ("Y", 2640, None, "ITA"),
    ]
    games = [(r, 1, r + 1, "1-0") for r in range(1, 8)]
    events = tournament_events("mo", names, games, planned_rounds=9, start=date(2012, 5, 1))
    state, _ = run(events)
    p = Outlook(state, 7).prospect(1, Title.GM, secured=False)
    assert p.status is Status.OUT_OF_REACH
    assert p.reason == "mix: 1.45b GM title mix"


def test_a_norm_secured_before_the_last_round_ends_contention() -> None:
    """swiss-11r-secured-2013, player 14: the GM norm is achieved after round 9 of 11 and the
    games after it may be ignored (1.42f), so he leaves contention then, with the norm."""
    state = seed_state("swiss-11r-secured-2013.trf", 9)
    p = Outlook(state, 9).prospect(14, Title.GM, secured=True)
    assert p.status is Status.SECURED
    alerts = seed_alerts("swiss-11r-secured-2013.trf")
    mine = [
        (a.type, a.round, getattr(a, "status", ""))
        for a in alerts
        if isinstance(a, ev.NormProspect | ev.NormOutOfReach | ev.NormAchieved)
        and a.player.rank == 14
    ]
    assert mine[-2:] == [("norm_achieved", 9, ""), ("norm_prospect", 9, "left")]
    assert mine[0] == ("norm_prospect", 1, "entered")


# ----------------------------------------------------------------------------- transition


def through_round(number: int) -> tuple[TournamentState, list[ev.OutputEvent]]:
    events = rr_events(close_rounds=True)
    last = max(i for i, e in enumerate(events) if getattr(e, "round", 0) == number)
    return run(events[: last + 1])


def test_a_correction_that_ends_contention_says_out_of_reach_and_back_re_enters() -> None:
    """The round robin of test_transition: the candidate (rank 1) has 6½ after round 8 and
    one game left: 6½/9 (Ra 2466, 72 %, dp 166, Rp 2632, 1.48) whatever it brings, so she
    leaves contention with the norm certain (issue 19). Correcting her round-1 win into a
    loss leaves 5½ and one game: the norm is no longer certain but still possible, so she is
    in contention again. Correcting her round-3 win into a draw too leaves at most 6/9 (67 %,
    dp 125, Rp 2591): out of reach. Correcting it back brings her into contention again,
    under a new id; repeats change nothing, and the same facts give the same ids."""
    state, alerts = through_round(8)
    entered = [a for a in alerts if isinstance(a, ev.NormProspect) and a.player.rank == 1]
    assert [(a.round, a.status) for a in entered] == [(1, "entered"), (8, "left")]
    assert entered[1].reason == "norm certain whatever the remaining games bring"
    assert next(b for b in berger(10)[0] if 1 in b) == (1, 10)
    assert next(b for b in berger(10)[2] if 1 in b) == (1, 8)

    def mine(out: list[ev.OutputEvent]) -> list[tuple[str, int]]:
        return [
            (a.type, a.round)
            for a in out
            if isinstance(a, ev.NormProspect | ev.NormOutOfReach) and a.player.rank == 1
        ]

    state, first = run([correction(1, 1, 10, "0-1")], state)
    assert mine(first) == [("norm_prospect", 8)]
    assert [a.type for a in first if a.type.startswith("norm_") and a.player.rank == 1] == [
        "norm_revoked",
        "norm_prospect",
    ]
    state, out = run([correction(3, 1, 8, "1/2-1/2")], state)
    assert mine(out) == [("norm_out_of_reach", 8)]
    (gone,) = [a for a in out if isinstance(a, ev.NormOutOfReach) and a.player.rank == 1]
    assert gone.reason.startswith("rating:")
    again, nothing = run([correction(3, 1, 8, "1/2-1/2")], state)
    assert nothing == []
    assert again == state
    state, back = run([correction(3, 1, 8, "1-0")], state)
    assert mine(back) == [("norm_prospect", 8)]
    (reentry,) = [a for a in back if isinstance(a, ev.NormProspect) and a.player.rank == 1]
    assert reentry.status == "entered"
    assert reentry.prospect is not None
    assert [w.score for w in reentry.prospect.ways] == [1]
    assert reentry.alert_id != entered[0].alert_id
    # the ids rest on the facts: the same corrections again give the same ids
    replayed, _ = through_round(8)
    ids = []
    for fix in (
        correction(1, 1, 10, "0-1"),
        correction(3, 1, 8, "1/2-1/2"),
        correction(3, 1, 8, "1-0"),
    ):
        replayed, emitted = run([fix], replayed)
        ids += [a.alert_id for a in emitted]
    assert ids == [a.alert_id for a in [*first, *out, *back]]
    assert gone.alert_id in ids
    assert reentry.alert_id in ids


def test_players_out_of_reach_from_the_start_get_no_alert() -> None:
    """federation-fail-2011: nine UKR players and one MDA player; no one can meet 1.43 (two
    foreign federations) and 1.44a, so no one ever enters contention and no one is told
    the norm is out of reach."""
    alerts = seed_alerts("federation-fail-2011.trf")
    assert not [a for a in alerts if isinstance(a, ev.NormProspect | ev.NormOutOfReach)]
    state = seed_state("federation-fail-2011.trf", 3)
    view = Outlook(state, 3)
    assert all(p.status is Status.OUT_OF_REACH for p in view.all(secured=set()).values())


def test_every_contender_of_a_finished_tournament_has_left() -> None:
    """After the last round no games are left: each player who entered contention has left
    it, with the norm (norm_prospect left) or without (norm_out_of_reach), exactly once."""
    for name in ("swiss-open-9r-2012.trf", "dropped-win-2012.trf", "forfeits-2012.trf"):
        open_: dict[tuple[int, str], int] = {}
        for a in seed_alerts(name):
            if isinstance(a, ev.NormProspect | ev.NormOutOfReach):
                key = (a.player.rank, a.title)
                entering = isinstance(a, ev.NormProspect) and a.status == "entered"
                open_[key] = open_.get(key, 0) + (1 if entering else -1)
                assert open_[key] in (0, 1), (name, key)
        assert set(open_.values()) == {0}, name


def test_standings_are_unchanged_by_prospects() -> None:
    """Prospects read the facts only: the standings of RR after round 5 are those computed
    without them."""
    state, _ = through_round(5)
    before = standings(state, 5)
    Outlook(state, 5).all(secured=set())
    assert standings(state, 5) == before
    assert state.tournament.id == RR


def test_a_round_robin_too_large_to_try_every_set_gives_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When a round robin has too many sets of counted games to try (here forced by a budget
    of none), whether the norm is possible stays exact (winning every game decides it), and
    the scores listed are those the bound does not rule out: never fewer than the exact ones
    (player 9 of gm-roundrobin-2011 after round 6 needs 3/3)."""
    state = seed_state("gm-roundrobin-2011.trf", 6)
    monkeypatch.setattr(prospects.outlook, "EXACT_SUBSETS", 0)
    p = Outlook(state, 6).prospect(9, Title.GM, secured=False)
    assert p.status is Status.POSSIBLE
    assert not p.exact
    assert p.ways
    assert p.ways[0].score <= 3
    assert all(w.results == () for w in p.ways)
    assert p.needs
    assert len(p.remaining) == 3


def test_check_prints_the_prospect_before_the_last_round(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["check", str(SEEDS / "gm-roundrobin-2011.trf"), "--player", "9", "--round", "6"])
    out = capsys.readouterr().out
    assert code == 0
    assert "GM norm prospect for IM Santoro, Matteo (ITA) after round 6: possible" in out
    assert "   3/3: 1 Wrobel, Kacper, 1 Garrido Ruiz, Pablo, 1 Oberhuber, Lukas" in out
    code = main(["check", str(SEEDS / "gm-roundrobin-2011.trf"), "--player", "9", "--round", "8"])
    out = capsys.readouterr().out
    assert "after round 8: out_of_reach" in out
    assert "rating: no score in the remaining games" in out
    code = main(["check", str(SEEDS / "gm-roundrobin-2011.trf"), "--player", "9"])
    assert "prospect" not in capsys.readouterr().out  # the last round: nothing is left
