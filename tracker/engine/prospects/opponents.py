"""Who a player has met and who is left: the counted games so far and the pool of remaining
opponents (a round robin's scheduled ones, a Swiss's field but those met over the board),
summed up for the bounds (:class:`Have`, :class:`Pool`)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System
from tracker.engine.prospects.values import HORIZON, Remaining
from tracker.engine.state import TournamentState
from tracker.norms.search import Cell, Context, NormGame, norm_games
from tracker.rules.mix import MO, WeightedMO

K = TypeVar("K")

Weighted = tuple[int, list[tuple[int, int]]]
"""A weighted title mix for one player in units of its ``scale``: (value so far, gains)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Pool:
    """What the remaining opponents could bring, summed up for the bounds (counts as plain
    dictionaries, read with ``get``: a Counter costs several times more to make)."""

    size: int
    ratings: tuple[int, ...]
    """Their ratings as the norm counts them before the floor (1.46d/e), highest first, as
    many as there are games left."""
    titles: dict[Title | None, int]
    federations: dict[str, int]
    unrated: int


@dataclasses.dataclass(frozen=True, slots=True)
class Have:
    """The opponents of the games so far, summed up for the bounds: all of them, and the won
    games among them that 1.42e could leave out (counts read with ``get``, as :class:`Pool`'s)."""

    titles: dict[Title, int]
    federations: dict[str, int]
    unrated: int
    droppable_federations: dict[str, int]
    droppable_unrated: int


@dataclasses.dataclass(frozen=True, slots=True)
class Record:
    """A player's counted games so far as the Swiss bound reads them, the same for every
    title: by rating, lowest first (in round order among equal ratings), with their sums."""

    ordered: tuple[NormGame, ...]
    half_points: int
    rating_sum: int
    wins: tuple[NormGame, ...]
    """The won games of :attr:`ordered`, lowest rated first."""


def _count(counts: dict[K, int], key: K) -> None:
    counts[key] = counts.get(key, 0) + 1


class Opponents:
    """The games so far and the remaining opponents of every player after round ``up_to``,
    each worked out once when first asked for."""

    def __init__(
        self,
        state: TournamentState,
        up_to: int,
        cells: Mapping[int, Sequence[Cell]],
        ctx: Context,
        known: Mapping[int, tuple[Sequence[Cell], Sequence[NormGame]]] | None = None,
    ) -> None:
        """``ctx``: the context the games so far are classified in (1.42a–d); ``known``:
        players' rounds already classified in the same context (:attr:`Prior.games`), which
        :meth:`counted` extends by the rounds since."""
        t = state.tournament
        self.state = state
        self.up_to = up_to
        self.cells = cells
        self.ctx = ctx
        self.rules = rules = state.title_rules
        self.tournament = t
        self.round_robin = t.system.predetermined
        self.cycles = 2 if t.system is System.DOUBLE_ROUND_ROBIN else 1
        self.games_left_swiss = (
            None if t.planned_rounds is None else max(0, t.planned_rounds - up_to)
        )
        """Rounds left in a Swiss; ``None`` when the number of rounds is not known (then
        the outlook assumes a number, :data:`HORIZON`)."""
        if not self.round_robin:
            players = list(state.players.values())
            self.field = sorted(((rules.opponent_rating(p), p.rank) for p in players), reverse=True)
            self.titles: dict[Title | None, int] = {}
            self.federations: dict[str, int] = {}
            for p in players:
                _count(self.titles, p.title)
                _count(self.federations, p.federation_key)
            self.unrated = sum(1 for p in players if p.rating is None)
        self._known = known or {}
        self._games: dict[int, list[NormGame]] = {}
        self._records: dict[int, Record] = {}
        self._best: dict[tuple[int, int], list[int]] = {}
        self._met: dict[int, Counter[int]] = {}
        self._holders: dict[tuple[int, frozenset[Title]], tuple[int, int]] = {}
        self._pools: dict[int, Pool] = {}
        self._have: dict[int, Have] = {}
        self._everyone: list[Remaining] | None = None
        self._left: dict[int, tuple[Remaining, ...]] = {}
        self._weighted: dict[tuple[int, int], tuple[Mapping[Title, Fraction], Weighted]] = {}
        self._foreign: dict[int, tuple[int, int]] = {}
        self._foreign_field: dict[str, frozenset[str]] = {}

    def counted(self, rank: int) -> list[NormGame]:
        """The player's games so far that count for norms (1.42a–d): those of the rounds
        already classified (``known``) and the rounds since."""
        found = self._games.get(rank)
        if found is None:
            player = self.state.players[rank]
            cells = self.cells.get(rank, ())
            before, games = self._known.get(rank, ((), ()))
            done = len(before)
            if done > len(cells) or any(
                a is not b and a != b for a, b in zip(cells, before, strict=False)
            ):
                done, games = 0, ()
            found = [*games, *norm_games(player, cells[done:], self.ctx, self.rules)[0]]
            self._games[rank] = found
        return found

    def classified(self) -> dict[int, tuple[Sequence[Cell], Sequence[NormGame]]]:
        """Each player's rounds and counted games worked out so far (:attr:`Prior.games`)."""
        return {rank: (self.cells.get(rank, ()), games) for rank, games in self._games.items()}

    def record(self, rank: int) -> Record:
        """The counted games as the bound reads them (:class:`Record`)."""
        found = self._records.get(rank)
        if found is None:
            ordered = tuple(sorted(self.counted(rank), key=_rating))
            drop = self.rules.may_ignore_wins(self.tournament)
            found = self._records[rank] = Record(
                ordered,
                sum(g.half_points for g in ordered),
                sum(g.rating for g in ordered),
                tuple(g for g in ordered if g.won) if drop else (),
            )
        return found

    def best(self, rank: int, floor: int) -> list[int]:
        """``best[m]``: the sum of the ``m`` highest ratings of the pool (as many as it
        lists), each counted at least at ``floor`` (1.46c)."""
        key = (rank, floor)
        found = self._best.get(key)
        if found is None:
            found = self._best[key] = list(
                itertools.accumulate((max(r, floor) for r in self.pool(rank).ratings), initial=0)
            )
        return found

    def summary(self, rank: int) -> Have:
        found = self._have.get(rank)
        if found is None:
            titles: dict[Title, int] = {}
            federations: dict[str, int] = {}
            droppable: dict[str, int] = {}
            unrated = droppable_unrated = 0
            drop = self.rules.may_ignore_wins(self.tournament)
            for g in self.counted(rank):
                p = g.opponent
                if p.title is not None:
                    _count(titles, p.title)
                fed = p.federation_key
                _count(federations, fed)
                if p.rating is None:
                    unrated += 1
                if drop and g.won:
                    _count(droppable, fed)
                    if p.rating is None:
                        droppable_unrated += 1
            found = self._have[rank] = Have(
                titles, federations, unrated, droppable, droppable_unrated
            )
        return found

    def holders(self, rank: int, titles: frozenset[Title]) -> tuple[int, int]:
        """The title-holders (of ``titles``) among the opponents so far and in the pool."""
        key = (rank, titles)
        found = self._holders.get(key)
        if found is None:
            have, pool = self.summary(rank).titles, self.pool(rank).titles
            found = self._holders[key] = (
                sum(c for t, c in have.items() if t in titles),
                sum(c for t, c in pool.items() if t in titles),
            )
        return found

    def met(self, rank: int, over_the_board: bool) -> Counter[int]:
        if over_the_board and rank in self._met:
            return self._met[rank]
        met = Counter(
            c.opponent
            for c in self.cells.get(rank, [])
            if c.opponent is not None and (c.code.over_the_board or not over_the_board)
        )
        if over_the_board:
            self._met[rank] = met
        return met

    def pool(self, rank: int) -> Pool:
        if rank not in self._pools:
            self._pools[rank] = self._new_pool(rank)
        return self._pools[rank]

    def _new_pool(self, rank: int) -> Pool:
        if self.round_robin:
            players = [r.opponent for r in self.remaining(rank) if r.counts]
            ratings = sorted((self.rules.opponent_rating(p) for p in players), reverse=True)
            titles: dict[Title | None, int] = {}
            federations: dict[str, int] = {}
            for p in players:
                _count(titles, p.title)
                _count(federations, p.federation_key)
            return Pool(
                len(players),
                tuple(ratings),
                titles,
                federations,
                sum(1 for p in players if p.rating is None),
            )
        # Swiss: everyone not met over the board (no pairing repeats a game, C.04.1)
        field = self.state.players
        gone = {rank, *self.met(rank, over_the_board=True)}
        most = self.games_left_swiss
        if most is None:  # the most the outlook's games left can be (the minimum is the same)
            most = max(HORIZON - self.up_to, self.rules.min_games(self.tournament)[0], 1)
        best: list[int] = []
        for rating, other in self.field:
            if len(best) == most:
                break
            if other not in gone:
                best.append(rating)
        titles, federations = dict(self.titles), dict(self.federations)
        for other in gone:
            p = field[other]
            titles[p.title] -= 1
            federations[p.federation_key] -= 1
        return Pool(
            len(field) - len(gone),
            tuple(best),
            titles,
            federations,
            self.unrated - sum(1 for r in gone if field[r].rating is None),
        )

    def remaining(self, rank: int) -> tuple[Remaining, ...]:
        """Round robin: each opponent as many times as the cycles leave, by start rank;
        a Swiss has none known."""
        if not self.round_robin:
            return ()
        if rank not in self._left:
            met, cycles = self.met(rank, over_the_board=False), self.cycles
            self._left[rank] = tuple(
                game
                for game in self._opponents()
                if game.opponent.rank != rank
                for _ in range(cycles - met[game.opponent.rank])
            )
        return self._left[rank]

    def _opponents(self) -> list[Remaining]:
        """Round robin: a game against each player, by start rank, and whether it counts
        (1.42a/b/d depend on the opponent alone)."""
        if self._everyone is None:
            self._everyone = [
                Remaining(
                    opponent,
                    self.rules.exclusion(
                        opponent, Code.DRAW, self.tournament, other in self.ctx.unrated_scored_zero
                    )
                    is None,
                )
                for other, opponent in sorted(self.state.players.items())
            ]
        return self._everyone

    def foreign_federations(self, rank: int) -> tuple[int, int]:
        """The foreign federations (1.43) of the games so far, and how many more the
        remaining opponents could add."""
        if rank not in self._foreign:
            own = self.state.players[rank].federation_key
            is_foreign = self.rules.is_foreign
            have, pool = self.summary(rank), self.pool(rank)
            foreign = {f for f in have.federations if is_foreign(f, own)}
            if self.round_robin:
                new_feds = {f for f, c in pool.federations.items() if c > 0 and is_foreign(f, own)}
                self._foreign[rank] = (len(foreign), len(new_feds - foreign))
            else:
                # a Swiss pool is the field but the players met: of the field's foreign
                # federations, only those all of whose players were met are gone
                field = self.foreign_in_field(own)
                gone = {
                    f
                    for other in self.met(rank, over_the_board=True)
                    if pool.federations[f := self.state.players[other].federation_key] <= 0
                }
                self._foreign[rank] = (len(foreign), len(field - gone - foreign))
        return self._foreign[rank]

    def foreign_in_field(self, own: str) -> frozenset[str]:
        """Swiss: the federations of the field foreign to ``own`` (1.43)."""
        field = self._foreign_field.get(own)
        if field is None:
            is_foreign = self.rules.is_foreign
            field = frozenset(f for f in self.federations if is_foreign(f, own))
            self._foreign_field[own] = field
        return field

    def weighted(self, rank: int, mo: MO) -> Weighted | None:
        """A weighted title mix (1.45b–e) in integers, in units of
        :attr:`WeightedMO.scale`: the value of the games so far, and what each title among the
        remaining opponents adds with how many of them, best first. Kept per player and
        weights object; ``None`` for a mix of fixed combinations."""
        if not isinstance(mo, WeightedMO):
            return None
        known = self._weighted.get((rank, id(mo.weights)))
        if known is None or known[0] is not mo.weights:
            have, pool, weights = self.summary(rank), self.pool(rank), mo.scaled
            value = mo.scaled_value(have.titles)
            gains = sorted(
                ((weights.get(t, 0), c) for t, c in pool.titles.items() if t is not None),
                reverse=True,
            )
            known = (mo.weights, (value, gains))
            self._weighted[(rank, id(mo.weights))] = known
        return known[1]

    def short_games(self, rank: int) -> int | None:
        """1.4.1c (2024): whether the norm can still come from 8 counted games of a 9-round
        event, the ninth round a forfeit win or a pairing-allocated bye, and how many of the
        remaining games must then count: every round so far must be a counted game, but for
        at most one such round; if none was, one remaining round must be."""
        short = self.rules.short_norm(self.tournament)
        planned = self.tournament.planned_rounds
        if short is None or planned is None:
            return None
        counted = self.counted(rank)
        played = {g.round for g in counted}
        missing = [r for r in range(1, self.up_to + 1) if r not in played]
        if len(missing) > 1:
            return None
        if missing:
            cell = next((c for c in self.cells.get(rank, ()) if c.round == missing[0]), None)
            if cell is None or not self.rules.short_norm_allows(cell.code, self.tournament):
                return None
        m = short[0] - len(counted)
        rounds_left = planned - self.up_to
        if m < 0 or m + (0 if missing else 1) != rounds_left:
            return None
        remaining = self.remaining(rank)
        if self.round_robin and (
            m > sum(1 for r in remaining if r.counts) or m + (not missing) > len(remaining)
        ):
            return None
        return m

    def won_games(self, rank: int) -> list[NormGame]:
        """Round robin: the games that count for norms (the same for every title) with every
        remaining game won: the games so far and the remaining games that count (1.42a/b/d
        depend on the opponent alone), as :func:`norm_games` would list them."""
        rating = self.rules.opponent_rating
        return [
            *self.counted(rank),
            *(
                NormGame(n, r.opponent, Code.WIN, rating(r.opponent))
                for n, r in enumerate(self.remaining(rank), self.up_to + 1)
                if r.counts
            ),
        ]


def _rating(g: NormGame) -> int:
    return g.rating
