"""What the evaluation after a finished round works out once (:class:`RoundView`): the
standings, the tournament-wide context, the norms achieved and what each still depends on.
The round's alerts (:mod:`tracker.engine.round_alerts`) and the norm watch
(:mod:`tracker.engine.watch`) both read it, so that they say the same."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from tracker import contract as ev
from tracker.domain.players import Player
from tracker.domain.titles import Title
from tracker.engine.alerts import player_ref
from tracker.engine.carry import carried
from tracker.engine.evaluation import (
    NormEvent,
    Norms,
    PlayerRound,
    achieved_norms,
    context,
    norm_event,
    norms_before,
    standings,
)
from tracker.engine.prospects.round_robin import kept_out_of_reach
from tracker.engine.prospects.values import Key, Prior
from tracker.engine.secured import (
    Condition,
    Secured,
    by_exemption,
    conditions,
    secured_norm,
    system_condition,
)
from tracker.engine.state import TournamentState
from tracker.norms.search import Cell, Context, Verdict, evaluate


@dataclasses.dataclass(frozen=True, slots=True)
class RoundView:
    """What the evaluation after round ``number`` works out once, for every alert."""

    number: int
    gate: NormEvent
    """Rapid, blitz, online: no norms, prospects or title ratings."""
    rows: list[PlayerRound]
    cells: dict[int, Sequence[Cell]]
    ctx: Context
    norms: Norms
    """The norms achieved, by player and title; a verdict is made when first asked for
    (:class:`~tracker.engine.evaluation.Norms`): the alerts ask for those they announce."""
    pending: dict[Key, tuple[Condition, ...]]
    """What each norm still depends on: before the last round, what later rounds can
    change; in every round, an unknown system (:func:`system_condition`)."""
    last: bool
    before_last_allowed: bool
    """The edition lets a norm before the last round stand (1.42f / 1.4.1e)."""
    prior: Prior | None = None
    """What the prospects after the round before left (:attr:`Carry.prior`), when the state
    carries that round's evaluation of the same facts."""
    secured: dict[Key, Secured] = dataclasses.field(default_factory=dict)
    """The norms no later round can take away (:func:`secured_norm`, the one notion of
    secured), with why; those certain before they are achieved (a round robin's) are in
    :attr:`norms` too, with their worst case over every scheduled round."""
    refs: dict[int, ev.PlayerRef] = dataclasses.field(default_factory=dict)
    """How the alerts name each player, made when first asked for (:meth:`ref`) and shared
    with the views of the next rounds of the same players."""

    def ref(self, player: Player) -> ev.PlayerRef:
        """:func:`~tracker.engine.alerts.player_ref` of ``player``, made once."""
        found = self.refs.get(player.rank)
        if found is None:
            found = self.refs[player.rank] = player_ref(player)
        return found

    @property
    def not_a_norm_event(self) -> str | None:
        """Why the event gives no norms (the round summary says it), or ``None``."""
        return None if self.gate.norms else self.gate.reason

    def verdict(self, state: TournamentState, rank: int, title: Title) -> Verdict:
        """The player's full verdict for ``title``, failed or not (the arbiter's
        breakdown), from the round's cells and context: what
        :func:`~tracker.engine.evaluation.verdict_for` works out from the facts."""
        cells = self.cells.get(rank, [])
        return evaluate(state.players[rank], cells, title, self.ctx, state.title_rules)

    def shown(self, state: TournamentState, rank: int, title: Title) -> Verdict:
        """The verdict the breakdown shows (``check``, the player card): a certain norm's
        worst case over every scheduled round, as its alert gives it, else
        :meth:`verdict`."""
        sure = self.secured.get((rank, title))
        certain = sure.verdict if sure is not None else None
        return certain if certain is not None else self.verdict(state, rank, title)

    def announces(self, key: Key) -> bool:
        """Whether a norm of :attr:`norms` is announced after this round: after the last
        round, where the edition lets a norm before it stand (secured, or with its
        conditions), or when it is secured (certain)."""
        return self.last or self.before_last_allowed or key in self.secured


def view_after(state: TournamentState, number: int) -> RoundView:
    """The evaluation after round ``number``, extending the state's carry of the round
    before (:func:`tracker.engine.carry.carried`) when it rests on the same facts."""
    t = state.tournament
    last = t.is_last(number)
    carry = carried(state, number)
    previous = carry.watch.view if carry is not None else None
    gate = norm_event(state) if previous is None else previous.gate
    rows = standings(state, number, previous.rows if previous is not None else None, gate)
    cells: dict[int, Sequence[Cell]] = {row.player.rank: row.cells for row in rows}
    ctx = context(state, number, cells, gate)  # once, for the norms and the prospects
    before = (
        None if previous is None else norms_before(state, number, ctx, previous.ctx, previous.norms)
    )
    norms = achieved_norms(state, rows, ctx, before)
    before_last_allowed = state.title_rules.may_ignore_after_norm(t)
    assumed = system_condition(state)  # an unknown system: every norm, every round
    later = not last and before_last_allowed
    pending: dict[Key, tuple[Condition, ...]] = {}
    for rank, title in norms:
        found = assumed
        if later:
            # a norm of the round before built on held without the Swiss exemption unless
            # that was its condition (:func:`conditions`)
            held = None
            if before is not None and previous is not None and (rank, title) in before:
                held = not by_exemption(state, previous.pending.get((rank, title), ()))
            found += conditions(state, ctx, rank, cells[rank], title, number, held)
        if found:
            pending[(rank, title)] = found
    prior = carry.prior if carry is not None else None
    out_of_reach = kept_out_of_reach(state, number, cells, ctx, prior)
    secured = _secured(state, rows, cells, ctx, norms, pending, number, out_of_reach)
    norms.update((key, s.verdict) for key, s in secured.items() if s.verdict is not None)
    return RoundView(
        number,
        gate,
        rows,
        cells,
        ctx,
        norms,
        pending,
        last,
        before_last_allowed,
        prior,
        secured=secured,
        refs=previous.refs if previous is not None else {},
    )


def _secured(
    state: TournamentState,
    rows: Sequence[PlayerRound],
    cells: Mapping[int, Sequence[Cell]],
    ctx: Context,
    norms: Norms,
    pending: Mapping[Key, tuple[Condition, ...]],
    number: int,
    out_of_reach: frozenset[Key] = frozenset(),
) -> dict[Key, Secured]:
    """:func:`secured_norm` of every norm achieved, and in a round robin before its last
    round of every norm a player can still gain (it may be certain): not of the pairs kept
    out of reach from the round before (``out_of_reach``, :func:`kept_out_of_reach`)."""
    keys = list(norms)
    t = state.tournament
    if t.system.predetermined and not t.is_last(number):
        eligible = state.title_rules.eligible_norm_titles
        keys += [
            key
            for row in rows
            for title in eligible(row.player)
            if (key := (row.player.rank, title)) not in norms and key not in out_of_reach
        ]
    found = {}
    for key in keys:
        achieved = key in norms
        given = pending.get(key, ()) if achieved else None
        sure = secured_norm(state, *key, achieved, number, cells, ctx, given)
        if sure is not None:
            found[key] = sure
    return found


__all__ = ["Key", "RoundView", "view_after"]
