"""Everything derived from a tournament's facts after a given round: standings, live
ratings, the tournament-wide context of the norm rules, and every player's verdicts."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction

from tracker.event_flags import (
    TournamentFlags,
    exemption_holds,
    swiss_exemption_by_round,
    tournament_flags,
)
from tracker.live_rating import InterimRating, RatedGame, first_reached, interim_ratings
from tracker.norms import Cell, Context, Verdict, evaluate, find_norms
from tracker.players import Player
from tracker.state import TournamentState
from tracker.titles import Title


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerRound:
    """One player's standing after a round."""

    player: Player
    cells: tuple[Cell, ...]
    score: Fraction
    live: InterimRating | None
    reached: dict[Title, InterimRating]


def context(
    state: TournamentState, up_to: int, cells: Mapping[int, Sequence[Cell]] | None = None
) -> Context:
    """The tournament-wide facts after round ``up_to``; ``cells`` when already built."""
    if cells is None:
        cells = state.all_cells(up_to)
    t, rules = state.tournament, state.title_rules
    by_round = swiss_exemption_by_round(
        t, state.players, cells, up_to, rules, last_only=not rules.swiss_exemption_per_round
    )
    return Context(
        tournament=t,
        players=dict(state.players),
        swiss_exempt=exemption_holds(by_round, rules),
        unrated_scored_zero=unrated_scoring_zero(state, cells),
        game_date_ratings=rules.uses_game_date_ratings(t),
    )


def flags(state: TournamentState, up_to: int, rows: list[PlayerRound]) -> TournamentFlags:
    """The tournament-level facts carried on the norm alerts of round ``up_to``."""
    cells = {row.player.rank: row.cells for row in rows}
    return tournament_flags(state.tournament, state.players, cells, up_to, state.title_rules)


def unrated_scoring_zero(
    state: TournamentState, cells: Mapping[int, Sequence[Cell]]
) -> frozenset[int]:
    """Unrated players of a round robin who have played rated opponents and scored nothing
    against them (1.42d of 2009)."""
    if not state.tournament.system.predetermined:
        return frozenset()
    zero: set[int] = set()
    for rank, player in state.players.items():
        if player.rating is not None:
            continue
        against_rated = [
            c
            for c in cells.get(rank, ())
            if c.opponent is not None
            and c.code.over_the_board
            and state.players[c.opponent].rating is not None
        ]
        if against_rated and sum(c.code.points for c in against_rated) == 0:
            zero.add(rank)
    return frozenset(zero)


def standings(state: TournamentState, up_to: int) -> list[PlayerRound]:
    """Every player after round ``up_to``, best score first (then start rank)."""
    cells = state.all_cells(up_to)
    players = state.players
    rating_rules = state.rating_rules
    rules = state.title_rules
    min_games = rules.rating_title_min_games
    on = state.tournament.start_date
    keyed: list[tuple[int, int, PlayerRound]] = []
    for rank, player in players.items():
        mine = tuple(cells.get(rank, ()))
        half_points = 0
        games: list[tuple[int, tuple[RatedGame]]] = []
        for c in mine:
            half_points += c.code.half_points
            if c.opponent is not None:
                games.append((c.round, (RatedGame(players[c.opponent].rating, c.code),)))
        interims = interim_ratings(player, games, rating_rules, on)
        row = PlayerRound(
            player=player,
            cells=mine,
            score=Fraction(half_points, 2),
            live=interims[-1] if interims else None,
            reached=first_reached(player, interims, rules.rating_level_titles(player), min_games),
        )
        keyed.append((-half_points, rank, row))
    keyed.sort(key=_by_score)
    return [row for _, _, row in keyed]


def _by_score(item: tuple[int, int, PlayerRound]) -> tuple[int, int]:
    return item[0], item[1]


def achieved_norms(
    state: TournamentState, rows: list[PlayerRound], ctx: Context
) -> dict[tuple[int, Title], Verdict]:
    """Every (player, title) with a norm from the rows' rounds, in the :func:`context` of
    those rounds."""
    found: dict[tuple[int, Title], Verdict] = {}
    eligible = state.title_rules.eligible_norm_titles
    for row in rows:
        titles = eligible(row.player)
        if not titles:
            continue
        for title, verdict in find_norms(
            row.player, row.cells, titles, ctx, state.title_rules
        ).items():
            found[(row.player.rank, title)] = verdict
    return found


def verdict_for(state: TournamentState, rank: int, title: Title, up_to: int) -> Verdict:
    """The full verdict, failed or not, for the arbiter's breakdown."""
    player = state.players[rank]
    cells = state.all_cells(up_to)
    ctx = context(state, up_to, cells)
    return evaluate(player, cells.get(rank, []), title, ctx, state.title_rules)
