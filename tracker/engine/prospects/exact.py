"""Round robins: the exact list of scores in the remaining games that give the norm, with an
example of results for each (:class:`Exact`), by trying every set of counted games."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.engine.prospects.bound import avg
from tracker.engine.prospects.values import Remaining, Way
from tracker.norms.search import (
    NormGame,
    Requirements,
    floor_adjusted,
    least_half_points,
    needed_average,
    requirements,
)

if TYPE_CHECKING:
    from tracker.engine.prospects.outlook import Outlook


@dataclasses.dataclass(frozen=True, slots=True)
class Plan:
    """One way the remaining games can make a norm: ``kept`` count (their points at least
    ``kept_half``), ``wins`` must be won and are left out (1.42e), ``free`` are left out
    whatever the result (after the norm under 1.42f, or not counting at all)."""

    kept: tuple[int, ...]
    kept_half: int
    wins: tuple[int, ...]
    free: tuple[int, ...]

    @property
    def least(self) -> int:
        return self.kept_half + 2 * len(self.wins)


class Exact:
    def __init__(
        self,
        outlook: Outlook,
        spec: Requirements,
        player: Player,
        title: Title,
        counted: Sequence[NormGame],
        remaining: Sequence[Remaining],
    ) -> None:
        rules, t = outlook.rules, outlook.tournament
        self.spec = spec
        self.after_cut = requirements(title, player, outlook.ctx, rules, after_cut=True)
        self.counted = list(counted)
        self.remaining = list(remaining)
        self.cut = rules.may_ignore_after_norm(t)
        self.drop_wins = rules.may_ignore_wins(t)
        self.futures = [
            (i, NormGame(0, r.opponent, Code.DRAW, rules.opponent_rating(r.opponent)))
            for i, r in enumerate(remaining)
            if r.counts
        ]
        self._bounds: dict[tuple[int, int, int], int | None] = {}

    def _current_choices(self) -> Iterator[tuple[list[NormGame], int]]:
        """The games so far that may be kept: all but any set of wins (1.42e)."""
        wins = [g for g in self.counted if g.won] if self.drop_wins else []
        for k in range(len(wins) + 1):
            for dropped in itertools.combinations(wins, k):
                ids = {id(g) for g in dropped}
                kept = [g for g in self.counted if id(g) not in ids]
                yield kept, sum(g.half_points for g in kept)

    def _future_choices(
        self,
    ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]]:
        """(kept, must be won and left out, left out whatever the result, after a cut) for
        the remaining games, the kept ones played first: the rest are wins left out (1.42e)
        or, when the edition allows it, games after the norm (1.42f)."""
        idx = [i for i, _ in self.futures]
        excluded = tuple(i for i in range(len(self.remaining)) if i not in set(idx))
        for size in range(len(idx), -1, -1):
            for kept in itertools.combinations(idx, size):
                rest = tuple(i for i in idx if i not in kept)
                if not rest or self.drop_wins:
                    yield kept, rest, excluded, False
                if rest and self.cut:
                    yield kept, (), rest + excluded, True

    def subsets(self) -> int:
        wins = sum(1 for g in self.counted if g.won) if self.drop_wins else 0
        return 1 << (wins + len(self.futures))

    def least(self) -> Plan | None:
        """The plan with the fewest points from the remaining games."""
        best: Plan | None = None
        games = dict(self.futures)
        low = self.spec.raise_count  # the most ratings the floor raises (1.46c)
        currents = [
            (current, half, len(current), sum(ratings), ratings[:low])
            for current, half in self._current_choices()
            for ratings in [sorted(g.rating for g in current)]
        ]
        for kept, wins, free, cut in self._future_choices():
            if len(self.counted) + len(kept) < self.spec.min_games:
                break  # too few games even with every game so far kept, and fewer to come
            if best is not None and 2 * len(wins) >= best.least:
                continue
            spec = self.after_cut if cut else self.spec
            future = [games[i] for i in kept]
            ratings = sorted(g.rating for g in future)
            future_sum, future_low = sum(ratings), ratings[:low]
            for current, current_half, count, total, lowest in currents:
                if count + len(future) < spec.min_games:
                    break  # the later choices leave out more games so far
                kept_games = [*current, *future]
                # the rating alone first: the mix is dearer and only matters if it could win
                bound = self._rating_bound(
                    spec, count + len(future), total + future_sum, sorted(lowest + future_low)
                )
                if bound is None or bound - current_half > 2 * len(kept):
                    continue
                if best is not None and max(0, bound - current_half) + 2 * len(wins) >= (
                    best.least
                ):
                    continue
                least = least_half_points(kept_games, spec)
                if least is None:
                    continue
                plan = Plan(kept, max(0, least - current_half), wins, free)
                if plan.kept_half > 2 * len(kept):
                    continue
                if best is None or plan.least < best.least:
                    best = plan
        return best

    def _rating_bound(
        self, spec: Requirements, games: int, total: int, lowest: list[int]
    ) -> int | None:
        """``least_half_points(kept, spec, mix=False)`` from the kept games' number, rating
        sum and lowest ratings (ascending, as many as the floor may raise)."""
        if games < spec.min_games:
            return None
        adjusted = floor_adjusted(lowest, spec) - sum(lowest) + total
        key = (spec.min_games, games, adjusted)
        if key not in self._bounds:
            ra = avg(adjusted, games)
            self._bounds[key] = (
                None
                if ra < spec.avg_min
                else next(
                    (
                        half
                        for half in range(2 * games + 1)
                        if (need := needed_average(half, games, spec)) is not None and ra >= need
                    ),
                    None,
                )
            )
        return self._bounds[key]

    def ways(self, plan: Plan) -> tuple[Way, ...]:
        """Every score from the plan's lowest up, each with results that give the norm:
        the counted games' points go to the lowest-rated opponents first."""
        out = []
        total = 2 * len(self.remaining)
        kept, free = self._lowest_first(plan.kept), self._lowest_first(plan.free)
        for score in range(plan.least, total + 1):
            results = [Code.LOSS] * len(self.remaining)
            for i in plan.wins:
                results[i] = Code.WIN
            rest = score - 2 * len(plan.wins)
            kept_half = max(plan.kept_half, rest - 2 * len(plan.free))
            _spread(results, kept, kept_half)
            _spread(results, free, rest - kept_half)
            out.append(Way(Fraction(score, 2), tuple(results)))
        return tuple(out)

    def _lowest_first(self, games: Sequence[int]) -> list[int]:
        return sorted(games, key=lambda i: (self.remaining[i].opponent.rating or 0, i))


def _spread(results: list[Code], ordered: Sequence[int], half: int) -> None:
    """``half`` points over the games ``ordered``, a win each while they last."""
    for i in ordered:
        points = min(2, half)
        results[i] = (Code.LOSS, Code.DRAW, Code.WIN)[points]
        half -= points
