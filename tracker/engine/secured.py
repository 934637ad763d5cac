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

One dependence is on what the file does not say: an event whose system is **unknown**
(:mod:`tracker.formats.pairing_system`) is judged as a Swiss without the Swiss exemption,
and every norm it gives carries that assumption as a condition (:func:`system_condition`),
after the last round too: it is never secured, and the certificate is refused until the
system is named (``--system``, or a ``system_corrected`` from a later export).

A norm not achieved yet is secured too when it is certain (:func:`certain_norm`).

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

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System
from tracker.engine.evaluation import context
from tracker.engine.state import TournamentState
from tracker.norms.search import Cell, Context, Verdict, find_norm, norm_exists
from tracker.rules import TitleRules

_MOST_REMAINING = 5
"""Remaining games :func:`certain_norm` checks every forfeit of (2⁴ subsets at most); with
more the norm is not claimed before it is achieved."""

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
    without_exemption: bool | None = None,
) -> tuple[Condition, ...]:
    """The conditions on the player's ``title`` norm, achieved on ``cells`` (rounds 1 …
    ``up_to``) in the context ``ctx``, that later rounds could break; empty when the norm
    is secured (given that the edition lets later games go, 1.42f / 1.4.1e).

    ``without_exemption``: whether the norm held without the Swiss exemption after round
    ``up_to - 1``, where this round's search may build on that one's
    (:func:`tracker.engine.evaluation.norms_before`, the same argument with the exemption
    left out of the same context): if it did, it does now; if not, only the whole record
    can give it now. ``None``: not known, searched for."""
    rules, t = state.title_rules, ctx.tournament
    player = state.players[rank]
    found: list[Condition] = []
    if (
        ctx.swiss_exempt
        and rules.swiss_exemption_per_round
        and rules.federation_exemption(t, False, player) is None
        and not (
            without_exemption
            or norm_exists(
                player,
                cells,
                title,
                dataclasses.replace(ctx, swiss_exempt=False),
                rules,
                cut=without_exemption is None,
            )
        )
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


def by_exemption(state: TournamentState, found: Sequence[Condition]) -> bool:
    """Whether the norm whose conditions are ``found`` (:func:`conditions`) holds only by
    the Swiss exemption (1.4.3d)."""
    article = state.title_rules.swiss_exemption_article
    return any(c.article == article for c in found)


def system_condition(state: TournamentState) -> tuple[Condition, ...]:
    """The assumption a norm of an event of unknown system rests on, as its one condition
    (none when the system is known). Judged as a Swiss (later games may be left out: 2009
    1.42f, 2024 1.4.1e), without the Swiss exemption (1.43e / 1.4.3d) and without the
    round-robin rules (every scheduled round counting, 2024 1.4.1e; unrated players with no
    point against rated ones left out, 1.42d / 1.4.2b): a round robin may not give it."""
    t, rules = state.tournament, state.title_rules
    if t.system is not System.UNKNOWN:
        return ()
    unrated = rules.unrated_zero_article
    why = t.system_evidence or "the event's system is not known"
    return (
        Condition(
            rules.after_norm_article,
            f"{why}. Judged as a Swiss without the exemption of "
            f"{rules.swiss_exemption_article}; in a round robin the rules differ "
            f"({rules.after_norm_article}, {unrated}) and the norm may not hold: "
            "the arbiter names the system (--system)",
        ),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class Secured:
    """A norm no later result can take away (:func:`secured_norm`), and why (empty after the
    last round, where nothing is left to take it away). A norm certain before it is achieved
    (:attr:`certain`) comes with the verdict it is announced with, the worst case over every
    scheduled round; an achieved norm's verdict is the round's own (the view's)."""

    because: str
    verdict: Verdict | None = None
    """The worst case of a norm certain before it is achieved; ``None`` for a norm
    achieved."""

    @property
    def certain(self) -> bool:
        """Secured before it is achieved (:func:`certain_norm`)."""
        return self.verdict is not None


def secured_norm(
    state: TournamentState,
    rank: int,
    title: Title,
    verdict: Verdict | bool | None,
    up_to: int,
    cells: Mapping[int, Sequence[Cell]] | None = None,
    ctx: Context | None = None,
    open_conditions: Sequence[Condition] | None = None,
) -> Secured | None:
    """The one test of *secured*, which the alerts, ``check``, the views and the certificate
    share: the player's ``title`` norm after round ``up_to`` (``verdict``: the best attempt
    on the games played, ``None`` when not worked out because it is not achieved, or only
    whether it is achieved) can no longer be taken away. Never while the system is unknown
    (:func:`system_condition`); after the last round, when achieved; before it, when
    achieved, the edition lets the later games go (1.42f / 1.4.1e) and no condition is open
    (:func:`conditions`; ``open_conditions``: already worked out), or else when certain
    (:func:`certain_norm`).
    ``cells`` and ``ctx`` are those of round ``up_to``, worked out when not given."""
    if system_condition(state):
        return None
    t, rules = state.tournament, state.title_rules
    last = t.is_last(up_to)
    achieved = verdict.achieved if isinstance(verdict, Verdict) else bool(verdict)
    if achieved and last:
        return Secured("")
    if last or (not achieved and not t.system.predetermined):
        return None  # a Swiss: nothing is claimed before the norm is achieved
    if cells is None:
        cells = state.all_cells(up_to)
    if ctx is None:
        ctx = context(state, up_to, cells)
    mine = cells.get(rank, ())
    if achieved and rules.may_ignore_after_norm(t):
        if open_conditions is None:
            open_conditions = conditions(state, ctx, rank, mine, title, up_to)
        if not open_conditions:
            because = (
                f"achieved after round {up_to}: {rules.after_norm_article} lets the games "
                "after it go, so no later result can take it away"
            )
            return Secured(because)
    return certain_norm(state, rank, title, up_to, mine, ctx)


def certain_norm(
    state: TournamentState,
    rank: int,
    title: Title,
    up_to: int,
    cells: Sequence[Cell],
    ctx: Context,
) -> Secured | None:
    """The player's ``title`` norm when it is certain after round ``up_to`` of a round robin
    (its remaining opponents are known, so it can be checked exactly), else ``None``: a function
    of the facts of rounds 1 … ``up_to`` only, as every alert of that round is.

    Reading [issue-19 60] Certain round-robin norms: before the last round, a norm that 0 points
    in each remaining game (the worst results a player can have) still gives over all rounds,
    and that no forfeit before the last round takes away (a game not played does not count,
    1.42c), is announced as secured, its evidence counting those games as lost and
    ``secured_because`` saying so. 1.42c: a last-round forfeit win counts, as a loss, only where
    the games played are too few without it, so the last round's opponent forfeiting is checked
    as the forfeit win it is (:func:`_holds_when_every_opponent_forfeits`; a 12-player pre-2009
    round robin whose IM norm needed that game for the mix was claimed certain before); the
    claim assumes the player plays the last round, and says it. The remaining games, against the
    opponents not met yet, are placed in the rounds left in start-rank order for the evidence,
    but their rounds are not assumed (the alert of a round rests on the facts up to it, even
    where later rounds are paired already, so that a correction finds it again): any of them may
    be the last round's, and every other may be forfeited; with more rounds left than games (a
    round robin of an odd number, the player's round off still to come), any may be. Only
    against rated opponents (an unrated one's games may stop counting, 1.42d), with at most 5
    games left. In a Swiss the remaining opponents are not known, and nothing is claimed before
    the norm is achieved. ``check``, the norm watch, the player card and the certificate use the
    same test (:func:`secured_norm`); the certificate of a certain norm is made after the last
    round, from the games as played."""
    t, rules = state.tournament, state.title_rules
    planned = t.planned_rounds
    if not t.system.predetermined or planned is None or up_to >= planned or ctx.event_check:
        return None
    future = _remaining_games(state, rank, cells, up_to, planned)
    if not future or len(future) > _MOST_REMAINING:
        return None
    players = state.players
    opponents = [c.opponent for c in [*cells, *future] if c.opponent is not None]
    if any(players[o].rating is None for o in opponents):
        return None
    player = players[rank]
    worst = find_norm(player, [*cells, *future], title, ctx, rules)
    if worst is None:
        return None
    plays_last = len(future) == planned - up_to
    for k in range(1, len(future) + 1):
        if plays_last and k == len(future):
            break  # the player plays the last round: its game is below, as a forfeit win
        for gone in itertools.combinations(future, k):
            kept = [c for c in future if c not in gone]
            if not norm_exists(player, [*cells, *kept], title, ctx, rules):
                return None
    if plays_last and not _holds_when_every_opponent_forfeits(
        player, title, cells, future, planned, ctx, rules
    ):
        return None
    games = ", ".join(players[o].name for c in future if (o := c.opponent) is not None)
    because = (
        f"certain after round {up_to}: with 0 points in each remaining game ({games}; "
        "counted as lost in the evidence, in the rounds left in start-rank order), the norm "
        f"holds over all {planned} rounds, and a forfeit before the last round (a game that "
        f"does not count, {rules.articles['bye']}) does not take it away; the player plays "
        "the last round"
    )
    return Secured(because, worst)


def _holds_when_every_opponent_forfeits(
    player: Player,
    title: Title,
    cells: Sequence[Cell],
    future: Sequence[Cell],
    planned: int,
    ctx: Context,
    rules: TitleRules,
) -> bool:
    """Whether the norm holds when every remaining opponent forfeits, the last round's
    included (the player plays it; its opponent does not come), for each remaining opponent
    who may be the last round's. A forfeit before the last round is a game that does not
    count; a last-round forfeit win counts only as the edition's last-round rule says (2009
    1.42c, pre-2009 2.1, 2024 1.4.2c: as a loss, and only where the games played are too few
    without it), so it is checked as the forfeit win it is, not as a game lost: with enough
    games without it, it does not count, and a mix that needed it fails."""
    last_opponents = sorted({c.opponent for c in future if c.opponent is not None})
    return all(
        norm_exists(player, [*cells, Cell(planned, o, Code.FORFEIT_WIN)], title, ctx, rules)
        for o in last_opponents
    )


def _remaining_games(
    state: TournamentState, rank: int, cells: Sequence[Cell], up_to: int, planned: int
) -> list[Cell] | None:
    """The player's games after round ``up_to`` of a round robin, each lost: against the
    opponents not met yet (twice over in a double round robin), in start-rank order, in the
    rounds ``up_to`` + 1 … ``planned``; ``None`` when the schedule does not add up (more
    games left than rounds)."""
    cycles = 2 if state.tournament.system is System.DOUBLE_ROUND_ROBIN else 1
    left = {other: cycles for other in state.players if other != rank}
    for c in cells:
        if c.opponent is not None and c.opponent in left:
            left[c.opponent] -= 1
    if any(n < 0 for n in left.values()):
        return None
    unpaired = [o for o in sorted(left) for _ in range(left[o])]
    if len(unpaired) > planned - up_to:
        return None
    return [Cell(n, other, Code.LOSS) for n, other in enumerate(unpaired, up_to + 1)]


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
            if not norm_exists(player, cells, title, variant, rules):
                return False
    return True


def pending(
    state: TournamentState,
    rank: int,
    title: Title,
    up_to: int,
    cells: Mapping[int, Sequence[Cell]] | None = None,
    ctx: Context | None = None,
) -> tuple[Condition, ...]:
    """:func:`system_condition` and :func:`conditions` on the player's norm after round
    ``up_to`` (``cells`` and ``ctx`` of that round, worked out when not given); after the
    last round, only the first."""
    assumed = system_condition(state)
    if state.tournament.is_last(up_to):
        return assumed
    if cells is None:
        cells = state.all_cells(up_to)
    if ctx is None:
        ctx = context(state, up_to, cells)
    return assumed + conditions(state, ctx, rank, cells.get(rank, []), title, up_to)


__all__ = [
    "Condition",
    "Secured",
    "certain_norm",
    "conditions",
    "pending",
    "secured_norm",
    "system_condition",
]
