"""Quick necessary conditions of a norm on the rating (1.48, 1.48a), asked before the norm
search (:mod:`tracker.norms.search`) and shared by its two uses: a player's counted games
against one title's requirements (:func:`possible`), and, before any game is classified,
every game with an opponent against the lowest requirements of the titles asked about
(:func:`hopeless`). Both read the same relaxation (:meth:`Profile.reaches`): the best average
of ``m`` games is that of the ``m`` strongest opponents, the best score that of the ``m``
best results, and together they must reach the performance.

>>> Profile.of_values([2450] * 9, [1] * 9).reaches(9, 0, 2230, 2450)
True
>>> Profile.of_values([2450] * 9, [1] * 8 + [0]).reaches(9, 0, 2230, 2450)
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from tracker.domain.fide_tables import average_half_up, dp, percentage_of_half_points
from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.norms.requirements import Requirements
from tracker.norms.values import Cell, Context, NormGame
from tracker.rules import TitleRules


@dataclasses.dataclass(frozen=True, slots=True)
class Profile:
    """Games reduced to what the quick bound needs, built once for all titles: ratings and
    results, each sorted best first, as running sums."""

    lowest: int
    rating_sums: tuple[int, ...]
    """``rating_sums[m]``: the sum of the m highest ratings."""
    half_sums: tuple[int, ...]
    """``half_sums[m]``: the m best results, in half points."""

    @classmethod
    def of(cls, games: Sequence[NormGame]) -> Profile:
        return cls.of_values((g.rating for g in games), (g.half_points for g in games))

    @classmethod
    def of_values(cls, ratings: Iterable[int], halves: Iterable[int]) -> Profile:
        """The profile of games with these ratings (as counted) and results (half points)."""
        best = sorted(ratings, reverse=True)
        rating_sums, half_sums = [0], [0]
        for r, h in zip(best, sorted(halves, reverse=True), strict=True):
            rating_sums.append(rating_sums[-1] + r)
            half_sums.append(half_sums[-1] + h)
        return cls(best[-1] if best else 0, tuple(rating_sums), tuple(half_sums))

    def reaches(self, fewest: int, lift: int, average: int, performance: int) -> bool:
        """Whether some ``m`` games, at least ``fewest``, may reach the minimum ``average``
        (1.48a) and ``performance`` (1.48): the ``m`` highest ratings, raised by ``lift``
        in all (1.46c), and the ``m`` best results."""
        for m in range(fewest, len(self.rating_sums)):
            best_average = average_half_up(self.rating_sums[m] + lift, m)
            if best_average < average:
                return False  # the top-m average only falls as m grows
            best_pct = percentage_of_half_points(self.half_sums[m], m)
            if best_average + dp(best_pct) >= performance:
                return True
        return False


def possible(profile: Profile, spec: Requirements) -> bool:
    """A quick necessary condition over every subset of at least the minimum games of the
    counted games ``profile`` holds, for one title's requirements."""
    lift = spec.raise_count * max(0, spec.floor - profile.lowest)
    return profile.reaches(spec.min_games, lift, spec.avg_min, spec.perf_min)


def hopeless(
    player: Player, cells: Sequence[Cell], titles: Sequence[Title], ctx: Context, rules: TitleRules
) -> bool:
    """A cheap test that rules out most players of an open before any game is classified:
    even the best-rated possible games (every game with an opponent that could count,
    forfeit wins included for 1.42c, each at its result, a forfeit win as won) cannot reach
    the lowest minimum average (1.48a), nor with the best results the lowest minimum
    performance (1.48): :func:`possible` over more games, read more generously (the
    lowest opponent raised to the highest floor, the lowest requirement of the titles).
    ``tests/unit/test_norm_search.py`` checks that no record it rules out gives a norm."""
    least, _ = rules.min_games(ctx.tournament)
    short = rules.short_norm(ctx.tournament)
    if short is not None:
        least = min(least, short[0])
    if len(cells) < least:
        return True  # fewer rounds than games needed: no rating is read
    players = ctx.players
    game_date = ctx.game_date_ratings
    played = [
        (c, rank)
        for c in cells
        if (rank := c.opponent) is not None
        and (c.code.over_the_board or c.code is Code.FORFEIT_WIN)
    ]
    if len(played) < least:
        return True
    profile = Profile.of_values(
        (
            rules.opponent_rating(ctx.opponent(c) if game_date else players[rank])
            for c, rank in played
        ),
        (c.code.half_points for c, _ in played),
    )
    lowest = profile.lowest
    lift = max(rules.raised_opponents * max(0, rules.rating_floor[t] - lowest) for t in titles)
    average = min(rules.average_min[t] for t in titles)
    performance = min(rules.performance_min[t] for t in titles)
    return not profile.reaches(least, lift, average, performance)


__all__ = ["Profile", "hopeless", "possible"]
