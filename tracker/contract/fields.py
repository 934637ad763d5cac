"""The event contract's common ground: the base model, and the fields with their limits.

Every input field has a stated limit: the JSON Schema (``tracker schema``) carries them
(``maxLength``, ``maximum``, ``maxItems``, ``pattern``, the federation codes as an ``enum``)
and the contract document lists them.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from tracker.domain.federations import CODES as FEDERATIONS
from tracker.domain.federations import is_federation


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
:func:`tracker.engine.transition.apply` rejects the next one, naming ``rank``). The largest opens
have about 2,500."""
MAX_FIDE_ID = 99_999_999_999
"""The TRF's eleven columns (49-59) for the FIDE id."""
MAX_RATING = 3500
MAX_RATED_GAMES = 99_999
MAX_TITLE = 8
"""Characters of ``title`` as written (``GM``, ``wg``, with spaces around)."""
MAX_RESULT = 16
"""Characters of ``result`` as written (``1/2-1/2`` and spaces around)."""

BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
"""The Unicode bidirectional embeddings, overrides and isolates (U+202A-U+202E,
U+2066-U+2069): in a name they reorder what a page, a certificate or a log shows around it
(U+202E makes ``Carlsen`` read ``neslraC`` and can disguise what follows), and no name needs
them (a right-to-left name is shown right to left without them; the marks U+200E and U+200F
stay allowed)."""

_CONTROL = "^[^\\u0000-\\u001f\\u007f\\u202a-\\u202e\\u2066-\\u2069]*$"
"""The JSON Schema pattern of a text field: no control character (U+0000-U+001F, U+007F) and
no bidirectional control (:data:`BIDI_CONTROLS`)."""


def _shown(value: str) -> str:
    """A refused value as an error message quotes it: never more than 20 characters."""
    return repr(value if len(value) <= 20 else value[:20] + "…")


def _printable(value: str) -> str:
    for i, char in enumerate(value):
        if char < " " or char == "\x7f":
            raise ValueError(f"control character U+{ord(char):04X} at position {i + 1}")
        if char in BIDI_CONTROLS:
            raise ValueError(
                f"bidirectional control character U+{ord(char):04X} at position {i + 1} "
                "(it would reorder the text around it where it is shown)"
            )
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
MAX_EVIDENCE = 400
"""Characters of a sentence of evidence (how the system was read)."""
Evidence = Annotated[str, _limits(MAX_EVIDENCE), _PRINTABLE]
TimeControl = Annotated[str, _limits(MAX_TIME_CONTROL), _PRINTABLE]


def _federation(value: str) -> str:
    if not is_federation(value):
        raise ValueError(
            f"{_shown(value)} is not a federation code: three capital letters from FIDE's "
            "list of member federations (tracker/domain/federations.py), or FID"
        )
    return value


FederationCode = Annotated[
    str,
    AfterValidator(_federation),
    WithJsonSchema(
        {
            "type": "string",
            "enum": sorted(FEDERATIONS),
            "description": (
                "FIDE federation code (tracker/domain/federations.py); FID: the FIDE flag"
            ),
        }
    ),
]
"""A federation code from :data:`tracker.domain.federations.CODES`, exactly as listed."""

FIRST_DATE = date(1950, 1, 1)
"""The earliest date of an event (FIDE first awarded titles in 1950)."""
LAST_DATE = date(2099, 12, 31)
"""The latest date of an event or a round: a date beyond is a typing error (9999-12-31)."""
FIRST_BIRTH_DATE = date(1880, 1, 1)

EventDate = Annotated[date, Field(ge=FIRST_DATE, le=LAST_DATE)]
"""A tournament's or a round's date."""
BirthDate = Annotated[date, Field(ge=FIRST_BIRTH_DATE, le=LAST_DATE)]

RoundNumber = Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
StartRank = Annotated[int, Field(ge=1, le=MAX_RANK)]
GameRating = Annotated[int, Field(ge=1, le=MAX_RATING)]


def _absent(value: object) -> bool:
    """Optional input fields added after the first contract (the game-date ratings of
    pairings and results, the descriptive fields of ``tournament_registered``) are left out
    of the JSON form when not given (``exclude_if``, one check in pydantic's serializer), so
    events written before they existed keep their exact form."""
    return value is None
