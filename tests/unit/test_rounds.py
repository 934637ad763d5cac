"""Rounds as they happen: a round finishes when it has been played, never because byes or
absences were entered for it ahead; the planned number of rounds comes from the file or is
unknown, and while it is unknown no round is the last.

The open used here is generated (``tests/open_files.py``): 24 players, 9 rounds, host ESP.
The candidate (start rank 1, ESP, 2380) scores 6½/9 against opponents averaging 2315: 72 %
gives dp 166, Rp 2481, an IM norm (fide-2009: 2 foreign federations, 5 of ESP at most, 3 IMs,
6 title-holders) after the last round only. The cuts reproduce what real exports do: the
file after round 5 with a half-point bye entered for round 6, without XXR, with round 6
paired but not played.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

import pytest

from cli.main import main
from tests.support.builders import tournament_events
from tests.support.open_files import cut, swiss_file, text
from tests.support.round_robins import finished_rounds, run
from tracker import contract as ev
from tracker.domain.tournaments import System
from tracker.formats.trf import TrfFile, TrfHeader, TrfPlayer, parse_trf, to_events
from tracker.host.replay import read_events, replay

ENTRANTS = [
    ("Candidate, Carlos", 2380, None, "ESP"),
    ("Gm, Alpha", 2560, "GM", "FRA"),
    ("Gm, Beta", 2520, "GM", "POR"),
    ("Im, Gamma", 2440, "IM", "ESP"),
    ("Im, Delta", 2420, "IM", "ITA"),
    ("Fm, Eps", 2360, "FM", "ESP"),
    ("Im, Zeta", 2400, "IM", "ESP"),
    ("Fm, Eta", 2330, "FM", "ARG"),
    ("Pl, Theta", 2196, None, "ESP"),
    ("Pl, Iota", 2210, None, "POR"),
    ("Fm, Kappa", 2300, "FM", "ESP"),
    ("Pl, Lambda", 2180, None, "FRA"),
    ("Pl, Mu", 2150, None, "ESP"),
    ("Pl, Nu", 2120, None, "ESP"),
    ("Pl, Xi", 2100, None, "ESP"),
    ("Pl, Omicron", 2080, None, "AND"),
    ("Pl, Pi", 2050, None, "ESP"),
    ("Pl, Rho", 2020, None, "ESP"),
    ("Pl, Sigma", 2000, None, "ESP"),
    ("Pl, Tau", 1980, None, "ESP"),
    ("Pl, Upsilon", 1950, None, "ESP"),
    ("Pl, Phi", 1900, None, "ESP"),
    ("Pl, Chi", 1850, None, "ESP"),
    ("Pl, Psi", 1800, None, "ESP"),
]
CANDIDATE = [(12, "1"), (8, "1"), (5, "="), (6, "1"), (11, "0"), (4, "1"), (10, "="), (7, "=")]
CANDIDATE += [(9, "1")]
FULL = swiss_file(ENTRANTS, 9, {1: CANDIDATE})
BYE_AHEAD = 20
"""Gets a half-point bye entered for round 6 in the cut."""


def alerts_of(trf_text: str, name: str = "open.trf") -> list[ev.OutputEvent]:
    return list(replay(read_events(trf_text, name)))


def full_alerts() -> list[ev.OutputEvent]:
    return alerts_of(text(FULL))


def norms(alerts: list[ev.OutputEvent]) -> set[tuple[int, str]]:
    return {(a.player.rank, a.title) for a in alerts if isinstance(a, ev.NormAchieved)}


def out_of_reach(alerts: list[ev.OutputEvent]) -> set[tuple[int, str]]:
    return {(a.player.rank, a.title) for a in alerts if isinstance(a, ev.NormOutOfReach)}


def test_the_full_open_gives_the_candidate_an_im_norm_after_the_last_round() -> None:
    alerts = full_alerts()
    (norm,) = [a for a in alerts if isinstance(a, ev.NormAchieved)]
    assert (norm.player.rank, norm.title, norm.round) == (1, "IM", 9)
    assert (norm.evidence.score, norm.evidence.games) == (6.5, 9)
    assert (norm.evidence.average_rating, norm.evidence.performance) == (2315, 2481)
    assert not norm.secured_early


CUT = cut(FULL, 5, ahead={BYE_AHEAD: "H"})


def test_a_bye_entered_ahead_is_sent_but_does_not_finish_its_round() -> None:
    events = to_events(parse_trf(text(CUT)))
    closed = [e.round for e in events if isinstance(e, ev.RoundClosed)]
    assert closed == [1, 2, 3, 4, 5]
    round_6 = [e for e in events if getattr(e, "round", None) == 6]
    assert round_6 == [ev.Bye(tournament_id="generated-open", round=6, player=BYE_AHEAD, kind="H")]


def test_the_cut_open_finishes_five_rounds_and_rules_out_no_norm_of_the_full_event() -> None:
    alerts = alerts_of(text(CUT))
    assert finished_rounds(alerts) == [1, 2, 3, 4, 5]
    assert not any(a.last_round for a in alerts if isinstance(a, ev.RoundFinished))
    assert not out_of_reach(alerts) & norms(full_alerts())
    entered = {
        (a.player.rank, a.title)
        for a in alerts
        if isinstance(a, ev.NormProspect) and a.status == "entered"
    }
    assert (1, "IM") in entered


def test_the_cut_open_gives_the_alerts_the_full_event_gave_up_to_round_5() -> None:
    def upto5(alerts: list[ev.OutputEvent]) -> list[str]:
        return [a.alert_id for a in alerts if a.round <= 5]

    assert upto5(alerts_of(text(CUT))) == upto5(full_alerts())


def test_a_round_paired_without_results_is_in_progress() -> None:
    """Round 6 paired, no result yet, and a bye entered for round 7: five rounds finish."""
    pending = cut(FULL, 5, ahead={BYE_AHEAD: "H"}, pending=True)
    events = to_events(parse_trf(text(pending)))
    assert [e.round for e in events if isinstance(e, ev.RoundClosed)] == [1, 2, 3, 4, 5]
    assert any(isinstance(e, ev.Pairing) and e.round == 6 for e in events)
    assert not any(isinstance(e, ev.GameResult) and e.round == 6 for e in events)
    alerts = alerts_of(text(pending))
    assert finished_rounds(alerts) == [1, 2, 3, 4, 5]
    assert not out_of_reach(alerts) & norms(full_alerts())


def test_a_blank_cell_in_a_played_round_is_an_absence() -> None:
    """TRF reads a blank cell as ``0000``, not paired: in a round that was played that is a
    zero-point bye (and it keeps nothing waiting); in a round not paired yet it is nothing."""
    five = cut(FULL, 5)
    p = five.player(BYE_AHEAD)
    board = p.cells[2]
    assert board is not None
    assert board.opponent is not None
    other = five.player(board.opponent)
    blank = [
        dataclasses.replace(q, cells=(*q.cells[:2], None, *q.cells[3:]))
        if q.rank in (p.rank, other.rank)
        else q
        for q in five.players
    ]
    events = to_events(dataclasses.replace(five, players=tuple(blank)))
    byes = {(e.player, e.kind) for e in events if isinstance(e, ev.Bye) and e.round == 3}
    assert byes == {(p.rank, "Z"), (other.rank, "Z")}
    assert [e.round for e in events if isinstance(e, ev.RoundClosed)] == [1, 2, 3, 4, 5]
    ahead = to_events(cut(FULL, 5, ahead={BYE_AHEAD: "H"}))
    assert [(e.player, e.kind) for e in ahead if isinstance(e, ev.Bye) and e.round == 6] == [
        (BYE_AHEAD, "H")
    ]


# ----------------------------------------------------------------------------- planned rounds


def test_without_xxr_the_number_of_rounds_is_unknown_and_no_round_is_the_last() -> None:
    unknown = cut(FULL, 5, planned=False)
    trf = parse_trf(text(unknown))
    assert trf.planned_rounds is None
    (registered,) = [e for e in to_events(trf) if isinstance(e, ev.TournamentRegistered)]
    assert registered.planned_rounds is None
    alerts = alerts_of(text(unknown))
    assert finished_rounds(alerts) == [1, 2, 3, 4, 5]
    assert not any(a.last_round for a in alerts if isinstance(a, ev.RoundFinished))
    # nobody is out of reach for lack of games: 5 games so far, any number to come
    assert not any(a.reason.startswith("games") for a in alerts if isinstance(a, ev.NormOutOfReach))
    assert not out_of_reach(alerts) & norms(full_alerts())
    entered = [a for a in alerts if isinstance(a, ev.NormProspect) and a.player.rank == 1]
    assert entered
    assert entered[0].prospect is not None
    assert entered[0].prospect.games_left is None
    assert "the number of rounds is not known" in entered[0].prospect.assumption


def test_the_full_file_without_xxr_never_judges_a_norm_as_final() -> None:
    """The full event without XXR: nine rounds are there, but nothing says the ninth is the
    last. fide-2009 lets a Swiss norm be secured before the last round (1.42f), so the
    candidate's norm is announced as secured, never as a last-round (final) verdict."""
    alerts = alerts_of(text(cut(FULL, 9, planned=False)))
    assert not any(a.last_round for a in alerts if isinstance(a, ev.RoundFinished))
    (norm,) = [a for a in alerts if isinstance(a, ev.NormAchieved)]
    assert (norm.player.rank, norm.round, norm.secured_early) == (1, 9, True)


def test_the_round_dates_give_the_number_of_rounds() -> None:
    unknown = text(cut(FULL, 5, planned=False))
    dates = "".join(f"{d:<10}" for d in [f"12/07/{day:02d}" for day in range(1, 10)])
    with_dates = unknown.replace("042 ", f"{'132':<91}{dates}\n042 ", 1)
    trf = parse_trf(with_dates)
    assert len(trf.header.round_dates) == 9
    assert trf.planned_rounds == 9
    alerts = alerts_of(with_dates)
    assert finished_rounds(alerts) == [1, 2, 3, 4, 5]


def test_trf26_142_gives_the_number_of_rounds() -> None:
    unknown = text(cut(FULL, 5, planned=False))
    assert parse_trf(unknown.replace("042 ", "142 9\n042 ", 1)).planned_rounds == 9


@pytest.mark.parametrize(
    ("system", "players", "rounds"),
    [
        (System.ROUND_ROBIN, 6, 5),
        (System.ROUND_ROBIN, 7, 7),
        (System.DOUBLE_ROUND_ROBIN, 6, 10),
        (System.SWISS, 6, None),
    ],
)
def test_a_round_robin_without_xxr_plans_the_rounds_its_players_need(
    system: System, players: int, rounds: int | None
) -> None:
    """n − 1 rounds for an even number of players, n for an odd one (each sits out a
    round), twice as many in a double round robin; a Swiss's players say nothing."""
    trf = TrfFile(
        header=TrfHeader(name="RR", start_date=date(2012, 1, 1), system=system),
        players=tuple(
            TrfPlayer(rank=r, name=f"P{r}", federation="GER") for r in range(1, players + 1)
        ),
    )
    assert trf.planned_rounds == rounds


def test_rounds_option_overrides_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.trf"
    path.write_text(text(cut(FULL, 9, planned=False)))
    assert main(["replay", str(path), "--format", "jsonl", "--rounds", "9"]) == 0
    out = capsys.readouterr().out
    assert '"last_round":true' in out.replace(" ", "")
    assert main(["certificate", str(path), "--player", "1", "--rounds", "9"]) == 0
    cert = capsys.readouterr().out
    assert '"rounds_considered": 9' in cert
    assert '"secured_early": false' in cert
    assert main(["check", str(path), "--player", "1", "--round", "5", "--rounds", "9"]) == 0
    assert "remaining games: 4" in capsys.readouterr().out
    assert main(["replay", str(path), "--rounds", "7"]) == 2
    assert "round 8 is beyond the 7 planned rounds" in capsys.readouterr().err


def test_rounds_option_must_be_a_number_of_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "x.trf", "--rounds", "0"])
    assert "--rounds" in capsys.readouterr().err


# ----------------------------------------------------------------------------- live order


NAMES = [("A", 2400, None, "GER"), ("B", 2400, None, "FRA"), ("C", 2400, None, "NED")]
NAMES += [("D", 2400, None, "ESP"), ("E", 2400, None, "ITA")]


def _registered(planned: int | None = 3) -> list[ev.InputEvent]:
    return tournament_events("live", NAMES, [], planned_rounds=planned or 1)[: len(NAMES) + 1]


def test_byes_for_the_next_round_never_finish_it() -> None:
    """Round 1 is paired (E has a pairing-allocated bye); before it ends, byes for round 2
    arrive for everyone; round 1 finishes on its last result, round 2 stays open."""
    state, _ = run(_registered())
    events: list[ev.InputEvent] = [
        ev.Pairing(tournament_id="live", round=1, white=1, black=2),
        ev.Pairing(tournament_id="live", round=1, white=3, black=4),
        ev.Bye(tournament_id="live", round=1, player=5, kind="U"),
        *(ev.Bye(tournament_id="live", round=2, player=p, kind="H") for p in range(1, 6)),
        ev.GameResult(tournament_id="live", round=1, white=1, black=2, result="1-0"),
    ]
    state, out = run(events, state)
    assert finished_rounds(out) == []
    last = ev.GameResult(tournament_id="live", round=1, white=3, black=4, result="0-1")
    state, out = run([last], state)
    assert finished_rounds(out) == [1]
    assert state.announced == 1


def test_a_paired_round_finishes_with_its_results_though_a_player_withdrew() -> None:
    """Player 5 withdrew: no board, no bye in round 1. The round was sent as pairings, so
    its boards are all there: it finishes when they all have results."""
    state, _ = run(_registered())
    events: list[ev.InputEvent] = [
        ev.Pairing(tournament_id="live", round=1, white=1, black=2),
        ev.Pairing(tournament_id="live", round=1, white=3, black=4),
        ev.GameResult(tournament_id="live", round=1, white=1, black=2, result="1-0"),
        ev.GameResult(tournament_id="live", round=1, white=3, black=4, result="0-1"),
    ]
    _, out = run(events, state)
    assert finished_rounds(out) == [1]


def test_results_without_pairings_wait_for_every_player() -> None:
    """An input that sends results alone: a board is known only once its result is in, so
    the round waits until every player is placed (or the round is closed)."""
    state, _ = run(_registered())
    state, out = run(
        [ev.GameResult(tournament_id="live", round=1, white=1, black=2, result="1-0")], state
    )
    assert finished_rounds(out) == []
    state, out = run(
        [ev.GameResult(tournament_id="live", round=1, white=3, black=4, result="1-0")], state
    )
    assert finished_rounds(out) == []
    _, out = run([ev.Bye(tournament_id="live", round=1, player=5, kind="U")], state)
    assert finished_rounds(out) == [1]


def test_with_unknown_rounds_every_round_is_accepted_and_none_is_the_last() -> None:
    registered = _registered()
    head = registered[0]
    assert isinstance(head, ev.TournamentRegistered)
    unknown = [head.model_copy(update={"planned_rounds": None}), *registered[1:]]
    state, _ = run(unknown)
    assert state.tournament.planned_rounds is None
    games = []
    for r in range(1, 13):
        games += [
            ev.Pairing(tournament_id="live", round=r, white=1, black=2),
            ev.GameResult(tournament_id="live", round=r, white=1, black=2, result="1/2-1/2"),
        ]
    _, out = run(games, state)
    assert finished_rounds(out) == list(range(1, 13))
    assert not any(a.last_round for a in out if isinstance(a, ev.RoundFinished))


def test_planned_rounds_is_optional_in_the_contract() -> None:
    e = ev.parse_input(
        '{"type": "tournament_registered", "tournament_id": "t", "start_date": "2020-01-01"}'
    )
    assert isinstance(e, ev.TournamentRegistered)
    assert e.planned_rounds is None
    e = ev.parse_input(
        '{"type": "tournament_registered", "tournament_id": "t", "start_date": "2020-01-01",'
        ' "planned_rounds": null}'
    )
    assert isinstance(e, ev.TournamentRegistered)
    assert e.planned_rounds is None
