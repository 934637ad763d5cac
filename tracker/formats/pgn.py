"""A broadcast's PGN, read for what the tracker needs: who plays whom in which round, and
the result once a game is over.

Broadcast services serve a round (or a whole event) as one PGN that grows move by move:
one game per board, ``Round "5.3"`` for round 5 board 3, ``White``/``Black`` with
``WhiteFideId``/``BlackFideId``, ``WhiteElo``, ``WhiteTitle``, and ``Result`` ``*`` while the
game is played. Only the tags are read (python-chess's ``read_headers``); the moves are
skipped.

>>> games = read_games('''[Round "5.3"]
... [White "Carlsen, Magnus"]
... [Black "Caruana,F"]
... [WhiteFideId "1503014"]
... [Result "1/2-1/2"]
...
... 1. e4 e5 1/2-1/2
... ''')
>>> g = games[0]
>>> g.round, g.board, g.white.name, g.white.fide_id, g.black.fide_id, g.result
(5, 3, 'Carlsen, Magnus', 1503014, None, '1/2-1/2')
"""

from __future__ import annotations

import dataclasses
import io
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import chess.pgn

from tracker.domain.results import format_result, parse_result

_TAG = re.compile(r'\[[A-Za-z0-9_]+\s+"')


def looks_like_pgn(text: str) -> bool:
    """Whether the text opens as a PGN does, with a tag pair (``[Event "…"]``), so that a
    command reading TRF can say what it was given.

    >>> looks_like_pgn('\\n[Event "Open"]\\n[Site "Rochefort"]\\n')
    True
    >>> looks_like_pgn("012 Open\\n001    1 m ...")
    False
    """
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return _TAG.match(first.lstrip("\ufeff")) is not None


@dataclasses.dataclass(frozen=True, slots=True)
class Side:
    """One player of a broadcast game, as the tags name them."""

    name: str
    fide_id: int | None = None
    rating: int | None = None
    title: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class BroadcastGame:
    number: int
    """Position of the game in the feed (1 for the first)."""
    round_text: str
    """The ``Round`` tag as written."""
    round: int | None
    """``None`` when the tag does not give a round (``?``, ``-``, blank)."""
    board: int | None
    white: Side
    black: Side
    result: str | None
    """``1-0``, ``0-1``, ``1/2-1/2`` (as :func:`tracker.domain.results.format_result` writes them);
    ``None`` while the game is played (``*``) and when the tag is missing."""
    bad_result: str | None = None
    """A ``Result`` tag that is not a result (reported, and taken as not finished)."""
    site: str | None = None
    """The ``Site`` tag: where the game is played (``None`` for ``?``, blank or missing)."""

    def label(self) -> str:
        """``round 5 board 3 (Carlsen, Magnus - Caruana,F)``, for reports."""
        where = f"round {self.round_text or '?'}"
        if self.board is not None:
            where = f"round {self.round} board {self.board}"
        return f"game {self.number}, {where} ({self.white.name} - {self.black.name})"


def round_and_board(text: str) -> tuple[int | None, int | None]:
    """Round and board from a ``Round`` tag: ``5.3`` is round 5 board 3, ``5`` round 5.

    >>> round_and_board("5.3"), round_and_board(" 7 "), round_and_board("?")
    ((5, 3), (7, None), (None, None))
    """
    m = re.fullmatch(r"\s*(\d+)(?:\.(\d+))?\s*", text)
    if not m:
        return None, None
    return int(m.group(1)), int(m.group(2)) if m.group(2) else None


def _number(text: str | None) -> int | None:
    text = (text or "").strip()
    if not text.isdigit() or int(text) == 0:
        return None  # missing, "?" or "0": not given
    return int(text)


PGN_EXTRA = "pip install -e '.[pgn]'"
"""python-chess (GPL-3.0+) reads the PGN; it is the optional ``pgn`` extra, so that the
tracker's own install stays free of copyleft code."""


def pgn_available() -> bool:
    """Whether python-chess is installed (the ``pgn`` extra)."""
    try:
        import chess.pgn  # noqa: F401
    except ImportError:
        return False
    return True


def _side(headers: chess.pgn.Headers, colour: str) -> Side:
    name = (headers.get(colour) or "").strip()
    title = (headers.get(f"{colour}Title") or "").strip() or None
    return Side(
        name=name if name not in ("", "?") else "",
        fide_id=_number(headers.get(f"{colour}FideId")),
        rating=_number(headers.get(f"{colour}Elo")),
        title=title if title not in ("-", "?") else None,
    )


def read_games(text: str) -> list[BroadcastGame]:
    """Every game of a PGN text, in order, tags only. A game cut short at the end of the
    text (a feed caught while it is written) keeps the tags that were complete. Needs the
    ``pgn`` extra (:func:`pgn_available`)."""
    import chess.pgn

    handle = io.StringIO(text)
    games: list[BroadcastGame] = []
    while True:
        headers = chess.pgn.read_headers(handle)
        if headers is None:
            return games
        round_text = (headers.get("Round") or "").strip()
        number, board = round_and_board(round_text)
        raw = (headers.get("Result") or "*").strip()
        result: str | None = None
        bad: str | None = None
        if raw != "*":
            try:
                result = format_result(*parse_result(raw))
            except ValueError:
                bad = raw
        games.append(
            BroadcastGame(
                number=len(games) + 1,
                round_text=round_text,
                round=number,
                board=board,
                white=_side(headers, "White"),
                black=_side(headers, "Black"),
                result=result,
                bad_result=bad,
                site=(headers.get("Site") or "").strip().strip("?").strip() or None,
            )
        )


__all__ = [
    "BroadcastGame",
    "Side",
    "looks_like_pgn",
    "read_games",
    "round_and_board",
]
