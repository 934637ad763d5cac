"""The input events: the facts of a tournament as they arrive.

Input is read strictly: a number is not a string of digits, a boolean is ``true`` or ``false``
(not ``1`` or ``"yes"``); dates are ISO ``YYYY-MM-DD`` strings in JSON.

>>> e = parse_input('{"type": "round_closed", "tournament_id": "t1", "round": 3}')
>>> e.round
3
>>> parse_input('{"type": "game_result", "tournament_id": "t1", "round": 1, '
...             '"white": 1, "black": 2, "result": "2-0"}')
Traceback (most recent call last):
...
tracker.contract.inputs.InvalidEvent: result: impossible result '2-0': expected one of 1-0, 0-1, ...
"""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated, Literal

import pydantic
from pydantic import ConfigDict, Field, TypeAdapter, ValidationInfo, field_validator

from tracker.contract.fields import (
    MAX_FIDE_ID,
    MAX_RATED_GAMES,
    MAX_RATING,
    MAX_RESULT,
    MAX_ROUNDS,
    MAX_TITLE,
    BirthDate,
    EventDate,
    Evidence,
    FederationCode,
    GameRating,
    Name,
    PlayerName,
    RoundNumber,
    StartRank,
    TimeControl,
    TournamentId,
    _absent,
    _Event,
)
from tracker.domain.results import parse_result
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System


class _Input(_Event):
    """Input events are read strictly (see above)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class TournamentRegistered(_Input):
    type: Literal["tournament_registered"] = "tournament_registered"
    tournament_id: TournamentId
    name: Name = ""
    start_date: EventDate
    end_date: EventDate | None = None
    """On or after ``start_date``."""
    system: System = System.SWISS
    """``unknown`` when the source cannot tell: norms are then announced only with the
    assumption named, never secured (see ``system_evidence``)."""
    system_evidence: Evidence | None = Field(default=None, exclude_if=_absent)
    """How the system was read from the file (TRF ``092``/``192``, the field against the
    planned rounds, the pairings), or why it is unknown; absent when given as a fact."""
    host_federation: FederationCode | None = None
    planned_rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    """``None`` (or absent): the number of rounds is not known. Then no round is the last
    one, nobody is out of reach for lack of rounds, and no norm is judged as final."""
    kinds: tuple[EventKind, ...] = Field(default=(), max_length=len(EventKind))
    edition: Name | None = None
    city: Name | None = Field(default=None, exclude_if=_absent)
    """Where the event is played (TRF ``022``): the IT1 form's venue."""
    chief_arbiter: Name | None = Field(default=None, exclude_if=_absent)
    """TRF ``102``, as written (name, often with the FIDE id)."""
    time_control: TimeControl | None = Field(default=None, exclude_if=_absent)
    """The rate of play as written (TRF ``122``, or TRF26 ``222``): decides whether the event
    is a standard-chess event under the rating regulations."""
    event_type: Name | None = Field(default=None, exclude_if=_absent)
    """TRF ``092``, as written (``Individual: Swiss-System``, ``Rapid``, …)."""
    round_dates: tuple[EventDate | None, ...] | None = Field(
        default=None, max_length=MAX_ROUNDS, exclude_if=_absent
    )
    """The date of each round (TRF ``132``), ``None`` where the file leaves it blank."""

    @field_validator("end_date")
    @classmethod
    def _not_before_start(cls, value: date | None, info: ValidationInfo) -> date | None:
        start = info.data.get("start_date")
        if value is not None and start is not None and value < start:
            raise ValueError(f"{value} is before the start date {start}")
        return value


class _PlayerFields(_Input):
    """A player's record, as registered or as corrected."""

    type: str
    tournament_id: TournamentId
    rank: StartRank
    name: PlayerName
    federation: FederationCode | None
    """Three-letter FIDE federation code; ``null`` when not known (a blank TRF cell). An
    unknown federation changes no standing or live rating; a norm requirement that depends
    on it is not guessed (see the README's readings)."""
    fide_id: int | None = Field(default=None, ge=1, le=MAX_FIDE_ID)
    sex: Literal["m", "w"] | None = None
    title: Annotated[str, Field(max_length=MAX_TITLE)] | None = None
    rating: int | None = Field(default=None, ge=0, le=MAX_RATING)
    k_factor: int | None = Field(default=None, ge=1, le=100)
    birth_date: BirthDate | None = None
    rated_games: int | None = Field(default=None, ge=0, le=MAX_RATED_GAMES)
    computer: bool = False

    @field_validator("title")
    @classmethod
    def _known_title(cls, value: str | None) -> str | None:
        title = Title.parse(value)
        return title.value if title else None


class PlayerRegistered(_PlayerFields):
    """A player of the start list. A tournament registers at most 4,000 players: the next
    ``player_registered`` is rejected, naming ``rank``."""

    type: Literal["player_registered"] = "player_registered"


class PlayerCorrected(_PlayerFields):
    """The whole record of a registered player, replacing the one registered (a rating,
    title, federation, name, sex or FIDE id put right). Everything derived is worked out
    again from the facts."""

    type: Literal["player_corrected"] = "player_corrected"


class PlayerRemoved(_Input):
    """A player registered by mistake: taken off the start list with the byes entered for
    them. A player with a board in some round is refused (take the board back first with
    ``pairing_removed``)."""

    type: Literal["player_removed"] = "player_removed"
    tournament_id: TournamentId
    rank: StartRank


class Pairing(_Input):
    """A board of a round; a result for the board may come before or after it."""

    type: Literal["pairing"] = "pairing"
    tournament_id: TournamentId
    round: RoundNumber
    white: StartRank
    black: StartRank
    white_rating: GameRating | None = Field(default=None, exclude_if=_absent)
    black_rating: GameRating | None = Field(default=None, exclude_if=_absent)


class Bye(_Input):
    """A player not paired in a round: ``H`` half-point bye, ``F`` full-point bye,
    ``U`` pairing-allocated bye, ``Z`` known absence (TRF16 codes)."""

    type: Literal["bye"] = "bye"
    tournament_id: TournamentId
    round: RoundNumber
    player: StartRank
    kind: Literal["H", "F", "U", "Z"]


class PairingRemoved(_Input):
    """A board taken back, with its result and the game-date ratings it carried: a
    pairing, or a result on a board, sent by mistake. Also opens the round's line-up again
    (as ``round_reopened`` does, without undoing ``round_closed``), so the right board can
    follow in a finished round."""

    type: Literal["pairing_removed"] = "pairing_removed"
    tournament_id: TournamentId
    round: RoundNumber
    white: StartRank
    black: StartRank


class ByeRemoved(_Input):
    """A player's bye (of any kind) taken back; opens the round's line-up again like
    ``pairing_removed``."""

    type: Literal["bye_removed"] = "bye_removed"
    tournament_id: TournamentId
    round: RoundNumber
    player: StartRank


class _ResultFields(_Input):
    tournament_id: TournamentId
    round: RoundNumber
    white: StartRank
    black: StartRank
    result: Annotated[str, Field(max_length=MAX_RESULT)]
    white_rating: GameRating | None = Field(default=None, exclude_if=_absent)
    black_rating: GameRating | None = Field(default=None, exclude_if=_absent)

    @field_validator("result")
    @classmethod
    def _possible(cls, value: str) -> str:
        parse_result(value)
        return value.strip()


class GameResult(_ResultFields):
    type: Literal["game_result"] = "game_result"


class ResultCorrected(_ResultFields):
    """An arbiter's correction of a result already reported."""

    type: Literal["result_corrected"] = "result_corrected"


class RoundClosed(_Input):
    type: Literal["round_closed"] = "round_closed"
    tournament_id: TournamentId
    round: RoundNumber


class RoundReopened(_Input):
    """A round finished too early (closed before its last result, or every board known
    had a result before the last pairings came): it is no longer closed, and its line-up
    takes pairings, byes and results again. It finishes again when it is complete (or
    closed); until then it and the rounds after it are not finished."""

    type: Literal["round_reopened"] = "round_reopened"
    tournament_id: TournamentId
    round: RoundNumber


class SystemCorrected(_Input):
    """The event's pairing system put right: a later export tells what an earlier one had
    to guess (a round robin exported mid-event read as unknown, or an XNS typed wrong).
    ``planned_rounds``, ``system_evidence`` and ``event_type`` (TRF ``092``, the words the
    system may be read from; absent: as registered) as ``tournament_registered`` has them,
    for the system as it is now (a round robin's rounds follow from its field); the rest of
    the registration stands. Everything announced is worked out again from round 1."""

    type: Literal["system_corrected"] = "system_corrected"
    tournament_id: TournamentId
    system: System
    planned_rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    system_evidence: Evidence | None = Field(default=None, exclude_if=_absent)
    event_type: Name | None = Field(default=None, exclude_if=_absent)


InputEvent = Annotated[
    TournamentRegistered
    | PlayerRegistered
    | Pairing
    | Bye
    | GameResult
    | ResultCorrected
    | RoundClosed
    | PlayerCorrected
    | PlayerRemoved
    | PairingRemoved
    | ByeRemoved
    | RoundReopened
    | SystemCorrected,
    Field(discriminator="type"),
]
_INPUT: TypeAdapter[InputEvent] = TypeAdapter(InputEvent)
RoundEvent = (
    Pairing
    | Bye
    | GameResult
    | ResultCorrected
    | RoundClosed
    | PairingRemoved
    | ByeRemoved
    | RoundReopened
)
"""The input events about one round (they have a ``round``)."""


class InvalidEvent(ValueError):
    """An input event that cannot be read; the message names the field."""


def parse_input(raw: str | bytes | dict[str, object]) -> InputEvent:
    """Read one input event from JSON text or a decoded object (read as its JSON text would
    be: strictly, with dates as ISO strings). JSON text that gives a key twice is refused,
    naming the key (a JSON parser keeps one of them, and which one is not agreed on).

    >>> parse_input('{"type": "round_closed", "tournament_id": "t1", "round": 3, "round": 4}')
    Traceback (most recent call last):
    ...
    tracker.contract.inputs.InvalidEvent: round: given twice (each key at most once)
    """
    try:
        if isinstance(raw, dict):
            try:
                raw = json.dumps(raw, allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise InvalidEvent(f"event: not a JSON object: {exc}") from None
        else:
            _once_each(raw)
        return _INPUT.validate_json(raw)
    except pydantic.ValidationError as exc:
        raise InvalidEvent(describe(exc)) from None


def _once_each(raw: str | bytes) -> None:
    """Raise :exc:`InvalidEvent` naming a key an object of the JSON text gives twice (text
    that is not JSON is left to the model's parser, whose message says where it breaks)."""

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, value in items:
            if key in out:
                raise InvalidEvent(f"{key[:40]}: given twice (each key at most once)")
            out[key] = value
        return out

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except ValueError as exc:
        if isinstance(exc, InvalidEvent):
            raise


def describe(exc: pydantic.ValidationError, skip: int = 1) -> str:
    """A refusal as one line naming each field (``round: Input should be …``); ``skip``: the
    leading parts of each location to leave out (an event's type, the union's tag)."""
    parts = []
    for error in exc.errors():
        location = ".".join(str(p) for p in error["loc"][skip:] if p != "function-after")
        if error["type"] == "union_tag_invalid" or error["type"] == "union_tag_not_found":
            location = "type"
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "json_invalid":
            return f"malformed JSON: {message}"
        if error["type"].endswith("_type") and error["type"] != "model_type":
            message += f" (got {_json_kind(error['input'])})"
        parts.append(f"{location or 'event'}: {message}")
    return "; ".join(parts)


def _json_kind(value: object) -> str:
    """What a refused JSON value was (strict input says why ``"3"`` is not a number)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    for kind, name in ((str, "a string"), (list, "an array"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return "null" if value is None else type(value).__name__
