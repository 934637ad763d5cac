"""What the evaluation of one round leaves for the next round's, so that a round's work is
what that round can have changed (docs/prospects.md, "A round in milliseconds").

A :class:`Carry` is derived, never a fact: it holds the facts it was made from (the players
and every round up to its own, each an immutable value that a new fact replaces), and
:meth:`Carry.follows` uses it only for the next round of exactly those facts (a round closed
since, or reopened and complete, holds the same games: :meth:`Round.same_facts`).
Any other fact (a correction, a player registered late) makes the next evaluation start
from round 1, as the whole tournament would be evaluated without it; a test compares the two
(``tests/unit/test_incremental.py``). The round's own norm watch is kept too
(:attr:`Carry.watch`), so that whoever shows it after the round (``tracker replay``, the
REST views) reads the evaluation the transition made instead of making it again
(:meth:`Carry.holds`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from tracker.domain.players import Player
from tracker.domain.tournaments import Tournament
from tracker.engine.evaluation import NormEvent
from tracker.engine.prospects.values import Prior
from tracker.engine.state import Round, TournamentState

if TYPE_CHECKING:
    from tracker.engine.watch import Watch


@dataclasses.dataclass(frozen=True, slots=True)
class Carry:
    """After round :attr:`number`: what the prospects leave for the next round's
    (:class:`~tracker.engine.prospects.Prior`: the pairs out of reach for good), whether the
    event gives norms (:func:`tracker.engine.evaluation.norm_event`, a function of the
    tournament and the players), and the round's norm watch with its view, whose standings
    (live ratings included) the next round's view extends
    (:func:`tracker.engine.round_view.view_after`)."""

    number: int
    tournament: Tournament
    """The registration it was made under (its system, rounds and dates decide the norms
    and the gate; ``system_corrected`` replaces it)."""
    players: Mapping[int, Player]
    rounds: tuple[Round | None, ...]
    """Rounds 1 … :attr:`number` as they were evaluated."""
    prior: Prior
    gate: NormEvent
    watch: Watch = dataclasses.field(compare=False, repr=False)
    """The round's norm watch, as the transition made it (its details are worked out when
    first asked for), and its :attr:`Watch.view`."""

    @classmethod
    def of(cls, state: TournamentState, number: int, watch: Watch) -> Carry:
        """The carry of round ``number``'s evaluation (``watch``, with its view) of
        ``state``'s facts; the watch is kept lightened (:meth:`Watch.lighten`)."""
        rounds = tuple(state.rounds.get(n) for n in range(1, number + 1))
        view = watch.view
        prior = watch.leaves()
        watch.lighten()
        return cls(number, state.tournament, state.players, rounds, prior, view.gate, watch)

    def follows(self, state: TournamentState, number: int) -> bool:
        """Whether round ``number`` of ``state`` comes right after this carry's round, on
        the same registration, the same players and the same facts of every round before
        it."""
        return number == self.number + 1 and self._same_facts(state)

    def holds(self, state: TournamentState, number: int) -> bool:
        """Whether this carry is round ``number``'s evaluation of ``state``'s facts."""
        return number == self.number and self._same_facts(state)

    def _same_facts(self, state: TournamentState) -> bool:
        if state.players is not self.players:
            return False
        if state.tournament is not self.tournament:
            return False
        get = state.rounds.get
        return all(_same(get(n), rnd) for n, rnd in enumerate(self.rounds, 1))


def _same(now: Round | None, then: Round | None) -> bool:
    if now is None or then is None:
        return now is then
    return now.same_facts(then)


def carried(state: TournamentState, number: int) -> Carry | None:
    """The state's carry if round ``number`` can build on it."""
    carry = state.carry
    return carry if carry is not None and carry.follows(state, number) else None


__all__ = ["Carry", "carried"]
