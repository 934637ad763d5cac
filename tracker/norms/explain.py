"""The evidence of one attempt at a norm, as an arbiter checks it on the IT1 form: every
requirement with what it needs and what the record has, Ra and Rp, the opponents raised to
the floor, and the games credited (1.41c).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tracker.domain.fide_tables import dp, percentage_of_half_points
from tracker.norms.opponent_mix import mix_checks
from tracker.norms.requirements import Requirements, floor_raised, rounded_average, score_ok
from tracker.norms.values import Check, Ignored, NormGame, Verdict
from tracker.rules import TitleRules
from tracker.rules.mix import MixRule


def explain(
    kept: Sequence[NormGame], ignored: Sequence[Ignored], cut: int, spec: Requirements
) -> Verdict:
    rules = spec.rules
    n = len(kept)
    half = sum(g.half_points for g in kept)
    score = Fraction(half, 2)
    needed_games = f"≥ {spec.min_games}"
    if spec.counted_as > spec.min_games:
        needed_games += f", counted as {spec.counted_as}"
    checks = [Check(spec.games_article, "games", needed_games, str(n), n >= spec.min_games)]
    if spec.event_check is not None:
        checks.insert(0, spec.event_check)
    if n == 0:
        return Verdict(
            spec.title, False, cut, (), tuple(ignored), score, 0, None, None, (), 0, tuple(checks)
        )
    pct = percentage_of_half_points(half, n)  # percentage(score, n), in integers
    ordered = sorted(kept, key=lambda g: g.rating)
    adjusted, raised = floor_raised([g.rating for g in ordered], spec)
    ra = rounded_average(adjusted, n)
    rp = ra + dp(pct)
    if rules.min_score is not None:
        checks.append(
            Check(
                rules.articles["score"],
                "score",
                f"≥ {float(rules.min_score):.0%}",
                f"{pct}%",
                score_ok(half, n, rules),
            )
        )
    checks.append(
        Check(
            rules.articles["average"],
            "average rating of opponents (Ra)",
            f"≥ {spec.avg_min}",
            str(ra),
            ra >= spec.avg_min,
        )
    )
    checks.append(
        Check(
            rules.articles["performance"],
            "performance (Rp = Ra + dp)",
            f"≥ {spec.perf_min}",
            f"{rp} ({ra} {dp(pct):+d} for {pct}%)",
            rp >= spec.perf_min,
        )
    )
    checks.extend(mix_checks(ordered, raised, spec))
    achieved = all(c.met for c in checks)
    credited = 0
    if achieved:
        credited = rules.credited_games(
            n,
            extra_points(half, n, ra, spec),
            spec.tournament,
            (spec.min_games, spec.counted_as),
        )
    raised_ranks = tuple(g.opponent.rank for g in ordered[:raised])
    return Verdict(
        spec.title,
        achieved,
        cut,
        tuple(sorted(kept, key=lambda g: g.round)),
        tuple(sorted(ignored, key=lambda i: i.round)),
        score,
        pct,
        ra,
        rp,
        raised_ranks,
        credited,
        tuple(checks),
    )


def extra_points(half: int, n: int, ra: int, spec: Requirements) -> int:
    """1.41c: whole points scored above the lowest score that gives the norm with this Ra."""
    needed = half
    while (
        needed > 0
        and score_ok(needed - 1, n, spec.rules)
        and (ra + dp(percentage_of_half_points(needed - 1, n)) >= spec.perf_min)
    ):
        needed -= 1
    return (half - needed) // 2


OpenMemo = dict[tuple[object, ...], tuple[MixRule, TitleRules, tuple[Check, ...]]]
""":func:`open_checks` by :func:`_open_key`, with the rule and the edition the key names
by identity (held in the entry, so that no other object can take their ids while it
lives)."""


def open_checks(
    kept: Sequence[NormGame],
    spec: Requirements,
    games: int,
    opponents: int | None,
    memo: OpenMemo | None = None,
) -> tuple[Check, ...]:
    """What a record of ``games`` games will need, against what ``kept`` has so far. With
    ``memo`` (the round's: :class:`tracker.engine.prospects.values.Made`), the same tuple
    for every record whose checks read the same (:func:`_open_key`), so that the players
    of a round who share them share one value (round 1 of a 500-player open: 18
    different among 1,058)."""
    ordered = sorted(kept, key=lambda g: g.rating)
    _, raised = floor_raised([g.rating for g in ordered], spec)
    key = None
    if memo is not None:
        rule = spec.mix(games, opponents, sure=True)
        key = _open_key(ordered, raised, spec, rule, games, opponents)
        known = None if key is None else memo.get(key)
        if known is not None and known[0] is rule and known[1] is spec.rules:
            return known[2]
    checks = (
        Check(
            spec.rules.articles["games"],
            "games",
            f"≥ {spec.min_games}",
            str(len(kept)),
            len(kept) >= spec.min_games,
        ),
        *mix_checks(ordered, raised, spec, games, opponents),
    )
    if memo is not None and key is not None:
        memo[key] = (rule, spec.rules, checks)
    return checks


def _open_key(
    ordered: Sequence[NormGame],
    raised: int,
    spec: Requirements,
    rule: MixRule,
    games: int,
    opponents: int | None,
) -> tuple[object, ...] | None:
    """Everything :func:`open_checks` reads, ``None`` when it reads the opponents
    themselves (one of unknown federation: the check names them). The games' checks read
    the edition's article and minimum and the number of games so far; the mix
    (:func:`~tracker.norms.opponent_mix.mix_verdicts`) reads the edition's rule for
    ``games`` games against ``opponents`` players (``rule``: the edition's memo gives
    the players who share it the same rule, :meth:`Requirements.mix`), the edition
    (which federations are foreign, whether a raised unrated opponent counts as rated),
    the title, the player's federation, the exemption that may hold and whether the
    search is optimistic, and of each game so far, in the order of the ratings, the
    opponent's title, whether they are unrated, whether they were met before (titles count
    once per opponent where the rule says so) and their federation: whether it is the
    player's, whether it is foreign (:meth:`TitleRules.is_foreign`) and which of the
    federations so far it is; the federations themselves only where the rule caps the
    games against one federation (its check names the one with the most) or the player's
    (its check names the player's), and otherwise only whether the player's is known. A test
    compares every prospect's checks with those made without the memo
    (``tests/unit/test_prospect_sharing.py``)."""
    own = spec.player.federation
    named = rule.max_one_federation is not None
    own_named = named or rule.max_own_federation is not None
    foreign = spec.rules.is_foreign
    first: dict[int, int] = {}
    feds: dict[str, int] = {}
    seen = []
    for i, g in enumerate(ordered):
        o = g.opponent
        fed = o.federation
        if fed is None:
            return None
        if named:
            kind: object = fed
        else:
            kind = (feds.setdefault(fed, len(feds)), fed == own, foreign(fed, own or ""))
        seen.append((o.title, o.rating is None, first.setdefault(o.rank, i), kind))
    return (
        id(rule),
        id(spec.rules),
        spec.title,
        spec.min_games,
        own if own_named else own is None,
        spec.exemption_possible,
        spec.optimistic,
        games,
        opponents,
        raised,
        tuple(seen),
    )
