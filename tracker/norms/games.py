"""Which of a player's rounds are games for a norm (1.42a–d of 2009, 1.4.2 of 2024): byes and
excluded games are left out with their article, and a last-round forfeit win is kept aside
for 1.42c, which lets it count as a loss when the player needs it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.norms.values import Cell, Context, Ignored, NormGame
from tracker.rules import TitleRules


def norm_games(
    player: Player, cells: Sequence[Cell], ctx: Context, rules: TitleRules
) -> tuple[list[NormGame], list[Ignored], NormGame | None]:
    """Split a player's rounds into games that count and games that do not (1.42a–d).

    Also returns the last-round forfeit win that 1.42c lets count as a loss, if any."""
    counted: list[NormGame] = []
    excluded: list[Ignored] = []
    forfeit: NormGame | None = None
    t = ctx.tournament
    for cell in cells:
        if cell.opponent is None:
            excluded.append(
                Ignored(
                    cell.round,
                    None,
                    cell.code,
                    rules.articles["bye"],
                    "bye: not a game",
                    optional=False,
                )
            )
            continue
        opponent = ctx.opponent(cell)
        reason = rules.exclusion(opponent, cell.code, t, cell.opponent in ctx.unrated_scored_zero)
        if reason is None:
            counted.append(
                NormGame(cell.round, opponent, cell.code, rules.opponent_rating(opponent))
            )
            continue
        excluded.append(Ignored(cell.round, opponent, cell.code, *reason, optional=False))
        if (
            cell.code is Code.FORFEIT_WIN
            and t.is_last(cell.round)
            and rules.last_round_forfeit_counts()
            and rules.exclusion(opponent, Code.LOSS, t, cell.opponent in ctx.unrated_scored_zero)
            is None
        ):
            forfeit = NormGame(
                cell.round,
                opponent,
                Code.LOSS,
                rules.opponent_rating(opponent),
                note=f"last-round forfeit counted as a loss ({rules.last_round_forfeit_article})",
            )
    return counted, excluded, forfeit
