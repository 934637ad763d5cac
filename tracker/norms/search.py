"""Norm verdicts: does a player's record make a title norm, and with which games?

The search follows the structure of the rules rather than trying every subset:

* only won games (1.42e) may be dropped from inside the span of rounds, and only a tail of
  rounds after a norm was already achieved (1.42f) may be cut, so a candidate is a *cut round*
  plus a set of dropped wins;
* for a fixed cut and a fixed number ``k`` of dropped wins the score, the number of games and
  so ``dp`` are fixed; among wins that look alike to the mix rules it is always at least as
  good to drop the lowest rated (a swap argument, see ``tests/unit/test_norm_search.py``), and the
  best possible average for ``k`` is the one that drops the ``k`` lowest-rated wins;
* a depth-first search over which wins to drop prunes with bounds that are valid for every
  edition: the best average still reachable, the title-holders and title-equivalents still
  reachable, the foreign federations still reachable, and the fewest own-federation,
  single-federation and unrated opponents the kept games can have.

Editions decide what may be dropped: in 2024 round robins no tail may be cut (1.4.1e) and
wins only when the whole record meets the mix (1.4.1f); 2024's 8 games of 9 rounds (1.4.1c)
are a last attempt after the 1.42c/1.4.2c last-round forfeit.

``tests/unit/test_norm_search.py`` checks the search against a plain enumeration of every subset
on generated small cases.

The package holds the search's parts, each in its module: the values a verdict is made of
(:mod:`~tracker.norms.values`), which games count (:mod:`~tracker.norms.games`, 1.42a–d),
the quick rating bounds asked before the search (:mod:`~tracker.norms.bounds`),
what a title's norm needs (:mod:`~tracker.norms.requirements`, 1.46–1.49), the opponent mix
(:mod:`~tracker.norms.opponent_mix`, 1.43–1.46a) and its federation rules
(:mod:`~tracker.norms.federations`), and the IT1-like evidence of an attempt
(:mod:`~tracker.norms.explain`). This module is the package's face: ``__all__`` lists what the
engine and the prospects use, whichever module defines it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence

from tracker.domain.players import Player
from tracker.domain.titles import Title
from tracker.norms.bounds import Profile, hopeless, possible
from tracker.norms.explain import explain, open_checks
from tracker.norms.federations import foreign_count
from tracker.norms.games import norm_games
from tracker.norms.opponent_mix import (
    complete_mix_holds,
    feasible,
    mix_holds,
    mix_met,
    mix_reachable,
    opponent_titles,
)
from tracker.norms.requirements import (
    Requirements,
    floor_adjusted,
    floor_raised,
    least_average,
    least_total,
    needed_average,
    norm_requirements,
    requirements,
    rounded_average,
    score_ok,
    short_record_requirements,
    short_requirements,
)
from tracker.norms.values import Cell, Check, Context, Ignored, NormGame, Verdict
from tracker.rules import TitleRules
from tracker.rules.mix import MixRule

__all__ = [
    "Cell",
    "Check",
    "Context",
    "Ignored",
    "NormGame",
    "Requirements",
    "Verdict",
    "complete_mix_holds",
    "evaluate",
    "find_norm",
    "find_norms",
    "floor_adjusted",
    "gives_norm",
    "least_half_points",
    "least_total",
    "needed_average",
    "norm_exists",
    "norm_games",
    "norms_found",
    "open_checks",
    "requirements",
    "short_requirements",
]


# ----------------------------------------------------------------------------- search


class _Search:
    """Find, for one span of rounds, the fewest won games to drop that give the norm."""

    def __init__(self, mandatory: Sequence[NormGame], wins: Sequence[NormGame], spec: Requirements):
        self.spec = spec
        self.mandatory = sorted(mandatory, key=lambda g: g.rating)
        self.wins = sorted(wins, key=lambda g: g.rating)
        self.total = len(self.mandatory) + len(self.wins)
        self.half = sum(g.half_points for g in self.mandatory) + 2 * len(self.wins)
        everyone = [*self.mandatory, *self.wins]
        lowest = min((g.rating for g in everyone), default=spec.floor)
        self.max_raise = spec.raise_count * max(0, spec.floor - lowest)
        self.mandatory_sum = sum(g.rating for g in self.mandatory)
        # suffix sums of win ratings (wins ascending): best kept sum for the top ones
        self.win_suffix = [0] * (len(self.wins) + 1)
        for i in range(len(self.wins) - 1, -1, -1):
            self.win_suffix[i] = self.win_suffix[i + 1] + self.wins[i].rating

    def fewest_drops(self, most: int | None = None) -> list[NormGame] | None:
        """The fewest wins to drop (at most ``most``) that give the norm, lowest rated
        first; ``None`` when none do."""
        spec = self.spec
        for k in range(len(self.wins) + 1 if most is None else min(most, len(self.wins)) + 1):
            n = self.total - k
            if n < spec.min_games:
                return None
            half = self.half - 2 * k
            if not score_ok(half, n, spec.rules):
                return None
            need = least_average(half, n, spec)
            # best average for k drops: keep the top wins
            kept = [*self.mandatory, *self.wins[k:]]
            kept.sort(key=lambda g: g.rating)
            adjusted, _ = floor_raised([g.rating for g in kept], spec)
            if rounded_average(adjusted, n) < need:
                continue
            rule = spec.mix(n)
            if not self._mix_possible(0, k, [], rule):
                continue
            if feasible(kept, spec):
                return self.wins[:k]
            budget = (2 * need - 1) * n  # 2 * adjusted sum must reach this (1.47b rounding)
            found = self._dfs(0, k, [], 0, rule, budget)
            if found is not None:
                return found
        return None

    def _dfs(
        self,
        index: int,
        to_drop: int,
        dropped: list[NormGame],
        dropped_sum: int,
        rule: MixRule,
        budget: int,
    ) -> list[NormGame] | None:
        wins = self.wins
        remaining = len(wins) - index
        if to_drop > remaining:
            return None
        # rating bound: kept ratings = everything minus dropped minus the cheapest still to drop
        cheapest = self.win_suffix[index] - self.win_suffix[index + to_drop]
        best_sum = self.mandatory_sum + self.win_suffix[0] - dropped_sum - cheapest
        if 2 * (best_sum + self.max_raise) < budget:
            return None
        if not self._mix_possible(index, to_drop, dropped, rule):
            return None
        if to_drop == 0:
            dropped_set = {id(g) for g in dropped}
            kept = [*self.mandatory, *(g for g in wins if id(g) not in dropped_set)]
            kept.sort(key=lambda g: g.rating)
            return list(dropped) if feasible(kept, self.spec) else None
        game = wins[index]
        dropped.append(game)
        found = self._dfs(index + 1, to_drop - 1, dropped, dropped_sum + game.rating, rule, budget)
        dropped.pop()
        if found is not None:
            return found
        return self._dfs(index + 1, to_drop, dropped, dropped_sum, rule, budget)

    def _mix_possible(
        self, index: int, to_drop: int, dropped: list[NormGame], rule: MixRule
    ) -> bool:
        """Necessary conditions on the mix, valid whatever is dropped later."""
        undecided = self.wins[index:]
        dropped_ids = {id(g) for g in dropped}
        kept_wins = [g for g in self.wins[:index] if id(g) not in dropped_ids]
        # at-least rules: optimistic, every undecided game kept
        optimistic = [*self.mandatory, *kept_wins, *undecided]
        titles = opponent_titles(optimistic, rule.distinct_opponents)
        if not rule.mo.ok(titles):
            return False
        holder_titles = opponent_titles(optimistic, rule.title_holders_distinct)
        holders = sum(c for t, c in holder_titles.items() if t in rule.title_holder_titles)
        needed = rule.min_title_holders
        if rule.title_holders_distinct:
            # the requirement grows with the players kept: bound it by those surely kept
            sure_players = {g.opponent.rank for g in [*self.mandatory, *kept_wins]}
            needed = self.spec.mix(rule.games, len(sure_players)).min_title_holders
        if holders < needed:
            return False
        # players of unknown federation as the most favourable reading has them (a bound)
        own = self.spec.player.federation_key
        feds = Counter(g.opponent.federation_key for g in optimistic)
        if foreign_count(feds, own, self.spec.rules) < (rule.min_foreign_federations):
            return False
        if rule.min_other_federations is not None and (
            len(optimistic) - feds[own] < rule.min_other_federations
        ):
            return False
        # at-most rules: pessimistic, as many of a kind dropped as still possible
        sure_feds = Counter(g.opponent.federation_key for g in [*self.mandatory, *kept_wins])
        maybe = Counter(g.opponent.federation_key for g in undecided)
        for fed in set(sure_feds) | set(maybe):
            least = sure_feds[fed] + max(0, maybe[fed] - to_drop)
            if rule.max_one_federation is not None and least > rule.max_one_federation:
                return False
            if (
                fed == own
                and rule.max_own_federation is not None
                and (least > rule.max_own_federation)
            ):
                return False
        if rule.max_unrated is not None:
            sure_unrated = sum(
                1 for g in [*self.mandatory, *kept_wins] if g.opponent.rating is None
            )
            maybe_unrated = sum(1 for g in undecided if g.opponent.rating is None)
            least = sure_unrated + max(0, maybe_unrated - to_drop)
            # raised unrated opponents may count as rated: allow for the raise
            slack = self.spec.raise_count if self.spec.rules.raised_unrated_counts_as_rated else 0
            if least - slack > rule.max_unrated:
                return False
        return True


# ----------------------------------------------------------------------------- for prospects


def least_half_points(kept: Sequence[NormGame], spec: Requirements, mix: bool = True) -> int | None:
    """The fewest half points with which the games ``kept``, whatever their results, give
    the norm; ``None`` when no score does (too few games, Ra below 1.48a, or the mix).
    With ``mix=False`` the mix is not checked (a lower bound, cheaper)."""
    n = len(kept)
    if n < spec.min_games:
        return None
    ordered = sorted(kept, key=lambda g: g.rating)
    adjusted, raised = floor_raised([g.rating for g in ordered], spec)
    ra = rounded_average(adjusted, n)
    if ra < spec.avg_min:
        return None
    if mix and not mix_met(ordered, raised, spec):
        return None
    for half in range(2 * n + 1):
        need = needed_average(half, n, spec)
        if need is not None and ra >= need:
            return half
    return None


def gives_norm(games: Sequence[NormGame], spec: Requirements) -> bool:
    """Whether ``games``, every one kept, give the norm with their results: the number of
    games, the score (1.49), Ra and Rp (1.48, 1.48a) and the mix, the rating first."""
    return feasible(sorted(games, key=lambda g: g.rating), spec)


def find_norm(
    player: Player, cells: Sequence[Cell], title: Title, ctx: Context, rules: TitleRules
) -> Verdict | None:
    """The best achieved attempt at ``title`` from the player's rounds so far, or ``None``.

    Reading [unclear 160] Which attempt is reported: among attempts that give the norm, the one
    credited with the most games (1.41c, 1.49), then the one with the most games, then the one
    that leaves out the fewest games. The 1.42c last-round forfeit is only used when no attempt
    without it gives the norm (the player "needed" the game)."""
    return _find(norm_games(player, cells, ctx, rules), player, cells, title, ctx, rules)


def find_norms(
    player: Player,
    cells: Sequence[Cell],
    titles: Iterable[Title],
    ctx: Context,
    rules: TitleRules,
) -> dict[Title, Verdict]:
    """:func:`find_norm` for several titles, splitting the games only once."""
    return {
        title: found if isinstance(found, Verdict) else found()
        for title, found in norms_found(player, cells, titles, ctx, rules).items()
    }


def norms_found(
    player: Player,
    cells: Sequence[Cell],
    titles: Iterable[Title],
    ctx: Context,
    rules: TitleRules,
    before: Collection[Title] | None = None,
) -> dict[Title, Verdict | Callable[[], Verdict]]:
    """The titles :func:`find_norms` finds a norm of, each with its verdict, or how to make
    it where the whole record gives the norm (:func:`_whole_record_holds`): the verdict is
    then that record's evidence, made only when asked for (a norm in force is not announced
    again, and its evidence is most of the search's cost).

    ``before``: the titles this search found a norm of on the record without its last
    round, in the same context, where a tail cut (1.42f, 1.4.1e) of the record keeps
    each (:func:`tracker.engine.evaluation.norms_before`). Those are not searched for
    (their verdict, which may use the last round, is made when asked for), and the others
    only on the whole record: every shorter cut is one that failed before."""
    titles = list(titles)
    if not titles or ctx.event_check is not None:
        return {}
    kept: dict[Title, Callable[[], Verdict]] = {}
    rest = titles
    if before:
        kept = {t: _kept(player, cells, t, ctx, rules) for t in titles if t in before}
        rest = [title for title in titles if title not in kept]
    if not rest or hopeless(player, cells, rest, ctx, rules):
        return dict(kept)
    games = norm_games(player, cells, ctx, rules)
    profile = Profile.of(games[0])
    found: dict[Title, Verdict | Callable[[], Verdict]] = {}
    for title in titles:
        if title in kept:
            found[title] = kept[title]
            continue
        if _whole_record_holds(games[0], norm_requirements(title, player, ctx, rules), profile):
            found[title] = functools.partial(_found, games, player, cells, title, ctx, rules)
            continue
        verdict = _find(games, player, cells, title, ctx, rules, profile, cut=before is None)
        if verdict is not None:
            found[title] = verdict
    return found


def _whole_record_holds(counted: list[NormGame], spec: Requirements, profile: Profile) -> bool:
    """Whether the first attempt :func:`_attempts` yields is the whole record, no game left
    out: the same steps (the quick bounds, then the search at the last round, which tries
    dropping no win first), stopped before the evidence is written. Its verdict is then
    achieved (the drops are feasible, :func:`feasible`, whose tests are the evidence's
    checks when the search is not :attr:`Requirements.optimistic`, on the games in the
    evidence's order), it leaves out no game it may (1.42e, 1.42f) and so is the best
    (:func:`_best` stops at it): :func:`_find` gives it (``tests/unit/test_norm_search.py``
    compares the two)."""
    if spec.optimistic or not possible(profile, spec) or not mix_reachable(counted, spec):
        return False
    mandatory, wins = _split(counted, counted, spec)
    if _Search(mandatory, wins, spec).fewest_drops(most=0) != []:
        return False
    # the search orders games of equal rating otherwise than the evidence does, which only
    # the count of unrated opponents raised to the floor reads (1.46a): judged as written
    return all(g.opponent.rating is not None for g in counted) or feasible(
        sorted(counted, key=lambda g: g.rating), spec
    )


def _found(
    games: tuple[list[NormGame], list[Ignored], NormGame | None],
    player: Player,
    cells: Sequence[Cell],
    title: Title,
    ctx: Context,
    rules: TitleRules,
) -> Verdict:
    """:func:`_find` of a norm :func:`_whole_record_holds` (or the caller, ``before``)
    says is there."""
    verdict = _find(games, player, cells, title, ctx, rules)
    if verdict is None or not verdict.achieved:
        raise AssertionError(f"{player.rank} {title.value}: a norm said to hold is not found")
    return verdict


def _kept(
    player: Player, cells: Sequence[Cell], title: Title, ctx: Context, rules: TitleRules
) -> Callable[[], Verdict]:
    """How to make the verdict of a norm the caller knows is there (``before``)."""

    def make() -> Verdict:
        return _found(norm_games(player, cells, ctx, rules), player, cells, title, ctx, rules)

    return make


def _find(
    games: tuple[list[NormGame], list[Ignored], NormGame | None],
    player: Player,
    cells: Sequence[Cell],
    title: Title,
    ctx: Context,
    rules: TitleRules,
    profile: Profile | None = None,
    first: bool = False,
    optimistic: bool = False,
    cut: bool = True,
) -> Verdict | None:
    """The best attempt, or with ``first`` any achieved attempt (cheaper); ``optimistic``:
    the best attempt that is possible for some federations of the players whose federation
    is unknown (:attr:`Requirements.optimistic`); ``cut`` false: only attempts over the
    whole record (the caller knows that no shorter cut gives the norm)."""
    counted, excluded, forfeit = games
    if ctx.event_check is not None:
        return None  # no norm in this event (its rate of play)
    spec = norm_requirements(title, player, ctx, rules, optimistic)
    last = max((c.round for c in cells), default=0)

    def pick(attempts: Iterable[Verdict]) -> Verdict | None:
        return next(iter(attempts), None) if first else _best(attempts, last)

    best = pick(_attempts(counted, excluded, last, spec, cut_allowed=cut, profile=profile))
    if best is None and forfeit is not None and len(counted) < spec.min_games:
        # 1.42c: the player needed the forfeited game to make up the number of games
        with_forfeit = [*counted, forfeit]
        left_out = [i for i in excluded if i.round != forfeit.round]
        best = pick(_attempts(with_forfeit, left_out, last, spec, cut_allowed=False))
    if best is None:
        short = short_record_requirements(counted, cells, spec)
        if short is not None:
            best = pick(_attempts(counted, excluded, last, short, cut_allowed=False))
    return best


def norm_exists(
    player: Player,
    cells: Sequence[Cell],
    title: Title,
    ctx: Context,
    rules: TitleRules,
    cut: bool = True,
) -> bool:
    """Whether :func:`find_norm` finds a norm, without choosing the best attempt (nor
    writing its evidence where the whole record gives it, :func:`_whole_record_holds`);
    ``cut`` false: on the whole record only (the caller knows that no shorter cut gives
    it, :func:`norms_found`)."""
    games = norm_games(player, cells, ctx, rules)
    if ctx.event_check is None:
        spec = norm_requirements(title, player, ctx, rules)
        if _whole_record_holds(games[0], spec, Profile.of(games[0])):
            return True
    return _find(games, player, cells, title, ctx, rules, first=True, cut=cut) is not None


def evaluate(
    player: Player, cells: Sequence[Cell], title: Title, ctx: Context, rules: TitleRules
) -> Verdict:
    """Like :func:`find_norm`, but a failed attempt is reported too. When the norm depends
    on players of unknown federation (it holds for some of their federations, not for
    others), the attempt that would give it, with ``achieved`` false and each requirement
    that depends on them saying so (:attr:`Check.depends_on`). Otherwise the attempt over
    every round played, with only the games that cannot count left out, so its checks show
    what is missing."""
    games = norm_games(player, cells, ctx, rules)
    found = _find(games, player, cells, title, ctx, rules)
    if found is not None:
        return found
    if _unknown_federations(player, games[0], ctx):
        found = _find(games, player, cells, title, ctx, rules, optimistic=True)
        if found is not None:
            return found
    counted, excluded, _ = games
    last = max((c.round for c in cells), default=0)
    return explain(counted, excluded, last, norm_requirements(title, player, ctx, rules))


def _unknown_federations(player: Player, counted: Sequence[NormGame], ctx: Context) -> bool:
    """Whether a federation rule of this record can depend on an unknown federation."""
    return (
        player.federation is None
        or any(g.opponent.federation is None for g in counted)
        or (ctx.swiss_exempt_possible and not ctx.swiss_exempt)
    )


def _best(attempts: Iterable[Verdict], last: int) -> Verdict | None:
    best: Verdict | None = None
    for candidate in attempts:
        if best is None or _key(candidate) > _key(best):
            best = candidate
        if best.rounds_considered == last and not best.ignores_optional_games():
            break
    return best


def _key(v: Verdict) -> tuple[int, int, int]:
    return (v.credited_games, v.games, -len(v.ignored))


def _attempts(
    games: list[NormGame],
    left_out: list[Ignored],
    last: int,
    spec: Requirements,
    cut_allowed: bool = True,
    profile: Profile | None = None,
) -> Iterable[Verdict]:
    rules, t = spec.rules, spec.tournament
    if not possible(profile or Profile.of(games), spec):
        return
    cuts = sorted({g.round for g in games} | {last}, reverse=True)
    if not (cut_allowed and rules.may_ignore_after_norm(t)):
        cuts = cuts[:1]
    if not mix_reachable(games, spec):
        return
    after_cut = dataclasses.replace(
        spec, min_games=max(spec.min_games, rules.min_games_after_cut(t))
    )
    for cut in cuts:
        inside = [g for g in games if g.round <= cut]
        cut_spec = spec if cut == last else after_cut
        if len(inside) < cut_spec.min_games:
            break
        if cut != last and not mix_reachable(inside, cut_spec):
            continue
        after = [
            Ignored(
                g.round,
                g.opponent,
                g.code,
                rules.after_norm_article,
                f"played after the norm was achieved in round {cut}",
                optional=True,
            )
            for g in games
            if g.round > cut
        ]
        mandatory, wins = _split(inside, games, spec)
        drops = _Search(mandatory, wins, cut_spec).fewest_drops()
        if drops is None:
            continue
        drop_ids = {id(g) for g in drops}
        kept = [g for g in inside if id(g) not in drop_ids]
        dropped = [
            Ignored(
                g.round,
                g.opponent,
                g.code,
                rules.win_article,
                "won game left out: the norm holds without it",
                optional=True,
            )
            for g in drops
        ]
        verdict = explain(kept, [*left_out, *after, *dropped], cut, cut_spec)
        if verdict.achieved or (spec.optimistic and verdict.possible):
            yield verdict


def _split(
    inside: list[NormGame], games: list[NormGame], spec: Requirements
) -> tuple[list[NormGame], list[NormGame]]:
    """The games of a span that must be kept and the wins that may be left out (1.42e,
    1.4.1f: in a 2024 round robin only when the whole record, ``games``, meets the mix)."""
    rules, t = spec.rules, spec.tournament
    if rules.may_ignore_wins(t) and (not rules.wins_need_complete_mix(t) or mix_holds(games, spec)):
        return [g for g in inside if not g.won], [g for g in inside if g.won]
    return inside, []
