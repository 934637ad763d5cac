"""``tracker.engine.transition.apply``: what it announces, when, and what it refuses.

The round robin used for norms is the field of ``seeds/gm-roundrobin-2011`` (ratings total
22195 around the candidate): the candidate, start rank 1, scores 6½/9 (72 %, dp 166), so
Ra 2466 and Rp 2632 give a GM norm after the last round. Every game between two other
players is drawn. Correcting the candidate's round-1 win into a loss leaves 5½/9 (61 %,
dp 80), Rp 2546: no norm.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

import pytest

from tests.support.builders import berger, live_levels, tournament_events
from tests.support.paths import SEEDS
from tests.support.round_robins import (
    _BLACK_RESULT,
    _WHITE_RESULT,
    RR,
    RR_NAMES,
    correction,
    finished_rounds,
    rr_events,
    run,
)
from tracker import contract as ev
from tracker.engine.evaluation import standings
from tracker.engine.state import TournamentState
from tracker.engine.transition import Rejected, apply
from tracker.host.replay import read_events, replay


def of_type(alerts: Iterable[ev.OutputEvent], kind: type) -> list:  # type: ignore[type-arg]
    return [a for a in alerts if isinstance(a, kind)]


def for_player(alerts: Iterable[ev.OutputEvent], rank: int) -> list[ev.OutputEvent]:
    return [a for a in alerts if getattr(a, "player", None) and a.player.rank == rank]  # type: ignore[union-attr]


def round_one_candidate_board() -> tuple[int, int]:
    (board,) = [b for b in berger(10)[0] if 1 in b]
    return board


@pytest.fixture(scope="module")
def finished_rr() -> tuple[TournamentState, list[ev.OutputEvent]]:
    return run(rr_events())


# ----------------------------------------------------------------------------- rounds


def small_swiss(close_rounds: bool = False) -> list[ev.InputEvent]:
    """Four players, two rounds: every round is complete by its results alone."""
    names = [
        ("One", 2400, "IM", "GER"),
        ("Two", 2350, "FM", "FRA"),
        ("Three", 2300, None, "NED"),
        ("Four", 2250, None, "ESP"),
    ]
    games = [
        (1, 1, 3, "1-0"),
        (1, 4, 2, "1/2-1/2"),
        (2, 2, 1, "0-1"),
        (2, 3, 4, "1/2-1/2"),
    ]
    return tournament_events("sw", names, games, planned_rounds=2, close_rounds=close_rounds)


def test_a_round_is_announced_when_every_player_has_a_board_with_a_result() -> None:
    events = small_swiss()
    setup, r1 = events[:5], events[5:7]
    state, out = run(setup)
    assert out == []
    state, out = apply(state, r1[0])
    assert out == [], "one board of round 1 has no result yet"
    state, out = apply(state, r1[1])
    assert finished_rounds(out) == [1]
    assert isinstance(out[0], ev.RoundFinished)
    assert out[0].last_round is False
    assert state.announced == 1


def test_a_round_with_a_pairing_but_no_result_is_not_announced() -> None:
    events = small_swiss()
    state, _ = run(events[:5])
    state, _ = apply(state, ev.Pairing(tournament_id="sw", round=1, white=4, black=2))
    state, out = apply(state, events[5])  # 1-3 decided, 4-2 still playing
    assert out == []
    assert state.announced == 0


def test_byes_count_as_placed() -> None:
    names = [("A", 2400, None, "GER"), ("B", 2400, None, "FRA"), ("C", 2400, None, "NED")]
    state, _ = run(tournament_events("by", names, [], planned_rounds=1))
    state, out = apply(
        state, ev.GameResult(tournament_id="by", round=1, white=1, black=2, result="1-0")
    )
    assert out == [], "player 3 is not placed yet"
    state, out = apply(state, ev.Bye(tournament_id="by", round=1, player=3, kind="U"))
    assert finished_rounds(out) == [1]
    finished = out[0]
    assert isinstance(finished, ev.RoundFinished)
    assert finished.last_round
    assert {s.player.rank: s.score for s in finished.standings} == {1: 1, 2: 0, 3: 1}
    assert [s.score_text for s in finished.standings] == ["1", "1", "0"]


def test_a_round_is_announced_when_closed_even_with_players_missing() -> None:
    names = [("A", 2400, None, "GER"), ("B", 2400, None, "FRA"), ("C", 2400, None, "NED")]
    state, _ = run(tournament_events("cl", names, [], planned_rounds=2))
    state, out = apply(
        state, ev.GameResult(tournament_id="cl", round=1, white=1, black=2, result="1/2-1/2")
    )
    assert out == []
    state, out = apply(state, ev.RoundClosed(tournament_id="cl", round=1))
    assert finished_rounds(out) == [1]
    assert out[0].round == 1
    assert out[0].last_round is False  # type: ignore[union-attr]


def test_closing_an_empty_round_announces_it() -> None:
    state, _ = run(small_swiss()[:5])
    state, out = apply(state, ev.RoundClosed(tournament_id="sw", round=1))
    assert finished_rounds(out) == [1]


def test_a_later_round_is_held_until_the_earlier_one_finishes() -> None:
    events = small_swiss()
    setup, r1, r2 = events[:5], events[5:7], events[7:9]
    state, out = run([*setup, *r2, r1[0]])
    assert out == [], "round 2 is complete but round 1 is not"
    assert state.announced == 0
    state, out = apply(state, r1[1])
    assert finished_rounds(out) == [1, 2]
    assert isinstance(out[0], ev.RoundFinished)
    assert out[0].round == 1
    assert state.announced == 2
    second = next(a for a in out if isinstance(a, ev.RoundFinished) and a.round == 2)
    assert second.last_round


def test_held_rounds_come_out_in_order_each_followed_by_its_alerts(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    """The whole round robin with round 1 arriving last: all nine rounds are announced by
    the one event that completes round 1, in order, and the norm, certain after round 8
    (issue 19), follows round 8's announcement and comes before round 9's."""
    events = rr_events()
    setup = events[:11]
    games = events[11:]
    round_one = [g for g in games if g.round == 1]  # type: ignore[union-attr]
    later = [g for g in games if g.round != 1]  # type: ignore[union-attr]
    state, out = run([*setup, *later, *round_one[:-1]])
    assert out == []
    state, out = apply(state, round_one[-1])
    assert finished_rounds(out) == list(range(1, 10))
    position = {id(a): i for i, a in enumerate(out)}
    eight, nine = (a for a in out if isinstance(a, ev.RoundFinished) and a.round in (8, 9))
    norm = of_type(out, ev.NormAchieved)
    assert [(n.player.rank, n.title, n.round) for n in norm] == [(1, "GM", 8)]
    assert position[id(eight)] < position[id(norm[0])] < position[id(nine)]
    # identical alerts to the stream in the usual order
    assert out == finished_rr[1]


def test_nothing_is_announced_twice() -> None:
    state, out = run(small_swiss(close_rounds=True))
    assert finished_rounds(out) == [1, 2]
    state2, again = apply(state, ev.RoundClosed(tournament_id="sw", round=2))
    assert again == []
    assert state2 == state


# ----------------------------------------------------------------------------- idempotence


@pytest.mark.parametrize("close_rounds", [False, True])
def test_every_event_applied_twice_changes_nothing(close_rounds: bool) -> None:
    state: TournamentState | None = None
    for e in rr_events(close_rounds=close_rounds):
        state, _ = apply(state, e)
        again, emitted = apply(state, e)
        assert emitted == [], e
        assert again is state or again == state, e


def test_repeating_every_event_gives_the_same_alerts(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    doubled = [e for e in rr_events() for _ in (0, 1)]
    state, out = run(doubled)
    assert out == finished_rr[1]
    assert state == finished_rr[0]


def test_the_repeat_of_a_correction_changes_nothing(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    white, black = round_one_candidate_board()
    fix = correction(1, white, black, _WHITE_RESULT["0"] if white == 1 else _BLACK_RESULT["0"])
    state, out = apply(finished_rr[0], fix)
    assert out
    again, emitted = apply(state, fix)
    assert emitted == []
    assert again == state


# ----------------------------------------------------------------------------- corrections


def test_the_round_robin_gives_the_candidate_a_gm_norm_certain_after_round_8(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    """6½/8 with one game left: a loss in round 9 gives 6½/9, Rp 2632, the norm; so it is
    announced after round 8, secured (issue 19), with the numbers of the whole event (the
    candidate lost round 9)."""
    _, out = finished_rr
    norms = of_type(out, ev.NormAchieved)
    assert [(n.player.rank, n.title, n.round) for n in norms] == [(1, "GM", 8)]
    norm = norms[0]
    assert norm.secured_early
    assert norm.secured_because.startswith("certain after round 8")
    assert norm.evidence.score == 6.5
    assert norm.evidence.score_text == "6½"
    assert norm.evidence.games == 9
    assert norm.evidence.average_rating == 2466
    assert norm.evidence.performance == 2632
    assert finished_rounds(out) == list(range(1, 10))


def test_a_conflicting_second_result_is_rejected_and_changes_nothing(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    state = finished_rr[0]
    white, black = round_one_candidate_board()
    before = state.rounds[1].boards[(white, black)]
    with pytest.raises(Rejected) as info:
        apply(
            state,
            ev.GameResult(tournament_id=RR, round=1, white=white, black=black, result="0-1"),
        )
    assert info.value.field == "result"
    assert "result_corrected" in str(info.value)
    assert state.rounds[1].boards[(white, black)] == before
    assert state == finished_rr[0]


def test_a_conflicting_result_before_the_round_finishes_is_rejected_too() -> None:
    events = small_swiss()
    state, _ = run(events[:6])
    with pytest.raises(Rejected) as info:
        apply(state, ev.GameResult(tournament_id="sw", round=1, white=1, black=3, result="0-1"))
    assert info.value.field == "result"


def test_the_same_result_again_is_accepted_silently(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    state = finished_rr[0]
    white, black = round_one_candidate_board()
    result = _WHITE_RESULT["1"] if white == 1 else _BLACK_RESULT["1"]
    again, out = apply(
        state, ev.GameResult(tournament_id=RR, round=1, white=white, black=black, result=result)
    )
    assert out == []
    assert again == state


def test_a_correction_changes_the_result(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    state = finished_rr[0]
    white, black = round_one_candidate_board()
    loss = _WHITE_RESULT["0"] if white == 1 else _BLACK_RESULT["0"]
    corrected, _ = apply(state, correction(1, white, black, loss))
    assert corrected.rounds[1].boards[(white, black)] != state.rounds[1].boards[(white, black)]
    assert corrected.announced == 9
    cells = {c.round: c.code.value for c in corrected.cells(1, 9)}
    assert cells[1] == "0"


def test_a_correction_is_seen_by_the_cells_already_built_for_the_round(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    """Each round keeps its cells once built (``Round.cells``); a correction makes a new
    round, so the cells, scores and live ratings after it rest on the corrected result."""
    state = finished_rr[0]
    white, black = round_one_candidate_board()
    before = {c.round: c for c in state.all_cells(9)[1]}  # builds every round's cells
    loss = _WHITE_RESULT["0"] if white == 1 else _BLACK_RESULT["0"]
    rated = ev.ResultCorrected(
        tournament_id=RR, round=1, white=white, black=black, result=loss, white_rating=2345
    )
    corrected, _ = apply(state, rated)
    after = {c.round: c for c in corrected.all_cells(9)[1]}
    assert before[1].code.value != "0"
    assert after[1].code.value == "0"
    opponent_rating = 2345 if black == 1 else None
    assert after[1].opponent_rating == opponent_rating
    assert {r: c for r, c in after.items() if r != 1} == {r: c for r, c in before.items() if r != 1}
    # the state before the correction still gives its own facts
    assert {c.round: c for c in state.all_cells(9)[1]} == before
    row = {r.player.rank: r for r in standings(state, 9)}[1]
    row_after = {r.player.rank: r for r in standings(corrected, 9)}[1]
    assert row_after.score < row.score
    assert row.live is not None
    assert row_after.live is not None
    assert row_after.live.rating < row.live.rating


def test_a_correction_that_takes_the_norm_away_revokes_it(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    state, out = finished_rr
    (achieved,) = of_type(out, ev.NormAchieved)
    white, black = round_one_candidate_board()
    loss = _WHITE_RESULT["0"] if white == 1 else _BLACK_RESULT["0"]
    corrected, emitted = apply(state, correction(1, white, black, loss))
    assert not of_type(emitted, ev.RoundFinished), "round 9 was announced already"
    # every round's summary from round 1 on changed: each sent again, replacing the first
    summaries = {a.round: a for a in out if isinstance(a, ev.RoundFinished)}
    again = of_type(emitted, ev.StandingsCorrected)
    assert [(a.round, a.revises) for a in again] == [
        (n, summaries[n].alert_id) for n in range(1, 10)
    ]
    revoked = [a for a in for_player(emitted, 1) if isinstance(a, ev.NormRevoked)]
    assert len(revoked) == 1
    assert revoked[0].title == "GM"
    assert revoked[0].tournament_id == RR
    assert revoked[0].round == 9
    assert achieved.alert_id in revoked[0].reason
    assert not [a for a in for_player(emitted, 1) if isinstance(a, ev.NormAchieved)]
    assert "norm:1:GM" not in corrected.sent


def correct_away_and_back(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> tuple[ev.NormAchieved, list[ev.OutputEvent], list[ev.OutputEvent]]:
    state, out = finished_rr
    (achieved,) = of_type(out, ev.NormAchieved)
    white, black = round_one_candidate_board()
    loss = _WHITE_RESULT["0"] if white == 1 else _BLACK_RESULT["0"]
    win = _WHITE_RESULT["1"] if white == 1 else _BLACK_RESULT["1"]
    state, away = apply(state, correction(1, white, black, loss))
    state, back = apply(state, correction(1, white, black, win))
    return achieved, away, back


def test_correcting_back_announces_the_norm_again(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    _, _, back = correct_away_and_back(finished_rr)
    again = [a for a in for_player(back, 1) if isinstance(a, ev.NormAchieved)]
    assert len(again) == 1
    assert again[0].title == "GM"
    assert again[0].round == 8  # certain after round 8
    assert again[0].evidence.performance == 2632
    assert not [a for a in for_player(back, 1) if isinstance(a, ev.NormRevoked)]


def test_correcting_back_announces_the_norm_under_a_new_id(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    achieved, away, back = correct_away_and_back(finished_rr)
    (again,) = [a for a in for_player(back, 1) if isinstance(a, ev.NormAchieved)]
    (revoked,) = [a for a in for_player(away, 1) if isinstance(a, ev.NormRevoked)]
    assert again.alert_id != achieved.alert_id
    assert again.alert_id != revoked.alert_id


def test_a_second_revocation_has_a_new_id(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    state = finished_rr[0]
    white, black = round_one_candidate_board()
    loss = _WHITE_RESULT["0"] if white == 1 else _BLACK_RESULT["0"]
    win = _WHITE_RESULT["1"] if white == 1 else _BLACK_RESULT["1"]
    state, first = apply(state, correction(1, white, black, loss))
    state, _ = apply(state, correction(1, white, black, win))
    state, second = apply(state, correction(1, white, black, loss))
    (revoked_1,) = [a for a in for_player(first, 1) if isinstance(a, ev.NormRevoked)]
    (revoked_2,) = [a for a in for_player(second, 1) if isinstance(a, ev.NormRevoked)]
    assert revoked_2.alert_id != revoked_1.alert_id


def test_a_correction_round_trip_is_deterministic(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    first = correct_away_and_back(finished_rr)
    second = correct_away_and_back(run(rr_events()))
    assert first == second


def test_a_result_for_a_board_a_finished_round_did_not_have_is_rejected(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    boards = berger(10)[0]
    (a, _), (b, _) = boards[0], boards[1]  # two White players of round 1, not paired together
    for fix in (
        correction(1, a, b, "1-0"),
        ev.GameResult(tournament_id=RR, round=1, white=a, black=b, result="1-0"),
    ):
        with pytest.raises(Rejected) as info:
            apply(finished_rr[0], fix)
        assert info.value.field == "round"


def test_a_result_with_colours_reversed_is_rejected(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    white, black = round_one_candidate_board()
    with pytest.raises(Rejected) as info:
        apply(finished_rr[0], correction(1, black, white, "1-0"))
    assert info.value.field == "white"


# ----------------------------------------------------------------------------- bad input


@pytest.fixture
def registered() -> TournamentState:
    """Five players registered for a 5-round Swiss; round 1 pairs 1-2 and 3-4, not 5."""
    names = [
        ("A", 2400, None, "GER"),
        ("B", 2400, None, "FRA"),
        ("C", 2400, None, "NED"),
        ("D", 2400, None, "ESP"),
        ("E", 2400, None, "ITA"),
    ]
    state, _ = run(tournament_events("bad", names, [], planned_rounds=5))
    state, _ = apply(state, ev.Pairing(tournament_id="bad", round=1, white=1, black=2))
    state, _ = apply(state, ev.Pairing(tournament_id="bad", round=1, white=3, black=4))
    return state


def rejected_field(state: TournamentState | None, event: ev.InputEvent) -> str:
    with pytest.raises(Rejected) as info:
        apply(state, event)
    assert info.value.field in str(info.value)
    return info.value.field


def test_an_event_before_the_tournament_is_registered_names_tournament_id() -> None:
    event = ev.PlayerRegistered(tournament_id="nope", rank=1, name="A", federation="GER")
    assert rejected_field(None, event) == "tournament_id"


def test_an_event_for_another_tournament_names_tournament_id(registered: TournamentState) -> None:
    event = ev.RoundClosed(tournament_id="other", round=1)
    assert rejected_field(registered, event) == "tournament_id"


def test_registering_the_tournament_again_with_other_facts_names_tournament_id(
    registered: TournamentState,
) -> None:
    event = ev.TournamentRegistered(
        tournament_id="bad", start_date=date(2011, 5, 1), planned_rounds=7
    )
    assert rejected_field(registered, event) == "tournament_id"


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (ev.Pairing(tournament_id="bad", round=2, white=9, black=1), "white"),
        (ev.Pairing(tournament_id="bad", round=2, white=1, black=9), "black"),
        (ev.GameResult(tournament_id="bad", round=2, white=9, black=1, result="1-0"), "white"),
        (ev.GameResult(tournament_id="bad", round=2, white=1, black=9, result="1-0"), "black"),
        (ev.ResultCorrected(tournament_id="bad", round=1, white=1, black=9, result="1-0"), "black"),
        (ev.Bye(tournament_id="bad", round=2, player=9, kind="H"), "player"),
    ],
)
def test_an_unknown_player_names_the_field(
    registered: TournamentState, event: ev.InputEvent, field: str
) -> None:
    assert rejected_field(registered, event) == field


@pytest.mark.parametrize(
    "event",
    [
        ev.Pairing(tournament_id="bad", round=2, white=3, black=3),
        ev.GameResult(tournament_id="bad", round=2, white=3, black=3, result="1-0"),
    ],
)
def test_self_pairing_names_black(registered: TournamentState, event: ev.InputEvent) -> None:
    assert rejected_field(registered, event) == "black"


@pytest.mark.parametrize(
    "event",
    [
        ev.Pairing(tournament_id="bad", round=6, white=1, black=2),
        ev.GameResult(tournament_id="bad", round=6, white=1, black=2, result="1-0"),
        ev.Bye(tournament_id="bad", round=6, player=1, kind="H"),
        ev.RoundClosed(tournament_id="bad", round=6),
    ],
)
def test_a_round_beyond_the_planned_rounds_names_round(
    registered: TournamentState, event: ev.InputEvent
) -> None:
    assert rejected_field(registered, event) == "round"


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (ev.Pairing(tournament_id="bad", round=1, white=1, black=5), "white"),
        (ev.Pairing(tournament_id="bad", round=1, white=5, black=1), "black"),
        (ev.Pairing(tournament_id="bad", round=1, white=2, black=1), "white"),
        (ev.GameResult(tournament_id="bad", round=1, white=5, black=3, result="1-0"), "black"),
        (ev.Bye(tournament_id="bad", round=1, player=2, kind="H"), "player"),
    ],
)
def test_a_player_placed_twice_in_a_round_names_the_field(
    registered: TournamentState, event: ev.InputEvent, field: str
) -> None:
    assert rejected_field(registered, event) == field
    assert registered.round(1).boards == {(1, 2): None, (3, 4): None}


def test_a_second_bye_of_another_kind_names_player(registered: TournamentState) -> None:
    state, _ = apply(registered, ev.Bye(tournament_id="bad", round=2, player=1, kind="H"))
    assert rejected_field(state, ev.Bye(tournament_id="bad", round=2, player=1, kind="U")) == (
        "player"
    )
    assert rejected_field(state, ev.Pairing(tournament_id="bad", round=2, white=1, black=2)) == (
        "white"
    )


def test_a_pairing_for_a_finished_round_names_round() -> None:
    names = [("A", 2400, None, "GER"), ("B", 2400, None, "FRA"), ("C", 2400, None, "NED")]
    state, _ = run(tournament_events("fin", names, [(1, 1, 2, "1-0")], planned_rounds=3))
    assert state.announced == 1  # closed with player 3 unplaced
    event = ev.Pairing(tournament_id="fin", round=1, white=3, black=1)
    assert rejected_field(state, event) == "round"
    bye = ev.Bye(tournament_id="fin", round=1, player=3, kind="Z")
    assert rejected_field(state, bye) == "round"
    late = ev.GameResult(tournament_id="fin", round=1, white=3, black=2, result="1-0")
    assert rejected_field(state, late) == "round"


def test_a_start_rank_registered_again_with_other_data_names_rank(
    registered: TournamentState,
) -> None:
    same = ev.PlayerRegistered(tournament_id="bad", rank=1, name="A", federation="GER", rating=2400)
    again, out = apply(registered, same)
    assert out == []
    assert again == registered
    other = ev.PlayerRegistered(
        tournament_id="bad", rank=1, name="Someone else", federation="GER", rating=2400
    )
    assert rejected_field(registered, other) == "rank"
    assert registered.players[1].name == "A"


def test_an_unknown_edition_names_edition() -> None:
    event = ev.TournamentRegistered(
        tournament_id="ed", start_date=date(2011, 5, 1), planned_rounds=9, edition="fide-1900"
    )
    with pytest.raises(Rejected) as info:
        apply(None, event)
    assert info.value.field == "edition"
    assert "fide-1900" in str(info.value)


def test_a_named_edition_is_used() -> None:
    event = ev.TournamentRegistered(
        tournament_id="ed", start_date=date(2011, 5, 1), planned_rounds=9, edition="fide-pre-2009"
    )
    state, out = apply(None, event)
    assert out == []
    assert state.title_rules.name == "fide-pre-2009"


@pytest.mark.parametrize("raw", ["not json", '{"type": "pairing", ', "{'type': 'bye'}"])
def test_parse_input_reports_malformed_json(raw: str) -> None:
    with pytest.raises(ev.InvalidEvent, match=r"^malformed JSON"):
        ev.parse_input(raw)


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "game_over", "tournament_id": "t", "round": 1}',
        '{"tournament_id": "t", "round": 1}',
        {"type": "nonsense"},
    ],
)
def test_parse_input_names_type_for_an_unknown_or_missing_type(raw: str | dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ev.InvalidEvent, match=r"^type: "):
        ev.parse_input(raw)


def test_parse_input_names_the_bad_field() -> None:
    with pytest.raises(ev.InvalidEvent, match=r"^black: "):
        ev.parse_input('{"type": "pairing", "tournament_id": "t", "round": 1, "white": 1}')
    with pytest.raises(ev.InvalidEvent, match=r"^result: "):
        ev.parse_input(
            '{"type": "game_result", "tournament_id": "t", "round": 1, "white": 1, '
            '"black": 2, "result": "3-0"}'
        )


# ----------------------------------------------------------------------------- alert ids


def seed_alerts(name: str) -> list[ev.OutputEvent]:
    path = SEEDS / name
    return list(replay(read_events(path.read_text(encoding="utf-8"), path.name)))


SEEDS_WITH_EVERY_KIND = [
    "gm-roundrobin-2011.jsonl",
    "dropped-win-2012.trf",
    "swiss-11r-secured-2013.trf",
]
"""Between them: round_finished, norm_achieved, ignorable_games and title_rating_reached (an
IM level: under 2009 the FM levels of the first two need a published list, 1.3)."""
EDITION_OF = {
    "gm-roundrobin-2011.jsonl": "fide-2009",
    "dropped-win-2012.trf": "fide-2009r2012",
    "swiss-11r-secured-2013.trf": "fide-2009r2012",
}
"""By the start date: 14 October 2011, then 10 November 2012 and 2013 (after the floor of 1
July 2012)."""


@pytest.mark.parametrize("name", SEEDS_WITH_EVERY_KIND)
def test_replaying_the_same_events_gives_the_same_alert_ids(name: str) -> None:
    first = seed_alerts(name)
    second = seed_alerts(name)
    assert [a.alert_id for a in first] == [a.alert_id for a in second]
    assert first == second
    ids = [a.alert_id for a in first]
    assert len(set(ids)) == len(ids), "two alerts of one replay share an id"


def test_the_seeds_cover_every_kind_of_alert() -> None:
    kinds = {a.type for name in SEEDS_WITH_EVERY_KIND for a in seed_alerts(name)}
    assert kinds >= {"round_finished", "norm_achieved", "ignorable_games", "title_rating_reached"}


def registered_players(name: str) -> dict[int, ev.PlayerRegistered]:
    path = SEEDS / name
    return {
        s.event.rank: s.event
        for s in read_events(path.read_text(encoding="utf-8"), path.name)
        if isinstance(s.event, ev.PlayerRegistered)
    }


def check_player(ref: ev.PlayerRef, players: dict[int, ev.PlayerRegistered]) -> None:
    known = players[ref.rank]
    assert ref.fide_id == known.fide_id
    assert ref.fide_id is not None
    assert ref.name == known.name
    assert ref.federation == known.federation
    assert ref.title == known.title


@pytest.mark.parametrize("name", SEEDS_WITH_EVERY_KIND)
def test_every_alert_names_tournament_round_edition_and_player(name: str) -> None:
    tid = name.rsplit(".", 1)[0]
    players = registered_players(name)
    for alert in seed_alerts(name):
        assert alert.tournament_id == tid
        assert 1 <= alert.round <= 11
        assert alert.edition == EDITION_OF[name]
        if isinstance(alert, ev.RoundFinished):
            # a round's announcement names every player in its standings
            assert {s.player.rank for s in alert.standings} == set(players)
            for standing in alert.standings:
                check_player(standing.player, players)
        else:
            check_player(alert.player, players)


def test_revocations_carry_the_same_fields(
    finished_rr: tuple[TournamentState, list[ev.OutputEvent]],
) -> None:
    _, away, back = correct_away_and_back(finished_rr)
    for alert in [*away, *back]:
        assert alert.tournament_id == RR
        assert alert.edition == "fide-2009"
        assert 1 <= alert.round <= 9
        assert not isinstance(alert, ev.RoundFinished)
        if isinstance(alert, ev.StandingsCorrected):
            continue  # a round's standings again, with the corrected result (no player)
        name, _rating, title, fed = RR_NAMES[alert.player.rank - 1]
        assert (alert.player.name, alert.player.title, alert.player.federation) == (
            name,
            title,
            fed,
        )


# ----------------------------------------------------------------------------- title rating


RISER_NAMES = [
    ("Riser, R", 2290, None, "GER"),
    ("B", 2300, "FM", "FRA"),
    ("C", 2310, "FM", "NED"),
    ("D", 2280, None, "AUT"),
    ("E", 2320, "FM", "ITA"),
    ("F", 2295, None, "ESP"),
]
RISER_GAMES: Sequence[tuple[int, int, int, str]] = [
    (1, 1, 2, "1-0"),
    (1, 3, 4, "1/2-1/2"),
    (1, 5, 6, "1/2-1/2"),
    (2, 3, 1, "0-1"),
    (2, 2, 5, "1/2-1/2"),
    (2, 4, 6, "1/2-1/2"),
    (3, 1, 5, "1/2-1/2"),
    (3, 6, 2, "1/2-1/2"),
    (3, 4, 3, "1/2-1/2"),
    (4, 6, 1, "1/2-1/2"),
    (4, 3, 5, "1/2-1/2"),
    (4, 2, 4, "1/2-1/2"),
    (5, 1, 4, "1-0"),
    (5, 5, 2, "1/2-1/2"),
    (5, 3, 6, "1/2-1/2"),
]


def test_a_2290_player_passing_2300_gets_one_fm_level_when_first_reached() -> None:
    """Two wins against ~2300 opponents (K 15 for a 2290 player under the 2011 rules) take
    him to 2306 after round 2; draws keep him there and a win in round 5 takes him higher,
    but the FM level is said for round 2 only. Said on the standing, not announced: 2009's
    1.3 asks a published rating for FM (issue 19)."""
    per_round: dict[int, list[ev.OutputEvent]] = {}
    current = 0
    state: TournamentState | None = None
    for e in tournament_events("fm", RISER_NAMES, RISER_GAMES, planned_rounds=5):
        state, out = apply(state, e)
        for alert in out:
            if isinstance(alert, ev.RoundFinished):
                current = alert.round
            per_round.setdefault(current, []).append(alert)
    assert sorted(per_round) == [1, 2, 3, 4, 5]
    live = {
        n: next(
            s.live_rating or 0
            for a in alerts
            if isinstance(a, ev.RoundFinished)
            for s in a.standings
            if s.player.rank == 1
        )
        for n, alerts in per_round.items()
    }
    assert 2250 < live[1] < 2300 <= live[2]
    assert all(live[n] >= 2300 for n in (3, 4, 5))

    assert not [a for alerts in per_round.values() for a in of_type(alerts, ev.TitleRatingReached)]
    said = {n: live_levels(alerts, 1) for n, alerts in per_round.items()}
    assert said[1] == []
    assert all(said[n] == [("FM", 2, live[2])] for n in (2, 3, 4, 5))
