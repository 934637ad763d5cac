"""Game outcomes with the full TRF16 result semantics.

Each player's side of a round is one :class:`Code`, the letter of the TRF round cell.

>>> parse_result("1-0")
(<Code.WIN: '1'>, <Code.LOSS: '0'>)
>>> format_result(*parse_result("½-½"))
'1/2-1/2'
>>> parse_result("+-")[0].is_forfeit
True
>>> parse_result("1-1")
Traceback (most recent call last):
...
ValueError: impossible result '1-1': expected one of 1-0, 0-1, 1/2-1/2, ...
"""

from __future__ import annotations

import enum
from fractions import Fraction


class Code(enum.Enum):
    """The result letter of a TRF16 round cell (column 99 for round 1)."""

    # members are singletons compared by identity: hash them so too (Enum's default hashes
    # the name in Python code, a measurable cost in the norm search's counters and sets)
    __hash__ = object.__hash__

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    WIN_NO_MOVE = "W"
    """Won, but the game lasted less than one move: not rated (B.02 5.1), not a norm game."""
    DRAW_NO_MOVE = "D"
    LOSS_NO_MOVE = "L"
    HALF_BYE = "H"
    FULL_BYE = "F"
    PAIRING_BYE = "U"
    """Pairing-allocated bye ("U for player unpaired by the system")."""
    ZERO_BYE = "Z"
    """Known absence; a blank cell means the same."""

    @classmethod
    def parse(cls, letter: str) -> Code:
        """A TRF result letter, case-insensitive; blank is ``Z``."""
        code = _BY_LETTER.get(letter.strip().upper() or "Z")
        if code is None:
            raise ValueError(f"unknown TRF result code {letter!r}")
        return code

    @property
    def points(self) -> Fraction:
        """Points under the usual 1/½/0 scoring with a full-point pairing bye."""
        return _POINTS[self]

    @property
    def is_bye(self) -> bool:
        return self in (Code.HALF_BYE, Code.FULL_BYE, Code.PAIRING_BYE, Code.ZERO_BYE)

    @property
    def is_forfeit(self) -> bool:
        return self in (Code.FORFEIT_WIN, Code.FORFEIT_LOSS)

    half_points: int
    """:attr:`points` doubled, as a plain attribute for the hot paths."""
    over_the_board: bool
    """A game both players started: the only kind rated (B.02 5.1) and counted for norms.
    Set on each member below, as a plain attribute: it is read in the hottest loops."""

    def opposite(self) -> Code:
        """The opponent's letter for the same game."""
        return _OPPOSITE[self]


_POINTS = {
    Code.WIN: Fraction(1),
    Code.DRAW: Fraction(1, 2),
    Code.LOSS: Fraction(0),
    Code.FORFEIT_WIN: Fraction(1),
    Code.FORFEIT_LOSS: Fraction(0),
    Code.WIN_NO_MOVE: Fraction(1),
    Code.DRAW_NO_MOVE: Fraction(1, 2),
    Code.LOSS_NO_MOVE: Fraction(0),
    Code.HALF_BYE: Fraction(1, 2),
    Code.FULL_BYE: Fraction(1),
    Code.PAIRING_BYE: Fraction(1),
    Code.ZERO_BYE: Fraction(0),
}
_OPPOSITE = {
    Code.WIN: Code.LOSS,
    Code.LOSS: Code.WIN,
    Code.DRAW: Code.DRAW,
    Code.FORFEIT_WIN: Code.FORFEIT_LOSS,
    Code.FORFEIT_LOSS: Code.FORFEIT_WIN,
    Code.WIN_NO_MOVE: Code.LOSS_NO_MOVE,
    Code.LOSS_NO_MOVE: Code.WIN_NO_MOVE,
    Code.DRAW_NO_MOVE: Code.DRAW_NO_MOVE,
}

for _code in Code:
    _code.__dict__["over_the_board"] = _code in (Code.WIN, Code.DRAW, Code.LOSS)
    _code.__dict__["half_points"] = int(_POINTS[_code] * 2)

_BY_LETTER = {code.value: code for code in Code}

BYE_CODES = frozenset({Code.HALF_BYE, Code.FULL_BYE, Code.PAIRING_BYE, Code.ZERO_BYE})

_RESULTS: dict[str, tuple[Code, Code]] = {
    "1-0": (Code.WIN, Code.LOSS),
    "0-1": (Code.LOSS, Code.WIN),
    "1/2-1/2": (Code.DRAW, Code.DRAW),
    "+-": (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
    "-+": (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
    "--": (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
    "W-L": (Code.WIN_NO_MOVE, Code.LOSS_NO_MOVE),
    "L-W": (Code.LOSS_NO_MOVE, Code.WIN_NO_MOVE),
    "D-D": (Code.DRAW_NO_MOVE, Code.DRAW_NO_MOVE),
    "0-0": (Code.LOSS, Code.LOSS),
}
CANONICAL_RESULTS = frozenset(_RESULTS)
"""The results as :func:`format_result` writes them (the other spellings are aliases)."""
_ALIASES = {"½-½": "1/2-1/2", "=-=": "1/2-1/2", "0.5-0.5": "1/2-1/2", "+--": "+-", "--+": "-+"}


def parse_result(text: str) -> tuple[Code, Code]:
    """White's and Black's letters for a game result written ``1-0``, ``0-1``, ``1/2-1/2``,
    ``+-``/``-+``/``--`` (forfeits), ``W-L``/``L-W``/``D-D`` (decided before a move was
    made) or ``0-0`` (both lose, an arbiter's decision)."""
    key = text.strip()
    key = _ALIASES.get(key, key)
    if key not in _RESULTS:
        raise ValueError(f"impossible result {text!r}: expected one of {', '.join(_RESULTS)}")
    return _RESULTS[key]


def format_result(white: Code, black: Code) -> str:
    """The inverse of :func:`parse_result`."""
    for text, pair in _RESULTS.items():
        if pair == (white, black):
            return text
    raise ValueError(f"impossible pair of result codes {white.value}/{black.value}")
