"""Generated Swiss opens written as TRF text, and the cuts of them that real files are: a
file exported after some round, with byes entered ahead for the next one, with or without
the ``XXR`` record. The pairings are random (no repeats) except for a few players whose
games are fixed, so that a test knows their norms."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from datetime import date

from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System
from tracker.formats.trf import Cell, TrfFile, TrfHeader, TrfPlayer, format_trf

Entrant = tuple[str, int | None, str | None, str]
"""(name, rating, title, federation)"""

FixedGame = tuple[int, str]
"""(opponent's start rank, the player's result letter: ``1`` ``=`` ``0`` ``+`` ``-``)"""

_OPPOSITE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


def swiss_file(
    entrants: Sequence[Entrant],
    rounds: int,
    fixed: Mapping[int, Sequence[FixedGame | str | None]],
    seed: int = 1,
    start: date = date(2012, 7, 1),
    name: str = "Generated Open",
) -> TrfFile:
    """A Swiss of ``rounds`` rounds: the players of ``fixed`` play the games given (one per
    round; a single letter is a bye: ``H``, ``F``, ``U``, ``Z``; ``None`` leaves the round to
    chance); everyone else is paired at random among the players still free, never twice
    against the same opponent, with random results (a free player with no opponent left
    gets a pairing-allocated bye)."""
    rng = random.Random(seed)
    count = len(entrants)
    cells: dict[int, list[Cell | None]] = {rank: [] for rank in range(1, count + 1)}
    met: dict[int, set[int]] = {rank: set() for rank in cells}
    for r in range(rounds):
        placed: dict[int, Cell] = {}
        for rank, games in fixed.items():
            game = games[r]
            if game is None:
                continue  # paired at random this round
            if isinstance(game, str):
                placed[rank] = Cell(None, "-", Code.parse(game))
                continue
            other, letter = game
            colour = "w" if rank < other else "b"
            placed[rank] = Cell(other, colour, Code.parse(letter))
            placed[other] = Cell(rank, "b" if colour == "w" else "w", Code.parse(_OPPOSITE[letter]))
        free = [rank for rank in cells if rank not in placed]
        rng.shuffle(free)
        while free:
            rank = free.pop()
            choices = [o for o in free if o not in met[rank]]
            if not choices:
                placed[rank] = Cell(None, "-", Code.PAIRING_BYE)
                continue
            other = choices[0]
            free.remove(other)
            letter = rng.choice("1=0")
            placed[rank] = Cell(other, "w", Code.parse(letter))
            placed[other] = Cell(rank, "b", Code.parse(_OPPOSITE[letter]))
        for rank, cell in placed.items():
            cells[rank].append(cell)
            if cell.opponent is not None:
                met[rank].add(cell.opponent)
    players = tuple(
        TrfPlayer(
            rank=rank,
            name=entrant[0],
            federation=entrant[3],
            sex="m",
            title=Title.parse(entrant[2]),
            rating=entrant[1],
            fide_id=90_100_000 + rank,
            cells=tuple(cells[rank]),
        )
        for rank, entrant in enumerate(entrants, 1)
    )
    header = TrfHeader(
        name=name,
        start_date=start,
        planned_rounds=rounds,
        system=System.SWISS,
        host_federation="ESP",
    )
    return TrfFile(header=header, players=players)


def cut(
    trf: TrfFile,
    after: int,
    ahead: Mapping[int, str] | None = None,
    planned: bool = True,
    pending: bool = False,
) -> TrfFile:
    """The file as exported after round ``after``: later cells blank; without ``XXR``
    unless ``planned``. With ``pending`` round ``after + 1`` is paired as in the full
    file, without results; the byes of ``ahead`` (start rank -> ``H``, ``F``, ``Z``, ``U``)
    are entered for the round after that."""
    players = []
    for p in trf.players:
        cells: list[Cell | None] = list(p.cells[:after])
        if pending and after < len(p.cells):
            nxt = p.cells[after]
            if nxt is not None and nxt.opponent is not None:
                nxt = Cell(nxt.opponent, nxt.colour, None)
            cells.append(nxt)
        if ahead and p.rank in ahead:
            cells.append(Cell(None, "-", Code.parse(ahead[p.rank])))
        while cells and cells[-1] is None:
            cells.pop()
        players.append(dataclasses.replace(p, cells=tuple(cells)))
    header = dataclasses.replace(
        trf.header, planned_rounds=trf.header.planned_rounds if planned else None
    )
    return TrfFile(header=header, players=tuple(players), records=trf.records)


def text(trf: TrfFile) -> str:
    return format_trf(trf)


__all__ = ["Entrant", "FixedGame", "cut", "swiss_file", "text"]
