"""A tournament's state: the facts received so far, and the memory of alerts already sent.

Nothing derived is stored but :attr:`TournamentState.carry`: scores, Ra, Rp, live ratings and
verdicts are worked out from the facts by :mod:`tracker.engine.evaluation` whenever a round
finishes or a result is corrected, the next round's from the carry of the round before when
the facts it rests on are the same (:mod:`tracker.engine.carry`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.tournaments import Tournament
from tracker.norms.search import Cell
from tracker.rules import TitleRules
from tracker.rules.rating import RatingRules

if TYPE_CHECKING:
    from tracker.engine.carry import Carry

Board = tuple[int, int]
"""(white, black) start ranks."""

_EMPTY: Mapping[int, Player] = MappingProxyType({})


@dataclasses.dataclass(frozen=True, slots=True)
class Round:
    """The boards and byes of one round. A board's result is ``None`` until reported."""

    boards: Mapping[Board, tuple[Code, Code] | None] = dataclasses.field(
        default_factory=lambda: MappingProxyType({})
    )
    byes: Mapping[int, Code] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    closed: bool = False
    ratings: Mapping[int, int] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    """Players' ratings on the date of this round's game, by start rank, where the input
    gave them (``white_rating``/``black_rating``; 1.1.4 of 2024)."""
    implied: bool = False
    """Some board came from a result alone, without a ``pairing``: the input does not send
    the round's pairings, so its boards are known only as their results arrive."""
    amended: bool = False
    """A correction opened the round's line-up (``round_reopened``, a board or bye taken
    back): it takes new pairings, byes and results although it has finished, from then on
    (closed again or not: a feed sent again may bring the round's close before what was
    missing)."""
    reopened: bool = False
    """``round_reopened`` since the last ``round_closed``: the round's finish is in question,
    so a finished round that is not complete is no longer finished. A board or bye taken
    back from a finished round leaves it finished (its players are absent until the right
    facts come), so that putting one board right does not take the whole event back."""
    _cells: dict[int, tuple[tuple[int, Cell], ...]] = dataclasses.field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Memo of :meth:`cells`, by round number. A round is a value: every new fact of the
    round (a pairing, a bye, a result, a correction, a rating) makes a new ``Round``
    (``dataclasses.replace`` or :meth:`replaced`), which starts with an empty memo, so the
    memo cannot outlive the facts it was built from."""

    def replaced(
        self,
        *,
        boards: Mapping[Board, tuple[Code, Code] | None] | None = None,
        byes: Mapping[int, Code] | None = None,
        closed: bool | None = None,
        ratings: Mapping[int, int] | None = None,
        implied: bool | None = None,
        amended: bool | None = None,
        reopened: bool | None = None,
    ) -> Round:
        """``dataclasses.replace`` for the fact path, without its per-call introspection."""
        return Round(
            self.boards if boards is None else boards,
            self.byes if byes is None else byes,
            self.closed if closed is None else closed,
            self.ratings if ratings is None else ratings,
            self.implied if implied is None else implied,
            self.amended if amended is None else amended,
            self.reopened if reopened is None else reopened,
        )

    def same_facts(self, other: Round) -> bool:
        """Whether the two rounds hold the same games, byes and ratings (what standings,
        ratings and norms are derived from), whether closed, amended or reopened or not."""
        return self is other or (
            self.boards == other.boards
            and self.byes == other.byes
            and self.ratings == other.ratings
        )

    def cells(self, number: int) -> tuple[tuple[int, Cell], ...]:
        """The cells of this round (as round ``number``), with each player's start rank:
        byes, then both sides of every board with a result."""
        memo = self._cells.get(number)
        if memo is not None:
            return memo
        out: list[tuple[int, Cell]] = [
            (rank, Cell(number, None, code)) for rank, code in self.byes.items()
        ]
        ratings = self.ratings
        for (white, black), result in self.boards.items():
            if result is None:
                continue
            black_rating = ratings.get(black) if ratings else None
            white_rating = ratings.get(white) if ratings else None
            out.append((white, Cell(number, black, result[0], black_rating)))
            out.append((black, Cell(number, white, result[1], white_rating)))
        self._cells[number] = memo = tuple(out)
        return memo

    def opponent_board(self, rank: int) -> Board | None:
        for board in self.boards:
            if rank in board:
                return board
        return None

    def complete(self, players: Iterable[int]) -> bool:
        """A round finishes when it is closed, or when it has boards and every board has a
        result. Byes and absences alone never finish a round: they are often entered
        rounds ahead. Where the input sends results without pairings (:attr:`implied`), a
        board is known only once its result arrives, so the round also waits until every
        registered player is placed (on a board or with a bye)."""
        if self.closed:
            return True
        if not self.boards or None in self.boards.values():
            return False
        if not self.implied:
            return True
        placed = set(self.byes)
        for white, black in self.boards:
            placed.add(white)
            placed.add(black)
        return all(rank in placed for rank in players)


@dataclasses.dataclass(frozen=True, slots=True)
class TournamentState:
    tournament: Tournament
    title_rules: TitleRules
    rating_rules: RatingRules
    edition_reason: str
    players: Mapping[int, Player] = dataclasses.field(default_factory=lambda: _EMPTY)
    rounds: Mapping[int, Round] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    announced: int = 0
    """The last round whose finish has been announced."""
    sent: Mapping[str, str] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    """Alerts in force, by subject (``norm:7:GM``), with the id they were sent under."""
    carry: Carry | None = dataclasses.field(default=None, compare=False, repr=False)
    """What the evaluation of the last round announced left for the next one's
    (:mod:`tracker.engine.carry`): derived from the facts, used only with the same facts."""

    def round(self, number: int) -> Round:
        return self.rounds.get(number) or Round()

    def with_round(self, number: int, rnd: Round) -> TournamentState:
        """The state with round ``number`` replaced: ``dataclasses.replace`` for the fact
        path, without its per-call introspection."""
        rounds = dict(self.rounds)
        rounds[number] = rnd
        return TournamentState(
            self.tournament,
            self.title_rules,
            self.rating_rules,
            self.edition_reason,
            self.players,
            MappingProxyType(rounds),
            self.announced,
            self.sent,
            self.carry,
        )

    def cells(self, rank: int, up_to: int) -> list[Cell]:
        """The player's rounds 1 … ``up_to`` as TRF-like cells (absent rounds left out)."""
        return self.all_cells(up_to).get(rank, [])

    def all_cells(self, up_to: int) -> dict[int, list[Cell]]:
        """Every player's cells, from each round's (memoised) :meth:`Round.cells`: in round
        order, as a player has at most one cell a round (a board or a bye, never both: see
        ``facts._already_placed``)."""
        cells: dict[int, list[Cell]] = {rank: [] for rank in self.players}
        for number in range(1, up_to + 1):
            rnd = self.rounds.get(number)
            if rnd is None:
                continue
            for rank, cell in rnd.cells(number):
                mine = cells.get(rank)
                if mine is None:
                    cells[rank] = mine = []
                mine.append(cell)
        return cells

    def finished_after(self, announced: int) -> int:
        """The last round of the unbroken run of complete rounds that follows round
        ``announced`` (itself when the next round is not complete). A fact that makes an
        announced round incomplete again is a correction (``tracker.engine.corrections``)."""
        number = announced
        planned = self.tournament.planned_rounds
        while (planned is None or number < planned) and self.round(number + 1).complete(
            self.players
        ):
            number += 1
        return number
