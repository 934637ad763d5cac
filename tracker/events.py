"""The event contract: what comes in (facts) and what goes out (alerts).

Every event is a pydantic model with a ``type`` field; its JSON form is
``model_dump_json()``. Input events are read with :func:`parse_input`.

>>> e = parse_input('{"type": "round_closed", "tournament_id": "t1", "round": 3}')
>>> e.round
3
>>> parse_input('{"type": "game_result", "tournament_id": "t1", "round": 1, '
...             '"white": 1, "black": 2, "result": "2-0"}')
Traceback (most recent call last):
...
tracker.events.InvalidEvent: result: impossible result '2-0': expected one of 1-0, 0-1, ...
"""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated, Any, Final, Literal

import pydantic
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    WithJsonSchema,
    field_validator,
)

from tracker.federations import CODES as FEDERATIONS
from tracker.federations import is_federation
from tracker.results import parse_result
from tracker.titles import Title
from tracker.tournaments import EventKind, System


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- input
#
# Every input field has a stated limit: the JSON Schema (``tracker schema``) carries them
# (``maxLength``, ``maximum``, ``maxItems``, ``pattern``, the federation codes as an ``enum``)
# and the README's event contract lists them. Input is read strictly: a number is not a string
# of digits, a boolean is ``true`` or ``false`` (not ``1`` or ``"yes"``); dates are ISO
# ``YYYY-MM-DD`` strings in JSON.

MAX_ID = 100
"""Characters of a ``tournament_id``."""
MAX_NAME = 100
"""Characters of a player's or a tournament's name, and of the other short texts (``city``,
``chief_arbiter``, ``event_type``, ``edition``)."""
MAX_TIME_CONTROL = 200
"""Characters of ``time_control`` (a rate of play written out, e.g. "90 min/40 moves + 30 min
+ 30 s increment per move from move 1", fits with room to spare)."""
MAX_ROUNDS = 99
"""Rounds of a tournament (``planned_rounds``, ``round``, and ``round_dates`` entries)."""
MAX_RANK = 9999
"""A start rank (four digits in the TRF's columns 5-8)."""
MAX_PLAYERS = 4000
"""Players a tournament may register (checked where players are registered:
:func:`tracker.transition.apply` rejects the next one, naming ``rank``). The largest opens
have about 2,500."""
MAX_FIDE_ID = 99_999_999_999
"""The TRF's eleven columns (49-59) for the FIDE id."""
MAX_RATING = 3500
MAX_RATED_GAMES = 99_999
MAX_TITLE = 8
"""Characters of ``title`` as written (``GM``, ``wg``, with spaces around)."""
MAX_RESULT = 16
"""Characters of ``result`` as written (``1/2-1/2`` and spaces around)."""

_CONTROL = "^[^\\u0000-\\u001f\\u007f]*$"
"""The JSON Schema pattern of a text field: no control character (U+0000-U+001F, U+007F)."""


def _shown(value: str) -> str:
    """A refused value as an error message quotes it: never more than 20 characters."""
    return repr(value if len(value) <= 20 else value[:20] + "…")


def _printable(value: str) -> str:
    for i, char in enumerate(value):
        if char < " " or char == "\x7f":
            raise ValueError(f"control character U+{ord(char):04X} at position {i + 1}")
    return value


def _limits(max_length: int, min_length: int = 0) -> Any:
    """Length limits of a text field, with the schema's pattern of :func:`_printable`."""
    return Field(
        min_length=min_length, max_length=max_length, json_schema_extra={"pattern": _CONTROL}
    )


_PRINTABLE = AfterValidator(_printable)
TournamentId = Annotated[str, _limits(MAX_ID, min_length=1), _PRINTABLE]
Name = Annotated[str, _limits(MAX_NAME), _PRINTABLE]
"""A single-line text of at most :data:`MAX_NAME` characters (also the short texts)."""
PlayerName = Annotated[str, _limits(MAX_NAME, min_length=1), _PRINTABLE]
TimeControl = Annotated[str, _limits(MAX_TIME_CONTROL), _PRINTABLE]


def _federation(value: str) -> str:
    if not is_federation(value):
        raise ValueError(
            f"{_shown(value)} is not a federation code: three capital letters from FIDE's "
            "list of member federations (tracker/federations.py), or FID"
        )
    return value


FederationCode = Annotated[
    str,
    AfterValidator(_federation),
    WithJsonSchema(
        {
            "type": "string",
            "enum": sorted(FEDERATIONS),
            "description": "FIDE federation code (tracker/federations.py); FID: the FIDE flag",
        }
    ),
]
"""A federation code from :data:`tracker.federations.CODES`, exactly as listed."""

RoundNumber = Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
StartRank = Annotated[int, Field(ge=1, le=MAX_RANK)]
GameRating = Annotated[int, Field(ge=1, le=MAX_RATING)]


def _absent(value: object) -> bool:
    """Optional input fields added after the first contract (the game-date ratings of
    pairings and results, the descriptive fields of ``tournament_registered``) are left out
    of the JSON form when not given (``exclude_if``, one check in pydantic's serializer), so
    events written before they existed keep their exact form."""
    return value is None


class _Input(_Event):
    """Input events are read strictly (see above)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class TournamentRegistered(_Input):
    type: Literal["tournament_registered"] = "tournament_registered"
    tournament_id: TournamentId
    name: Name = ""
    start_date: date
    end_date: date | None = None
    system: System = System.SWISS
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
    round_dates: tuple[date | None, ...] | None = Field(
        default=None, max_length=MAX_ROUNDS, exclude_if=_absent
    )
    """The date of each round (TRF ``132``), ``None`` where the file leaves it blank."""


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
    birth_date: date | None = None
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
    | RoundReopened,
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
    be: strictly, with dates as ISO strings)."""
    try:
        if isinstance(raw, dict):
            try:
                raw = json.dumps(raw, allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise InvalidEvent(f"event: not a JSON object: {exc}") from None
        return _INPUT.validate_json(raw)
    except pydantic.ValidationError as exc:
        raise InvalidEvent(_describe(exc)) from None


def _describe(exc: pydantic.ValidationError) -> str:
    parts = []
    for error in exc.errors():
        location = ".".join(str(p) for p in error["loc"][1:] if p != "function-after")
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


# --------------------------------------------------------------------------- output


class PlayerRef(_Event):
    """How every alert names a player."""

    rank: int
    fide_id: int | None
    name: str
    federation: str | None
    """``None``: not known."""
    title: str | None
    rating: int | None


class CountedGame(_Event):
    round: int
    opponent: PlayerRef
    result: str
    """The player's TRF letter: ``1``, ``=``, ``0``; ``-`` for a last-round forfeit (1.42c)."""
    rating_used: int
    """The opponent's rating as the norm uses it (unrated value or raised floor applied)."""
    note: str = ""


class IgnoredGame(_Event):
    round: int
    opponent: PlayerRef | None
    result: str
    article: str
    reason: str


class Requirement(_Event):
    """One check of a norm, with what it needs and what the player has."""

    article: str
    name: str
    needed: str
    actual: str
    met: bool


class NormEvidence(_Event):
    """The IT1-like breakdown behind a verdict."""

    title: str
    achieved: bool
    rounds_considered: int
    games: int
    score: float
    """Points in the games counted, a number (a half point is ``.5``)."""
    score_text: str
    """The same as arbiters write it (``6½``, ``½``), for display."""
    percentage: int
    average_rating: int | None
    performance: int | None
    games_credited: int
    counted: tuple[CountedGame, ...]
    ignored: tuple[IgnoredGame, ...]
    requirements: tuple[Requirement, ...]


class NormFlags(_Event):
    """Tournament-level facts carried on a norm alert, computed from the facts: what the
    title application will be asked about beside the norm itself."""

    half_point_bye_last_round: bool = False
    """The player has a half-point bye in the last round (as known when the alert is made)."""
    swiss_exemption_by_round: tuple[bool, ...] = ()
    """For each round so far, whether the Swiss exemption (1.43e / 1.4.3d) held; empty for
    events that are not Swiss or have no host federation."""
    swiss_exemption: bool = False
    """Whether the exemption holds under the edition (2024: in every round)."""
    event_type_1_5_6: bool | None = None
    """1.5.6 (2024): the event is of a type an application needs one norm from; ``None``
    when the edition has no such rule."""
    event_type_reason: str = ""
    longer_than_30_days: bool | None = None
    """``None`` when the end date is not known (1.1.4 of 2024)."""
    ratings_at_game_date: bool = False
    """Opponents counted with their ratings at the date of each game (1.1.4 of 2024)."""
    rate_of_play: str | None = Field(default=None, exclude_if=_absent)
    """``standard``, or ``unknown`` when the file gives no time control (or one that cannot
    be read) and the event was judged as a standard one; norms are not announced for other
    rates (see ``rate_of_play_reason``)."""
    rate_of_play_reason: str | None = Field(default=None, exclude_if=_absent)
    """How the rate of play was read, with the minimum times it was held to."""
    rounds_per_day: int | None = Field(default=None, exclude_if=_absent)
    """The most rounds played on one day (TRF ``132``); ``None`` without round dates."""
    rounds_per_day_ok: bool | None = Field(default=None, exclude_if=_absent)
    """At most two rounds a day (2009 1.13, 2024 1.1.3); ``None`` without round dates or
    when the edition has no such rule."""
    one_round_a_day_3_days: bool | None = Field(default=None, exclude_if=_absent)
    """2024 1.1.3a, GM and WGM norms: the event has at least three days with one round
    only (an application needs one such norm); ``None`` for other titles and editions, or
    without round dates."""
    longer_than_90_days: bool | None = Field(default=None, exclude_if=_absent)
    """2009 1.15/1.16: the event lasted more than 90 days (allowed only for leagues and
    national championships or with the QC Chairman's approval; the list used must be
    declared); ``None`` under other editions or without dates."""


class NormCondition(_Event):
    """What a norm achieved before the last round still depends on: something later rounds
    can change that the player's own results cannot (see ``tracker/secured.py``)."""

    article: str
    text: str


def _empty(value: object) -> bool:
    """Output fields added after the first contract are left out of the JSON form while
    empty, so alerts without them keep their exact form."""
    return not value


SCHEMA_VERSION: Final = 3
"""The version of the output events' contract (README, "The event contract"): raised when a
field of an output event changes its type or meaning or goes away; a new optional field or a
new alert type keeps it. 1 (no field): scores were strings (``"6½"``); 2: scores are numbers,
with ``score_text`` beside them where a page shows them; 3: a prospect's ``games_left`` may be
``null`` (a Swiss whose number of rounds is unknown), ``secured_early`` is false for a norm
announced with ``conditions``, and ``round_finished.last_round`` is false while the number of
rounds is unknown."""


class _Alert(_Event):
    schema_version: Literal[3] = SCHEMA_VERSION
    """:data:`SCHEMA_VERSION`, on every alert, so a subscriber sees which contract it reads."""
    alert_id: str
    tournament_id: str
    round: int
    edition: str


class NormAchieved(_Alert):
    type: Literal["norm_achieved"] = "norm_achieved"
    player: PlayerRef
    title: str
    secured_early: bool
    """Achieved before the last round, so that no later result and no absence can take it
    away; ``False`` after the last round, and while :attr:`conditions` are open."""
    evidence: NormEvidence
    flags: NormFlags | None = None
    conditions: tuple[NormCondition, ...] = Field(default=(), exclude_if=_empty)
    """Before the last round: what the norm still depends on that later rounds can change
    (who turns up for the 1.4.3d exemption; 1.42d's unrated opponents). Empty when secured
    or final. A norm announced with conditions is announced again, under a new id and
    without them, once they no longer matter (the last round); ``norm_revoked`` if they
    fail."""


class NormRevoked(_Alert):
    type: Literal["norm_revoked"] = "norm_revoked"
    player: PlayerRef
    title: str
    reason: str


class TitleRatingReached(_Alert):
    type: Literal["title_rating_reached"] = "title_rating_reached"
    player: PlayerRef
    title: str
    level: int
    live_rating: int
    rating_change: int
    rated_games: int | None = None
    """Rated games played in all when the level was reached (1.3 of 2024 asks 30 for a
    title by rating); ``None`` when the count before the tournament is not known."""


class IgnorableGames(_Alert):
    type: Literal["ignorable_games"] = "ignorable_games"
    player: PlayerRef
    title: str
    games: tuple[IgnoredGame, ...]


class ProspectNeed(_Event):
    """Swiss: with ``score`` points from ``games`` remaining games that count for the norm,
    their opponents must average at least ``average`` (ratings as the norm counts them,
    1.47b rounding); ``best_available`` is what the strongest players not yet met average."""

    games: int
    score: float
    average: int
    best_available: int
    note: str = Field(default="", exclude_if=_empty)
    """What else the row needs, e.g. 1.4.1c's 8-game norm: the round without a counted game
    a forfeit win or a pairing-allocated bye."""


class ProspectWay(_Event):
    """Round robin: ``score`` points from the remaining games can give the norm, for example
    with ``results``: the candidate's TRF letter (``1``, ``=``, ``0``) for each game of the
    prospect's ``remaining``, in its order (empty when the ways are only a bound)."""

    score: float
    results: tuple[str, ...]


class Prospect(_Event):
    """What the remaining rounds must bring (see ``tracker/prospects.py``)."""

    exact: bool
    """``True`` in a round robin: the remaining opponents are known and ``ways`` is exact."""
    games_left: int | None
    """Rounds left to play; ``None`` in a Swiss whose number of rounds is unknown."""
    remaining: tuple[PlayerRef, ...]
    """Round robin: the games still to play, by opponent's start rank (twice for an opponent
    met twice more in a double round robin)."""
    ways: tuple[ProspectWay, ...]
    needs: tuple[ProspectNeed, ...]
    open_requirements: tuple[Requirement, ...]
    """What a record of every remaining game will need, against the games so far."""
    assumption: str
    """Swiss: what the requirements assume about the opponents still to come."""


class NormProspect(_Alert):
    """A player entered contention for a norm (it is still possible), or left it because the
    norm was achieved; leaving because it became impossible is :class:`NormOutOfReach`."""

    type: Literal["norm_prospect"] = "norm_prospect"
    player: PlayerRef
    title: str
    status: Literal["entered", "left"]
    in_contention: bool
    reason: str
    prospect: Prospect | None
    """With ``entered``: what the remaining rounds must bring."""


class NormOutOfReach(_Alert):
    """A player in contention for a norm can no longer make it, whatever the results."""

    type: Literal["norm_out_of_reach"] = "norm_out_of_reach"
    player: PlayerRef
    title: str
    reason: str
    open_requirements: tuple[Requirement, ...]


class Standing(_Event):
    player: PlayerRef
    score: float
    score_text: str
    live_rating: int | None
    rating_change: int | None


class _RoundSummary(_Alert):
    type: str
    last_round: bool
    standings: tuple[Standing, ...]
    not_a_norm_event: str | None = Field(default=None, exclude_if=_absent)
    """Why the event gives no norm, prospect or title-rating alerts (rapid, blitz, online,
    or too little time for the rating or title regulations); absent when it can."""


class RoundFinished(_RoundSummary):
    type: Literal["round_finished"] = "round_finished"


class StandingsCorrected(_RoundSummary):
    """A correction changed the standings after a finished round: the round's summary
    again, with the standings worked out from the facts as they are now. It replaces the
    summary ``revises`` names (a ``round_finished``, or an earlier ``standings_corrected``)."""

    type: Literal["standings_corrected"] = "standings_corrected"
    revises: str
    reason: str


class RoundReopenedAlert(_Alert):
    """A round announced as finished is no longer finished: it was reopened (input
    ``round_reopened``) and is not complete, or it follows such a round (``reason`` says
    which). Its summary (``revokes``) no longer stands, and what rested on it is revoked.
    When the round finishes again a new ``round_finished`` (a new id) follows."""

    type: Literal["round_reopened"] = "round_reopened"
    revokes: str
    reason: str


class TitleRatingRevoked(_Alert):
    """A correction took back a ``title_rating_reached`` (``revokes``): the live rating no
    longer reaches the level, or no round is finished any more that reached it."""

    type: Literal["title_rating_revoked"] = "title_rating_revoked"
    revokes: str
    player: PlayerRef
    title: str
    level: int
    reason: str


class NormProspectRevoked(_Alert):
    """A correction took back a player's entry into contention (the ``norm_prospect`` with
    ``status`` ``entered`` that ``revokes`` names) where neither ``norm_out_of_reach`` nor
    ``norm_prospect`` ``left`` says it: no round is finished any more, the event no longer
    gives norms, or the player is no longer evaluated for the title (a corrected
    registration, a player taken off)."""

    type: Literal["norm_prospect_revoked"] = "norm_prospect_revoked"
    revokes: str
    player: PlayerRef
    title: str
    reason: str


OutputEvent = Annotated[
    NormAchieved
    | NormRevoked
    | TitleRatingReached
    | IgnorableGames
    | RoundFinished
    | NormProspect
    | NormOutOfReach
    | RoundReopenedAlert
    | StandingsCorrected
    | TitleRatingRevoked
    | NormProspectRevoked,
    Field(discriminator="type"),
]
OUTPUT_ADAPTER: TypeAdapter[OutputEvent] = TypeAdapter(OutputEvent)
