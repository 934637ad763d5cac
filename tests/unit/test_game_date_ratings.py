"""The optional ``white_rating``/``black_rating`` of ``pairing``, ``game_result`` and
``result_corrected`` (the rating on the day of the game, 1.1.4 of 2024): stored as facts,
idempotent, changed only by a correction, and old events keep their JSON form."""

from __future__ import annotations

from datetime import date

import pytest

from tracker import contract as ev
from tracker.engine.state import TournamentState
from tracker.engine.transition import Rejected, apply

TID = "g"


def started() -> TournamentState:
    state, _ = apply(
        None,
        ev.TournamentRegistered(
            tournament_id=TID,
            start_date=date(2024, 5, 1),
            end_date=date(2024, 6, 30),
            planned_rounds=9,
        ),
    )
    for rank in (1, 2, 3):
        state, _ = apply(
            state,
            ev.PlayerRegistered(
                tournament_id=TID, rank=rank, name=f"P{rank}", federation="GER", rating=2400
            ),
        )
    return state


def result(**kw: object) -> ev.GameResult:
    fields: dict[str, object] = {"tournament_id": TID, "round": 1, "white": 1, "black": 2}
    return ev.GameResult.model_validate({**fields, "result": "1-0", **kw})


def test_ratings_on_a_result_are_stored_for_the_round() -> None:
    state, _ = apply(started(), result(white_rating=2410, black_rating=2395))
    assert dict(state.round(1).ratings) == {1: 2410, 2: 2395}
    cells = state.all_cells(1)
    assert (cells[1][0].opponent_rating, cells[2][0].opponent_rating) == (2395, 2410)
    assert state.cells(1, 1)[0].opponent_rating == 2395


def test_a_pairing_with_ratings_then_a_result_without_them_keeps_them() -> None:
    state = started()
    pairing = ev.Pairing(tournament_id=TID, round=1, white=1, black=2, black_rating=2380)
    state, _ = apply(state, pairing)
    state, _ = apply(state, result())
    assert dict(state.round(1).ratings) == {2: 2380}
    again, out = apply(state, result(black_rating=2380))
    assert again == state
    assert out == []


def test_a_different_rating_needs_a_correction() -> None:
    state, _ = apply(started(), result(black_rating=2380))
    with pytest.raises(Rejected) as info:
        apply(state, result(black_rating=2390))
    assert info.value.field == "black_rating"
    corrected = ev.ResultCorrected(
        tournament_id=TID, round=1, white=1, black=2, result="1-0", black_rating=2390
    )
    state, _ = apply(state, corrected)
    assert dict(state.round(1).ratings) == {2: 2390}


def test_events_without_ratings_keep_their_json_form() -> None:
    raw = '{"type":"game_result","tournament_id":"g","round":1,"white":1,"black":2,"result":"1-0"}'
    parsed = ev.parse_input(raw)
    assert '"white_rating"' not in parsed.model_dump_json()
    rated = ev.parse_input(raw[:-1] + ',"white_rating":2410}')
    assert isinstance(rated, ev.GameResult)
    assert rated.white_rating == 2410
    assert '"white_rating":2410' in rated.model_dump_json()


def test_an_impossible_rating_names_the_field() -> None:
    raw = '{"type":"pairing","tournament_id":"g","round":1,"white":1,"black":2,"black_rating":0}'
    with pytest.raises(ev.InvalidEvent, match="black_rating"):
        ev.parse_input(raw)
