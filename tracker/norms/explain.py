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


def open_checks(
    kept: Sequence[NormGame], spec: Requirements, games: int, opponents: int | None
) -> list[Check]:
    """What a record of ``games`` games will need, against what ``kept`` has so far."""
    ordered = sorted(kept, key=lambda g: g.rating)
    _, raised = floor_raised([g.rating for g in ordered], spec)
    return [
        Check(
            spec.rules.articles["games"],
            "games",
            f"≥ {spec.min_games}",
            str(len(kept)),
            len(kept) >= spec.min_games,
        ),
        *mix_checks(ordered, raised, spec, games, opponents),
    ]
