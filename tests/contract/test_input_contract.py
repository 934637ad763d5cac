"""The input contract's strictness and limits (issue 15, item 8 and "every input has stated
limits"): no coercion of strings, booleans or numbers; federation codes from FIDE's list;
every text, number and list bounded; each refusal names the field, on both paths of
``parse_input`` (JSON text or bytes, and a decoded object); the JSON Schema states the same
limits; the core refuses a tournament's player beyond the limit."""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import pytest

from streams.records import schemas
from tracker import contract as ev
from tracker.domain.federations import CODES, MEMBERS, OTHER
from tracker.engine.transition import Rejected, apply

TOURNAMENT: dict[str, Any] = {
    "type": "tournament_registered",
    "tournament_id": "t1",
    "start_date": "2024-03-01",
    "planned_rounds": 9,
}
PLAYER: dict[str, Any] = {
    "type": "player_registered",
    "tournament_id": "t1",
    "rank": 1,
    "name": "Popescu, Ana",
    "federation": "ROU",
}
PAIRING: dict[str, Any] = {
    "type": "pairing",
    "tournament_id": "t1",
    "round": 1,
    "white": 1,
    "black": 2,
}
RESULT: dict[str, Any] = {**PAIRING, "type": "game_result", "result": "1-0"}
BYE: dict[str, Any] = {"type": "bye", "tournament_id": "t1", "round": 1, "player": 3, "kind": "H"}
CLOSED: dict[str, Any] = {"type": "round_closed", "tournament_id": "t1", "round": 1}
REOPENED: dict[str, Any] = {**CLOSED, "type": "round_reopened"}
UNPAIRED: dict[str, Any] = {**PAIRING, "type": "pairing_removed"}
NO_BYE: dict[str, Any] = {"type": "bye_removed", "tournament_id": "t1", "round": 1, "player": 3}
CORRECTED: dict[str, Any] = {**PLAYER, "type": "player_corrected"}
REMOVED: dict[str, Any] = {"type": "player_removed", "tournament_id": "t1", "rank": 11}


def refused(event: dict[str, Any]) -> list[str]:
    """The error of each path of ``parse_input`` (all must refuse)."""
    errors = []
    text = json.dumps(event)
    for raw in (text, text.encode(), event):
        with pytest.raises(ev.InvalidEvent) as info:
            ev.parse_input(raw)  # type: ignore[arg-type]
        errors.append(str(info.value))
    return errors


def accepted(event: dict[str, Any]) -> ev.InputEvent:
    text = json.dumps(event)
    read = [ev.parse_input(raw) for raw in (text, text.encode(), event)]  # type: ignore[arg-type]
    assert read[0] == read[1] == read[2]
    return read[0]


def assert_refused(event: dict[str, Any], field: str, why: str = "") -> None:
    for error in refused(event):
        assert error.startswith(f"{field}: "), error
        assert why in error, error


# ----------------------------------------------------------------------------- strict types


@pytest.mark.parametrize(
    ("event", "field", "value", "why"),
    [
        (CLOSED, "round", "3", "valid integer (got a string)"),
        (CLOSED, "round", 3.0, "valid integer (got the number 3.0)"),
        (PAIRING, "white", True, "valid integer (got true)"),
        (PAIRING, "black", "2", "valid integer"),
        ({**PLAYER}, "computer", "yes", "valid boolean (got a string)"),
        ({**PLAYER}, "computer", 1, "valid boolean (got the number 1)"),
        ({**PLAYER}, "rating", "2400", "valid integer"),
        ({**PLAYER}, "fide_id", "90000314", "valid integer"),
        ({**PLAYER}, "name", 42, "valid string (got the number 42)"),
        ({**PLAYER}, "federation", 642, "valid string"),
        (RESULT, "result", 1, "valid string"),
        (TOURNAMENT, "tournament_id", 1, "valid string"),
        (TOURNAMENT, "planned_rounds", "9", "valid integer"),
        (TOURNAMENT, "start_date", 1709251200, "valid date (got the number"),
        (TOURNAMENT, "start_date", "2024-03-01T00:00:00", "valid date"),
        (TOURNAMENT, "start_date", "1 March 2024", "valid date"),
        (TOURNAMENT, "kinds", "zonal", "valid array (got a string)"),
        (REOPENED, "round", "3", "valid integer (got a string)"),
        (UNPAIRED, "white", True, "valid integer (got true)"),
        (NO_BYE, "player", "3", "valid integer (got a string)"),
        (CORRECTED, "rating", "2400", "valid integer"),
        (CORRECTED, "computer", "yes", "valid boolean (got a string)"),
        (REMOVED, "rank", 11.0, "valid integer (got the number 11.0)"),
    ],
)
def test_no_coercion(event: dict[str, Any], field: str, value: object, why: str) -> None:
    assert_refused({**event, field: value}, field, why)


def test_dates_enums_and_lists_read_from_json_on_both_paths() -> None:
    event = accepted(
        {
            **TOURNAMENT,
            "end_date": "2024-03-09",
            "system": "round_robin",
            "kinds": ["zonal"],
            "host_federation": "ROU",
            "round_dates": ["2024-03-01", None, "2024-03-03"],
        }
    )
    assert isinstance(event, ev.TournamentRegistered)
    assert (event.start_date, event.end_date) == (date(2024, 3, 1), date(2024, 3, 9))
    assert event.system.value == "round_robin"
    assert [k.value for k in event.kinds] == ["zonal"]
    assert event.round_dates == (date(2024, 3, 1), None, date(2024, 3, 3))
    player = accepted({**PLAYER, "birth_date": "2001-02-03", "computer": True, "title": "wg"})
    assert isinstance(player, ev.PlayerRegistered)
    assert (player.birth_date, player.computer, player.title) == (date(2001, 2, 3), True, "WGM")


def test_a_decoded_object_that_is_not_json_is_refused() -> None:
    with pytest.raises(ev.InvalidEvent, match=r"^event: not a JSON object"):
        ev.parse_input({**CLOSED, "round": object()})


# ----------------------------------------------------------------------------- federations


@pytest.mark.parametrize("code", ["ßßß", "   ", "G\u0000R", "<b>", "rou", "Rou", "XYZ", "", "ROUX"])
@pytest.mark.parametrize(
    ("event", "field"), [(PLAYER, "federation"), (TOURNAMENT, "host_federation")]
)
def test_federations_not_on_fides_list_are_refused(
    event: dict[str, Any], field: str, code: str
) -> None:
    assert_refused({**event, field: code}, field, "is not a federation code")


@pytest.mark.parametrize(
    "code", ["ROU", "GER", "FID", "NON", "ENG", "TPE", "YUG", "TGA", "VAN", "KOS", "IOM"]
)
def test_federation_codes_on_the_list_are_accepted(code: str) -> None:
    player = accepted({**PLAYER, "federation": code})
    assert isinstance(player, ev.PlayerRegistered)
    assert player.federation == code
    host = accepted({**TOURNAMENT, "host_federation": code})
    assert isinstance(host, ev.TournamentRegistered)
    assert host.host_federation == code


def test_the_host_federation_may_be_unknown() -> None:
    event = accepted({**TOURNAMENT, "host_federation": None})
    assert isinstance(event, ev.TournamentRegistered)
    assert event.host_federation is None


def test_the_federation_list() -> None:
    assert len(MEMBERS) > 180
    assert all(re.fullmatch("[A-Z]{3}", code) for code in CODES)
    assert not set(MEMBERS) & set(OTHER)
    assert {"FID", "NON"} <= set(OTHER)


# ----------------------------------------------------------------------------- limits

LONG_TEXTS = [
    (TOURNAMENT, "tournament_id", ev.MAX_ID),
    (PLAYER, "tournament_id", ev.MAX_ID),
    (CLOSED, "tournament_id", ev.MAX_ID),
    (REMOVED, "tournament_id", ev.MAX_ID),
    (TOURNAMENT, "name", ev.MAX_NAME),
    (PLAYER, "name", ev.MAX_NAME),
    (CORRECTED, "name", ev.MAX_NAME),
    (TOURNAMENT, "city", ev.MAX_NAME),
    (TOURNAMENT, "chief_arbiter", ev.MAX_NAME),
    (TOURNAMENT, "event_type", ev.MAX_NAME),
    (TOURNAMENT, "time_control", ev.MAX_TIME_CONTROL),
]


@pytest.mark.parametrize(("event", "field", "limit"), LONG_TEXTS)
def test_texts_have_a_length_limit(event: dict[str, Any], field: str, limit: int) -> None:
    at_limit = accepted({**event, field: "é" * limit})
    assert getattr(at_limit, field) == "é" * limit
    assert_refused({**event, field: "é" * (limit + 1)}, field, f"at most {limit} characters")


@pytest.mark.parametrize(("event", "field", "_"), LONG_TEXTS)
def test_texts_have_no_control_characters(event: dict[str, Any], field: str, _: int) -> None:
    assert_refused({**event, field: "a\u0000b"}, field, "control character U+0000 at position 2")
    assert_refused({**event, field: "line\nbreak"}, field, "control character U+000A")
    assert_refused({**event, field: "del\x7f"}, field, "control character U+007F")


@pytest.mark.parametrize(("event", "field", "_"), LONG_TEXTS)
def test_texts_have_no_bidirectional_controls(event: dict[str, Any], field: str, _: int) -> None:
    """U+202E and the other embeddings, overrides and isolates reorder a name where it is
    shown; the marks U+200E and U+200F do not, and stay."""
    for control in sorted(ev.BIDI_CONTROLS):
        why = f"bidirectional control character U+{ord(control):04X} at position 5"
        assert_refused({**event, field: f"Carl{control}nesl"}, field, why)
    assert getattr(accepted({**event, field: "\u05d3\u200f 2"}), field) == "\u05d3\u200f 2"


def test_a_key_given_twice_is_refused() -> None:
    text = json.dumps(RESULT)[:-1] + ', "result": "0-1"}'
    for raw in (text, text.encode()):
        with pytest.raises(ev.InvalidEvent, match=r"^result: given twice"):
            ev.parse_input(raw)
    nested = json.dumps({**TOURNAMENT, "kinds": []})[:-1] + ', "name": "a", "name": "b"}'
    with pytest.raises(ev.InvalidEvent, match=r"^name: given twice"):
        ev.parse_input(nested)
    with pytest.raises(ev.InvalidEvent, match=r"^malformed JSON"):
        ev.parse_input('{"type": "round_closed", ')


@pytest.mark.parametrize(
    ("event", "field", "why"),
    [
        ({**TOURNAMENT, "end_date": "2024-02-29"}, "end_date", "before the start date 2024-03-01"),
        ({**TOURNAMENT, "start_date": "9999-12-31"}, "start_date", "less than or equal to 2099"),
        ({**TOURNAMENT, "start_date": "1949-12-31"}, "start_date", "greater than or equal"),
        ({**TOURNAMENT, "round_dates": ["2024-03-01", "9999-12-31"]}, "round_dates.1", "2099"),
        ({**PLAYER, "birth_date": "1066-10-14"}, "birth_date", "greater than or equal to 1880"),
        ({**PLAYER, "birth_date": "9999-12-31"}, "birth_date", "less than or equal to 2099"),
    ],
)
def test_absurd_dates_are_refused(event: dict[str, Any], field: str, why: str) -> None:
    assert_refused(event, field, why)


def test_an_event_of_one_day_is_fine() -> None:
    one_day = accepted({**TOURNAMENT, "end_date": TOURNAMENT["start_date"]})
    assert isinstance(one_day, ev.TournamentRegistered)
    assert one_day.end_date == one_day.start_date


def test_long_values_are_not_echoed_in_errors() -> None:
    for error in refused({**PLAYER, "federation": "X" * 100_000}):
        assert len(error) < 300, error
    for error in refused({**PLAYER, "title": "G" * 100_000}):
        assert error.startswith("title: String should have at most 8 characters")


@pytest.mark.parametrize(
    ("event", "field", "low", "high"),
    [
        (TOURNAMENT, "planned_rounds", 1, ev.MAX_ROUNDS),
        (CLOSED, "round", 1, ev.MAX_ROUNDS),
        (PAIRING, "round", 1, ev.MAX_ROUNDS),
        (BYE, "round", 1, ev.MAX_ROUNDS),
        (RESULT, "round", 1, ev.MAX_ROUNDS),
        (PLAYER, "rank", 1, ev.MAX_RANK),
        (PAIRING, "white", 1, ev.MAX_RANK),
        (PAIRING, "black", 1, ev.MAX_RANK),
        (RESULT, "black", 1, ev.MAX_RANK),
        (BYE, "player", 1, ev.MAX_RANK),
        (PLAYER, "fide_id", 1, ev.MAX_FIDE_ID),
        (PLAYER, "rating", 0, ev.MAX_RATING),
        (PLAYER, "k_factor", 1, 100),
        (PLAYER, "rated_games", 0, ev.MAX_RATED_GAMES),
        (PAIRING, "white_rating", 1, ev.MAX_RATING),
        (RESULT, "black_rating", 1, ev.MAX_RATING),
        (REOPENED, "round", 1, ev.MAX_ROUNDS),
        (UNPAIRED, "round", 1, ev.MAX_ROUNDS),
        (UNPAIRED, "black", 1, ev.MAX_RANK),
        (NO_BYE, "player", 1, ev.MAX_RANK),
        (CORRECTED, "rank", 1, ev.MAX_RANK),
        (CORRECTED, "rating", 0, ev.MAX_RATING),
        (REMOVED, "rank", 1, ev.MAX_RANK),
    ],
)
def test_numbers_have_limits(event: dict[str, Any], field: str, low: int, high: int) -> None:
    for value in (low, high):
        assert getattr(accepted({**event, field: value}), field) == value
    assert_refused({**event, field: low - 1}, field, f"greater than or equal to {low}")
    assert_refused({**event, field: high + 1}, field, f"less than or equal to {high}")


def test_lists_have_limits() -> None:
    dates = [f"2024-03-{day:02d}" for day in range(1, 29)] * 4  # 112 rounds' dates
    assert_refused({**TOURNAMENT, "round_dates": dates[:100]}, "round_dates", "at most 99 items")
    assert accepted({**TOURNAMENT, "round_dates": dates[:99]})
    kinds = ["zonal"] * 20
    assert_refused({**TOURNAMENT, "kinds": kinds}, "kinds", "at most")


def test_short_fields_have_limits() -> None:
    assert_refused({**RESULT, "result": " " * 17}, "result", "at most 16 characters")
    assert_refused({**PLAYER, "title": "GM" * 5}, "title", "at most 8 characters")


def test_the_json_schema_states_the_limits() -> None:
    schema = schemas()["input-event.schema.json"]["$defs"]

    def prop(model: str, field: str) -> dict[str, Any]:
        p: dict[str, Any] = schema[model]["properties"][field]
        return p["anyOf"][0] if "anyOf" in p else p

    assert prop("PlayerRegistered", "name")["maxLength"] == ev.MAX_NAME
    assert prop("TournamentRegistered", "tournament_id")["maxLength"] == ev.MAX_ID
    assert prop("TournamentRegistered", "time_control")["maxLength"] == ev.MAX_TIME_CONTROL
    assert prop("TournamentRegistered", "round_dates")["maxItems"] == ev.MAX_ROUNDS
    assert prop("TournamentRegistered", "planned_rounds")["maximum"] == ev.MAX_ROUNDS
    assert prop("PlayerRegistered", "rank")["maximum"] == ev.MAX_RANK
    assert prop("Pairing", "white")["maximum"] == ev.MAX_RANK
    assert prop("RoundClosed", "round")["maximum"] == ev.MAX_ROUNDS
    assert set(prop("PlayerRegistered", "federation")["enum"]) == CODES
    assert set(prop("TournamentRegistered", "host_federation")["enum"]) == CODES
    assert "4,000 players" in schema["PlayerRegistered"]["description"]
    pattern = prop("PlayerRegistered", "name")["pattern"]
    assert re.fullmatch(pattern, "Ça va, Ölçer")
    assert not re.fullmatch(pattern, "a\u0000")
    assert not re.fullmatch(pattern, "a\u202eb")
    assert set(prop("PlayerCorrected", "federation")["enum"]) == CODES
    # every text and number of every input event has a bound
    models = [m for m in schema if "type" in schema[m].get("properties", {})]
    assert len(models) == 13, models
    for model in models:
        for name, field in schema[model]["properties"].items():
            for option in field.get("anyOf", [field]):
                kind = option.get("type")
                if kind == "string" and "const" not in option and "format" not in option:
                    assert "maxLength" in option or "enum" in option, (model, name)
                if kind == "integer":
                    assert "maximum" in option, (model, name)


# ----------------------------------------------------------------------------- players


def test_a_tournament_registers_at_most_4000_players() -> None:
    state, _ = apply(None, ev.parse_input(TOURNAMENT))
    for rank in range(1, ev.MAX_PLAYERS + 1):
        state, _ = apply(state, ev.PlayerRegistered(**{**PLAYER, "rank": rank, "name": f"P{rank}"}))
    assert len(state.players) == ev.MAX_PLAYERS
    again, emitted = apply(state, ev.PlayerRegistered(**{**PLAYER, "rank": 7, "name": "P7"}))
    assert (again, emitted) == (state, [])  # a repeated fact still changes nothing
    with pytest.raises(Rejected) as info:
        apply(state, ev.PlayerRegistered(**{**PLAYER, "rank": 4001, "name": "One too many"}))
    assert info.value.field == "rank"
    assert "the most the contract allows (4000)" in str(info.value)
