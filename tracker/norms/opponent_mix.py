"""The opponent mix over the kept games (1.43–1.46a of 2009, 1.4.3–1.4.5 of 2024): title-holders,
the title mix, the federation rules (:mod:`~tracker.norms.federations`) and unrated opponents,
each decided cheaply for the search and described as a :class:`~tracker.norms.values.Check`
only when a reader asks; and whether a record meets every requirement at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence

from tracker.domain.titles import Title
from tracker.norms.federations import federation_verdicts, foreign_count
from tracker.norms.requirements import (
    Requirements,
    floor_raised,
    least_average,
    rounded_average,
    score_ok,
)
from tracker.norms.values import Check, NormGame


def opponent_titles(games: Iterable[NormGame], distinct: bool) -> Counter[Title]:
    """The opponents' titles, per game or (``distinct``) per opponent."""
    opponents = (
        {g.opponent.rank: g.opponent for g in games}.values()
        if distinct
        else (g.opponent for g in games)
    )
    return Counter(p.title for p in opponents if p.title is not None)


def unrated_count(games: Sequence[NormGame], raised: int, spec: Requirements) -> int:
    """Unrated opponents for 1.46a; those raised to the floor count as rated where the
    edition says so. ``games`` sorted by rating ascending."""
    count = sum(1 for g in games if g.opponent.rating is None)
    if spec.rules.raised_unrated_counts_as_rated:
        count -= sum(1 for g in games[:raised] if g.opponent.rating is None)
    return count


def mix_checks(
    kept: Sequence[NormGame],
    raised: int,
    spec: Requirements,
    games: int | None = None,
    opponents: int | None = None,
) -> list[Check]:
    """The mix checks of ``kept``; with ``games`` (and ``opponents``), the numbers a record
    of that length will need, against what ``kept`` has so far (for prospects)."""
    n = len(kept) if games is None else games
    distinct = len({g.opponent.rank for g in kept}) if opponents is None else opponents
    return [describe() for _, describe in mix_verdicts(kept, raised, spec, n, distinct)]


def mix_met(kept: Sequence[NormGame], raised: int, spec: Requirements) -> bool:
    """Whether every check of :func:`mix_checks` is met, decided without describing them
    and stopping at the first one not met: the search and the prospects ask this far more
    often than a reader sees a check."""
    verdicts = mix_verdicts(kept, raised, spec, len(kept), len({g.opponent.rank for g in kept}))
    return all(met for met, _ in verdicts)


def mix_verdicts(
    kept: Sequence[NormGame], raised: int, spec: Requirements, n: int, distinct: int
) -> Iterator[tuple[bool, Callable[[], Check]]]:
    """Each rule of the opponent mix (1.43-1.46a / 1.4.3-1.4.5, as the edition's
    :class:`MixRule` for ``n`` games against ``distinct`` players states it) over ``kept``:
    whether it is met, and how to describe it as a :class:`Check`, made only when asked."""
    rule = spec.mix(n, distinct, sure=True)
    holder_titles = opponent_titles(kept, rule.title_holders_distinct)
    holders = sum(c for t, c in holder_titles.items() if t in rule.title_holder_titles)
    holders_met = holders >= rule.min_title_holders
    yield (
        holders_met,
        lambda: Check(
            rule.title_holder_article,
            "title-holders",
            f"≥ {rule.min_title_holders}",
            str(holders),
            holders_met,
        ),
    )
    same = rule.distinct_opponents == rule.title_holders_distinct
    titles = holder_titles if same else opponent_titles(kept, rule.distinct_opponents)
    mo_met = rule.mo.ok(titles)
    yield (
        mo_met,
        lambda: Check(
            rule.mo_article,
            f"{spec.title.value} title mix",
            rule.mo.describe_needed(),
            rule.mo.describe_actual(titles),
            mo_met,
        ),
    )
    yield from federation_verdicts(kept, spec, rule, n)
    unrated_max = rule.max_unrated
    if unrated_max is not None:
        unrated = unrated_count(kept, raised, spec)
        unrated_met = unrated <= unrated_max
        yield (
            unrated_met,
            lambda: Check(
                rule.unrated_article,
                "unrated opponents",
                f"≤ {unrated_max}",
                str(unrated),
                unrated_met,
            ),
        )


def mix_holds(games: Sequence[NormGame], spec: Requirements) -> bool:
    """Every rule of the opponent mix over ``games`` (1.4.1f of 2024: the complete event)."""
    ordered = sorted(games, key=lambda g: g.rating)
    _, raised = floor_raised([g.rating for g in ordered], spec)
    return mix_met(ordered, raised, spec)


def feasible(kept: Sequence[NormGame], spec: Requirements) -> bool:
    """Every requirement at once; ``kept`` sorted by rating ascending."""
    n = len(kept)
    if n < spec.min_games:
        return False
    half = sum(g.half_points for g in kept)
    if not score_ok(half, n, spec.rules):
        return False
    adjusted, raised = floor_raised([g.rating for g in kept], spec)
    if rounded_average(adjusted, n) < least_average(half, n, spec):
        return False
    return mix_met(kept, raised, spec)


def complete_mix_holds(games: Sequence[NormGame], spec: Requirements) -> bool:
    """Whether ``games``, every one counted, meet the opponent mix (1.4.1f of 2024)."""
    return mix_holds(games, spec)


def mix_reachable(games: Sequence[NormGame], spec: Requirements) -> bool:
    """Necessary conditions of the mix over any subset of ``games`` of at least the minimum
    number: each rule is checked against its weakest form, that of the fewest games (the
    at-least rules on all the games, the at-most rules through what the others must make up).
    """
    if len(games) < spec.min_games:
        return False
    rule = spec.mix(spec.min_games, min(spec.min_games, len({g.opponent.rank for g in games})))
    titles = opponent_titles(games, rule.distinct_opponents)
    if not rule.mo.ok(titles):
        return False
    holder_titles = opponent_titles(games, rule.title_holders_distinct)
    holders = sum(c for t, c in holder_titles.items() if t in rule.title_holder_titles)
    if holders < rule.min_title_holders:
        return False
    own = spec.player.federation_key  # unknown federations at their most favourable
    feds = Counter(g.opponent.federation_key for g in games)
    if foreign_count(feds, own, spec.rules) < rule.min_foreign_federations:
        return False
    if rule.min_other_federations is not None and len(games) - feds[own] < (
        rule.min_other_federations
    ):
        return False
    # at-most rules: n games need at least n - cap games of the other kinds, a need that
    # only grows with n, so the fewest games are the easiest case
    n = spec.min_games
    if rule.max_own_federation is not None and len(games) - feds[own] < n - (
        rule.max_own_federation
    ):
        return False
    if rule.max_one_federation is not None and any(
        len(games) - count < n - rule.max_one_federation for count in feds.values()
    ):
        return False
    if rule.max_unrated is not None:
        rated = sum(1 for g in games if g.opponent.rating is not None)
        slack = spec.raise_count if spec.rules.raised_unrated_counts_as_rated else 0
        if rated + slack < n - rule.max_unrated:
            return False
    return True
