"""Oracles: the brute force every fast search is checked against."""

from __future__ import annotations

import dataclasses
import itertools

from tracker.domain.players import Player
from tracker.domain.titles import Title
from tracker.norms.explain import explain
from tracker.norms.requirements import norm_requirements
from tracker.norms.search import Verdict, norm_games
from tracker.rules import TitleRules


def brute_force(me: Player, cells, ctx, title: Title, rules: TitleRules) -> list[Verdict]:  # type: ignore[no-untyped-def]
    """Every achieving attempt: each cut round (when games after a norm may be ignored) and
    each subset of won games inside it (when wins may be ignored; 2024 round robins: only if
    the whole record meets the mix, 1.4.1f); and, only when none achieves and the played
    games are too few, the same with a last-round forfeit win counted as a loss (1.42c);
    and, only when still none achieves, 8 games of 9 rounds whose ninth is a forfeit win or
    a pairing-allocated bye (1.4.1c of 2024)."""
    counted, excluded, forfeit = norm_games(me, cells, ctx, rules)
    spec = norm_requirements(title, me, ctx, rules)
    t = ctx.tournament
    last = max(c.round for c in cells)
    not_mix = {rules.articles[k] for k in ("games", "score", "average", "performance")}

    def mix_met(games: list) -> bool:  # type: ignore[type-arg]
        verdict = explain(games, [], last, spec)
        return all(c.met for c in verdict.checks if c.article not in not_mix)

    def attempts(games: list, left_out: list, cut_allowed: bool, spec=spec) -> list[Verdict]:  # type: ignore[no-untyped-def, type-arg]
        cuts = [last]
        if cut_allowed and rules.may_ignore_after_norm(t):
            cuts = sorted({g.round for g in games} | {last})
        droppable = rules.may_ignore_wins(t) and (
            not rules.wins_need_complete_mix(t) or mix_met(games)
        )
        found = []
        for cut in cuts:
            inside = [g for g in games if g.round <= cut]
            if cut < last and len(inside) < rules.min_games_after_cut(t):
                continue
            wins = [g for g in inside if g.won] if droppable else []
            for k in range(len(wins) + 1):
                for dropped in itertools.combinations(wins, k):
                    ids = {id(g) for g in dropped}
                    kept = [g for g in inside if id(g) not in ids]
                    verdict = explain(kept, left_out, cut, spec)
                    if verdict.achieved:
                        found.append(verdict)
        return found

    found = attempts(counted, excluded, True)
    if not found and forfeit is not None and len(counted) < spec.min_games:
        left_out = [i for i in excluded if i.round != forfeit.round]
        found = attempts([*counted, forfeit], left_out, False)
    short = rules.short_norm(t)
    others = [c for c in cells if c.round not in {g.round for g in counted}]
    if (
        not found
        and short is not None
        and len(counted) == short[0]
        and len(cells) == t.planned_rounds
        and len(others) == 1
        and rules.short_norm_allows(others[0].code, t)
    ):
        low, counted_as = short
        short_spec = dataclasses.replace(
            spec, min_games=low, counted_as=counted_as, games_article=rules.short_norm_article
        )
        found = attempts(counted, excluded, False, short_spec)
    return found
