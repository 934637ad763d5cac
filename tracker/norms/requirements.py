"""What one title's norm needs of one player in one tournament (:class:`Requirements`): the
number of games (1.41, 1.4.1), the minimum score (1.49), the average of the opponents with
the lowest raised to the floor (1.46c, 1.47b) and the performance (1.48, 1.48a), and the
edition's opponent mix for a record's length. The integer arithmetic the search and the
prospects share lives here, so that both compute every bound the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tracker.domain.fide_tables import average_half_up, dp, percentage_of_half_points
from tracker.domain.players import Player
from tracker.domain.titles import Title
from tracker.domain.tournaments import Tournament
from tracker.norms.values import Cell, Check, Context, NormGame
from tracker.rules import TitleRules
from tracker.rules.mix import MixRule


@dataclasses.dataclass(frozen=True, slots=True)
class Requirements:
    title: Title
    rules: TitleRules
    player: Player
    tournament: Tournament
    exemption: str | None
    floor: int
    raise_count: int
    avg_min: int
    perf_min: int
    min_games: int
    counted_as: int
    """What a norm of exactly :attr:`min_games` games counts as (World Cup, 1.4.1c: 9)."""
    games_article: str
    exemption_possible: str | None = None
    """The federation exemption when players of unknown federation may make it hold (the
    Swiss exemption's field, 1.4.3b's host federation); :attr:`exemption` when it holds
    anyway."""
    event_check: Check | None = None
    """:attr:`Context.event_check`: listed first in every evidence, and no norm."""
    optimistic: bool = False
    """Judge requirements that depend on unknown federations as met: the search for an
    attempt that is *possible* (:func:`evaluate`'s breakdown, prospects). A norm is
    announced only from a search without it."""
    _mixes: dict[tuple[int, int | None, bool], MixRule] = dataclasses.field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """The mix rules asked for so far (the edition's rules are values, so each is made once)."""

    def mix(self, games: int, opponents: int | None = None, sure: bool | None = None) -> MixRule:
        """The edition's mix rule for ``games`` games; with the exemption that surely holds
        (``sure``, by default unless :attr:`optimistic`) or that possibly holds."""
        possible = self.optimistic if sure is None else not sure
        rule = self._mixes.get((games, opponents, possible))
        if rule is None:
            rule = self._mixes[(games, opponents, possible)] = _edition_mix(
                self.rules,
                self.title,
                games,
                self.tournament,
                self.player,
                self.exemption_possible if possible else self.exemption,
                opponents,
            )
        return rule


_MIX_MEMO_SIZE = 4096
"""Mix rules an edition keeps before it starts its memo afresh."""


def _edition_mix(
    rules: TitleRules,
    title: Title,
    games: int,
    t: Tournament,
    player: Player,
    exemption: str | None,
    opponents: int | None,
) -> MixRule:
    """``rules.mix`` remembered in the edition's memo: the same player meets the same mix
    rules in every round, and each takes Fractions and a :class:`WeightedMO` to make."""
    key = (title, games, t, player, exemption, opponents)
    memo = rules.mix_memo
    rule = memo.get(key)
    if rule is None:
        if len(memo) >= _MIX_MEMO_SIZE:
            memo.clear()
        rule = memo[key] = rules.mix(title, games, t, player, exemption, opponents)
    return rule


def norm_requirements(
    title: Title, player: Player, ctx: Context, rules: TitleRules, optimistic: bool = False
) -> Requirements:
    t = ctx.tournament
    low, counted_as = rules.min_games(t)
    exemption = rules.federation_exemption(t, ctx.swiss_exempt, player)
    return Requirements(
        title=title,
        rules=rules,
        player=player,
        tournament=t,
        exemption=exemption,
        exemption_possible=exemption or _possible_exemption(player, ctx, rules),
        event_check=ctx.event_check,
        optimistic=optimistic,
        floor=rules.rating_floor[title],
        raise_count=rules.raised_opponents,
        avg_min=rules.average_min[title],
        perf_min=rules.performance_min[title],
        min_games=low,
        counted_as=counted_as,
        games_article=rules.articles["games"],
    )


def _possible_exemption(player: Player, ctx: Context, rules: TitleRules) -> str | None:
    """The federation exemption if players of unknown federation make it hold: the Swiss
    exemption with them foreign, or (the player's own federation unknown) an exemption for
    the host federation's players (1.4.3b of 2024)."""
    t = ctx.tournament
    swiss = ctx.swiss_exempt or ctx.swiss_exempt_possible
    found = rules.federation_exemption(t, swiss, player)
    if found is None and player.federation is None and t.host_federation is not None:
        host = dataclasses.replace(player, federation=t.host_federation)
        found = rules.federation_exemption(t, swiss, host)
    return found


def floor_raised(ratings: Sequence[int], spec: Requirements) -> tuple[int, int]:
    """Sum of ratings with the lowest ``raise_count`` raised to the floor (1.46c), and how
    many were raised. ``ratings`` must be sorted ascending."""
    total = sum(ratings)
    raised = 0
    for r in ratings[: spec.raise_count]:
        if r < spec.floor:
            total += spec.floor - r
            raised += 1
    return total, raised


def rounded_average(adjusted_sum: int, games: int) -> int:
    """1.47b: the average rounded to the nearest whole number, 0.5 up."""
    return average_half_up(adjusted_sum, games)


def score_ok(half_points: int, games: int, rules: TitleRules) -> bool:
    """1.49: at least the minimum score (35 %), compared exactly."""
    share = rules.min_score
    if share is None:
        return True
    return half_points * share.denominator >= 2 * share.numerator * games


def least_average(half_points: int, games: int, spec: Requirements) -> int:
    """Lowest average Ra that gives the norm for this score: Ra ≥ minimum average and
    Ra + dp ≥ minimum performance (1.48, 1.48a)."""
    return max(spec.avg_min, spec.perf_min - dp(percentage_of_half_points(half_points, games)))


def requirements(
    title: Title, player: Player, ctx: Context, rules: TitleRules, after_cut: bool = False
) -> Requirements:
    """The requirements of ``title``; ``after_cut`` for a record whose later games are left
    out under 1.42f (at least :meth:`min_games_after_cut` games). Optimistic about players
    of unknown federation: prospects ask whether a norm is still *possible*."""
    spec = norm_requirements(title, player, ctx, rules, optimistic=True)
    if after_cut:
        t = ctx.tournament
        spec = dataclasses.replace(
            spec, min_games=max(spec.min_games, rules.min_games_after_cut(t))
        )
    return spec


def needed_average(half_points: int, games: int, spec: Requirements) -> int | None:
    """The lowest Ra with which this score gives the norm (1.48, 1.48a); ``None`` below the
    minimum score (1.49). Integers throughout, as the search computes it."""
    if not score_ok(half_points, games, spec.rules):
        return None
    return least_average(half_points, games, spec)


def floor_adjusted(ratings: Sequence[int], spec: Requirements) -> int:
    """The sum of ``ratings`` (ascending) with the lowest raised to the floor (1.46c)."""
    return floor_raised(ratings, spec)[0]


def least_total(need: int, games: int) -> int:
    """The smallest sum of ratings whose average over ``games``, rounded as the norm's Ra is
    (1.47b), reaches ``need``.

    >>> least_total(2380, 9), rounded_average(21416, 9), rounded_average(21415, 9)
    (21416, 2380, 2379)
    """
    total = need * games - games // 2
    while rounded_average(total - 1, games) >= need:
        total -= 1
    while rounded_average(total, games) < need:
        total += 1
    return total


def short_record_requirements(
    counted: Sequence[NormGame], cells: Sequence[Cell], spec: Requirements
) -> Requirements | None:
    """1.4.1c (2024): the spec of a norm over fewer games, when the edition allows one for
    this tournament and every round is a counted game but one, which the player won by
    forfeit or spent on a pairing-allocated bye."""
    rules, t = spec.rules, spec.tournament
    short = rules.short_norm(t)
    if short is None or t.planned_rounds is None or len(counted) != short[0]:
        return None
    played = {g.round for g in counted}
    missing = [c for c in cells if c.round not in played]
    rounds = played | {c.round for c in missing}
    if rounds != set(range(1, t.planned_rounds + 1)) or len(missing) != 1:
        return None
    if not rules.short_norm_allows(missing[0].code, t):
        return None
    return short_requirements(spec)


def short_requirements(spec: Requirements) -> Requirements | None:
    """The requirements of a norm over fewer games (1.4.1c of 2024: 8 games counted as 9),
    when the edition allows one in this tournament, whichever round lacks its game."""
    short = spec.rules.short_norm(spec.tournament)
    if short is None:
        return None
    low, counted_as = short
    return dataclasses.replace(
        spec, min_games=low, counted_as=counted_as, games_article=spec.rules.short_norm_article
    )
