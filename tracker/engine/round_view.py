"""What the evaluation after a finished round works out once (:class:`RoundView`): the
standings, the tournament-wide context, the norms achieved and what each still depends on.
The round's alerts (:mod:`tracker.engine.round_alerts`) and the norm watch
(:mod:`tracker.engine.watch`) both read it, so that they say the same."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tracker.domain.titles import Title
from tracker.engine.carry import carried
from tracker.engine.evaluation import (
    NormEvent,
    PlayerRound,
    achieved_norms,
    context,
    norm_event,
    standings,
)
from tracker.engine.prospects.values import Key, Prior
from tracker.engine.secured import Condition, conditions
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
    norms: dict[Key, Verdict]
    pending: dict[Key, tuple[Condition, ...]]
    """Before the last round: what each norm still depends on that later rounds can change."""
    last: bool
    before_last_allowed: bool
    """The edition lets a norm before the last round stand (1.42f / 1.4.1e)."""
    prior: Prior | None = None
    """What the prospects after the round before left (:attr:`Carry.prior`), when the state
    carries that round's evaluation of the same facts."""

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

    @property
    def secured(self) -> set[Key]:
        """The norms no later round can take away."""
        if not (self.last or self.before_last_allowed):
            return set()
        return set(self.norms) - set(self.pending)


def view_after(state: TournamentState, number: int) -> RoundView:
    """The evaluation after round ``number``, extending the state's carry of the round
    before (:func:`tracker.engine.carry.carried`) when it rests on the same facts."""
    t = state.tournament
    last = t.is_last(number)
    carry = carried(state, number)
    rows = standings(state, number, carry.live if carry is not None else None)
    cells: dict[int, Sequence[Cell]] = {row.player.rank: row.cells for row in rows}
    gate = norm_event(state) if carry is None else carry.gate
    ctx = context(state, number, cells, gate)  # once, for the norms and the prospects
    norms = achieved_norms(state, rows, ctx)
    before_last_allowed = state.title_rules.may_ignore_after_norm(t)
    pending = (
        {
            (rank, title): found
            for rank, title in norms
            if (found := conditions(state, ctx, rank, cells[rank], title, number))
        }
        if norms and not last and before_last_allowed
        else {}
    )
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
        carry.prior if carry is not None else None,
    )


__all__ = ["Key", "RoundView", "view_after"]
