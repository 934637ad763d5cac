"""Whether a norm achieved before the last round is *secured*: no result and no absence in
the remaining rounds can take it away.

1.42f (2009) and 1.4.1e (2024, not in round robins) let a player leave out the games played
after a norm, so later results cannot take it away. What later rounds can still change is
the tournament-wide context the norm was judged in; each such dependence is a
:class:`Condition`, and a norm with conditions is announced as achieved but not secured:

* **1.4.3d (2024)** — the Swiss exemption must hold in every round, counting only players
  who miss at most one round. Absences in a later round can make that round fail, and a
  second absence of a player takes them out of the count of every round. A norm whose
  opponent mix holds only by the exemption therefore depends on who turns up until the
  last round.
* **1.42d** (2009; pre-2009 2.1) — in a round robin, games against an unrated opponent who
  scores nothing against rated opponents do not count. Whether an unrated opponent the
  player has met ends the event with zero against rated players depends on their later
  games; a norm that holds only with one of those games left out (or only with it counted)
  depends on them.

What later rounds cannot change: the 2009 reading of 1.43e counts the players paired so far,
a number that only grows, so an exemption that holds stays (and the norm search finds the
same attempt later); ratings at the date of a game (1.1.4) are fixed once the game is
played; the 1.5.6 event type and the last-round half-point bye are flags for the title
application, not requirements of the norm.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence

from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.engine.evaluation import context
from tracker.engine.state import TournamentState
from tracker.norms.search import Cell, Context, Verdict, find_norm

_MOST_FLIPS = 4
"""Unrated opponents whose 1.42d status may still change that are tried in every
combination; with more of them the norm is taken to depend on them (a round robin rarely
has more than one or two unrated players)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Condition:
    """What a norm achieved before the last round still depends on."""

    article: str
    text: str


def conditions(
    state: TournamentState,
    ctx: Context,
    rank: int,
    cells: Sequence[Cell],
    title: Title,
    up_to: int,
) -> tuple[Condition, ...]:
    """The conditions on the player's ``title`` norm, achieved on ``cells`` (rounds 1 …
    ``up_to``) in the context ``ctx``, that later rounds could break; empty when the norm
    is secured (given that the edition lets later games go, 1.42f / 1.4.1e)."""
    rules, t = state.title_rules, ctx.tournament
    player = state.players[rank]
    found: list[Condition] = []
    if (
        ctx.swiss_exempt
        and rules.swiss_exemption_per_round
        and rules.federation_exemption(t, False, player) is None
        and find_norm(player, cells, title, dataclasses.replace(ctx, swiss_exempt=False), rules)
        is None
    ):
        players, federations, titled = rules.swiss_exemption
        found.append(
            Condition(
                rules.swiss_exemption_article,
                f"the opponent mix holds only by the Swiss exemption, which must hold in every "
                f"remaining round too: at least {players} rated players of federations other "
                f"than {t.host_federation}, from at least {federations} federations, "
                f"{titled} of them GM, IM, WGM or WIM, counting only players who miss at most "
                f"{rules.swiss_exemption_max_missed} round",
            )
        )
    open_status = _open_unrated(state, ctx, cells, up_to)
    if open_status and not _holds_either_way(state, ctx, rank, cells, title, open_status):
        names = ", ".join(state.players[o].label() for o in sorted(open_status))
        some = state.players[min(open_status)]
        excluded = rules.exclusion(some, Code.DRAW, t, True)
        article = excluded[0] if excluded else ""
        found.append(
            Condition(
                article,
                f"the games against {names} count or not depending on whether they end the "
                "event without a point against rated opponents, and the norm does not hold "
                "either way",
            )
        )
    return tuple(found)


def _open_unrated(
    state: TournamentState, ctx: Context, cells: Sequence[Cell], up_to: int
) -> frozenset[int]:
    """The unrated opponents met whose 1.42d status (no point against rated players) later
    games could still change: those with no point so far (a later point ends it) and those
    who have not met a rated player yet (a first loss to one starts it)."""
    if not ctx.tournament.system.predetermined:
        return frozenset()
    players = state.players
    met = {c.opponent for c in cells if c.opponent is not None and c.code.over_the_board}
    out = set()
    for other in met:
        if players[other].rating is not None:
            continue
        if other in ctx.unrated_scored_zero:
            out.add(other)
            continue
        theirs = state.cells(other, up_to)
        against_rated = [
            c
            for c in theirs
            if c.opponent is not None
            and c.code.over_the_board
            and players[c.opponent].rating is not None
        ]
        if not against_rated:
            out.add(other)
    return frozenset(out)


def _holds_either_way(
    state: TournamentState,
    ctx: Context,
    rank: int,
    cells: Sequence[Cell],
    title: Title,
    open_status: frozenset[int],
) -> bool:
    if len(open_status) > _MOST_FLIPS:
        return False
    player, rules = state.players[rank], state.title_rules
    fixed = ctx.unrated_scored_zero - open_status
    for k in range(len(open_status) + 1):
        for zero in itertools.combinations(sorted(open_status), k):
            variant = dataclasses.replace(ctx, unrated_scored_zero=fixed | frozenset(zero))
            if variant == ctx:
                continue  # the norm was found in this one
            if find_norm(player, cells, title, variant, rules) is None:
                return False
    return True


def norm_secured(
    state: TournamentState,
    rank: int,
    title: Title,
    verdict: Verdict,
    up_to: int,
    cells: Mapping[int, Sequence[Cell]] | None = None,
    ctx: Context | None = None,
) -> bool:
    """Whether the achieved ``verdict`` after round ``up_to`` can no longer be taken away:
    after the last round, or before it where the edition lets later games go and nothing
    the later rounds bring can break it (:func:`pending`)."""
    if not verdict.achieved:
        return False
    t = state.tournament
    if t.is_last(up_to):
        return True
    if not state.title_rules.may_ignore_after_norm(t):
        return False
    return not pending(state, rank, title, up_to, cells, ctx)


def pending(
    state: TournamentState,
    rank: int,
    title: Title,
    up_to: int,
    cells: Mapping[int, Sequence[Cell]] | None = None,
    ctx: Context | None = None,
) -> tuple[Condition, ...]:
    """:func:`conditions` on the player's norm after round ``up_to`` (``cells`` and ``ctx``
    of that round, worked out when not given); none after the last round."""
    if state.tournament.is_last(up_to):
        return ()
    if cells is None:
        cells = state.all_cells(up_to)
    if ctx is None:
        ctx = context(state, up_to, cells)
    return conditions(state, ctx, rank, cells.get(rank, []), title, up_to)


__all__ = ["Condition", "conditions", "norm_secured", "pending"]
