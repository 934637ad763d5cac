"""The prospects of every player after a round (:class:`Outlook`): the status of each
(player, title) the norm evaluation considers, and on request the detail a reader sees."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any

from tracker.domain.titles import Title
from tracker.engine.evaluation import context
from tracker.engine.event_flags import swiss_exemption_possible
from tracker.engine.prospects.bound import Relaxed, needs_of, rating_may_do, why_not
from tracker.engine.prospects.exact import Exact
from tracker.engine.prospects.opponents import Opponents
from tracker.engine.prospects.quick import FieldBound
from tracker.engine.prospects.round_robin import WonRecords, answers_last, kept_out_of_reach
from tracker.engine.prospects.values import (
    EXACT_SUBSETS,
    HORIZON,
    UNKNOWN_ROUNDS,
    Key,
    Made,
    Prior,
    Prospect,
    Status,
    Way,
    spec_basis,
    swiss_assumption,
)
from tracker.engine.state import TournamentState
from tracker.norms.search import (
    Cell,
    Context,
    NormGame,
    Requirements,
    least_total,
    needed_average,
    open_checks,
    requirements,
    short_requirements,
)


class Outlook:
    """The prospects of every player after round ``up_to``, sharing what all of them need."""

    def __init__(
        self,
        state: TournamentState,
        up_to: int,
        cells: Mapping[int, Sequence[Cell]] | None = None,
        ctx: Context | None = None,
        prior: Prior | None = None,
    ) -> None:
        """``cells`` (every player's rounds up to ``up_to``, in round order) and ``ctx``
        (:func:`tracker.engine.evaluation.context` of them) when the caller has them already;
        ``prior``: what the outlook after the round before, of the same facts, left
        (:meth:`leaves`)."""
        self.state = state
        self.up_to = up_to
        t = state.tournament
        self.tournament = t
        self.rules = state.title_rules
        self.cells = cells = state.all_cells(up_to) if cells is None else cells
        self.ctx = context(state, up_to, cells) if ctx is None else ctx
        self.round_robin = t.system.predetermined
        if not self.round_robin:
            # the exemption may still be met by players not paired yet (the assumption)
            field_exempt = swiss_exemption_possible(t, state.players.values(), self.rules)
            self.ctx = dataclasses.replace(
                self.ctx, swiss_exempt=self.ctx.swiss_exempt or field_exempt
            )
        same = prior is not None and prior.zero == self.ctx.unrated_scored_zero
        known = prior.games if prior is not None and same else {}
        self.opponents = Opponents(state, up_to, cells, self.ctx, known)
        self.games_left_swiss = self.opponents.games_left_swiss
        """Rounds left in a Swiss; ``None`` when the number of rounds is not known (then
        :meth:`_swiss_left` assumes a number, :data:`HORIZON`)."""
        self.won = WonRecords(self.opponents, self._spec)
        self.lasting = not self.round_robin and self.games_left_swiss is not None
        """Whether an outcome on the rating or the number of games lasts (:attr:`settled`)."""
        self.fixed_field = self.round_robin and answers_last(state, self.ctx)
        """A round robin whose out-of-reach answers last (:func:`answers_last`)."""
        self.settled: set[Key] = set()
        """The pairs out of reach for good. In a Swiss whose number of rounds is known: out
        of reach on every route, each record on the number of games, the rating, or an
        at-least rule of the mix with every game left counted (:attr:`Relaxed.lasting`).
        These only get harder round by round: a round's game is one of the pool's (at most
        the rating it was counted with, at most a win), the pool loses its opponent, a game
        left to count goes; a round without a counted game is one the bound allowed for.
        In a round robin of :attr:`fixed_field`: out of reach at all, which no result of a
        later game can change (:func:`answers_last`); kept only while the player meets an
        opponent in each round (conservative: a round without a game lets the answer go).
        The status pass answers for these pairs without working them out again."""
        if prior is not None and self.lasting:
            self.settled.update(prior.settled)
        else:  # a round robin's, where they last (empty elsewhere)
            self.settled.update(kept_out_of_reach(state, up_to, cells, self.ctx, prior))
        self._bounds: dict[Key, list[Relaxed]] = {}
        self._every: set[Key] = set()
        basis = spec_basis(self.ctx)
        self._specs: dict[Key, Requirements] = (
            dict(prior.specs) if prior is not None and prior.basis == basis else {}
        )
        self._scores: dict[int, Fraction] = {}
        self.made = Made()
        """The values the round's prospects share (tables of needs, open requirements)."""
        self._sums: dict[tuple[Title, int, int], int | None] = {}
        self.quick = FieldBound(self.opponents, self.least_sum) if self.lasting else None
        """A Swiss's cheap tests of a pair's contention, in contention or out of reach for
        good (:mod:`.quick`), where the number of rounds is known."""

    def leaves(self) -> Prior:
        """What the next round's outlook of the same facts can build on."""
        o = self.opponents
        return Prior(
            frozenset(self.settled),
            self._specs,
            spec_basis(self.ctx),
            o.classified(),
            self.ctx.unrated_scored_zero,
        )

    def all(self, secured: Collection[Key]) -> dict[Key, Prospect]:
        """Every (player, title) the norm evaluation considers, without the details or the
        reasons (which :meth:`prospect` gives)."""
        out = {}
        quick, settled, up_to = self.quick, self.settled, self.up_to
        left = self.games_left_swiss
        for rank, player in self.state.players.items():
            for title in self.rules.eligible_norm_titles(player):
                key = (rank, title)
                if quick is not None and left and key not in secured:
                    # a Swiss pair out of reach for good, or decided by the cheap tests of
                    # :mod:`.quick`: as :meth:`prospect` says without details
                    found = (
                        Status.OUT_OF_REACH
                        if key in settled
                        else quick.status(rank, self._spec(rank, title))
                    )
                    if found is not None:
                        if found is Status.OUT_OF_REACH:
                            # every record fails on games or rating: for good (:attr:`settled`)
                            settled.add(key)
                        out[key] = Prospect(player, title, up_to, found, left, False)
                        continue
                out[key] = self.prospect(rank, title, key in secured, False)
        return out

    def prospect(self, rank: int, title: Title, secured: bool, detail: bool = True) -> Prospect:
        player = self.state.players[rank]
        o = self.opponents
        remaining = o.remaining(rank)
        left = len(remaining) if self.round_robin else self.games_left_swiss
        shown: dict[str, Any] = {}  # the detail's fields

        def make(status: Status = Status.OUT_OF_REACH, **fields: Any) -> Prospect:
            return Prospect(player, title, self.up_to, status, left, **(shown | fields))

        shown["exact"] = False
        if secured:
            return make(Status.SECURED, reason="norm achieved")
        if left == 0 and not detail:
            return make(reason="no games left")
        if not detail and (rank, title) in self.settled:
            return make(reason="")
        counted = o.counted(rank)
        spec = self._spec(rank, title)
        if detail:
            distinct = {g.opponent.rank for g in counted} | {r.opponent.rank for r in remaining}
            to_come = self._swiss_left(spec, counted) if left is None else left
            games = len(counted) + min(to_come, o.pool(rank).size)
            opponents = len(distinct) if self.round_robin else games
            shown["remaining"] = remaining
            shown["open"] = open_checks(counted, spec, games, opponents, self.made.open)
            shown["assumption"] = self._assumption(spec, counted)
        if left == 0:
            return make(reason="no games left")
        # round robin: winning every remaining game decides (:meth:`WonRecords.wins_all`);
        # the whole record so, which the norm search would try first, is cheap to try, and
        # when it gives the norm, the bound (a necessary condition) cannot rule it out
        if not (self.round_robin and self.won.kept_and_won(rank, title)):
            routes = self._routes(rank, spec, counted, every=detail)
            if not routes[0].possible():
                # the other routes only when the first fails (or for the details)
                routes = self._routes(rank, spec, counted, True, quick=not detail)
                if not any(route.possible() for route in routes):
                    if self.fixed_field or (self.lasting and all(r.lasting for r in routes)):
                        self.settled.add((rank, title))
                    # the reason goes with the details (the status pass asks for none)
                    return make(reason=why_not(routes) if detail else "")
            if not self.round_robin:
                return make(Status.POSSIBLE, needs=needs_of(routes) if detail else ())
            if not self.won.wins_all(rank, title):
                if self.fixed_field:
                    self.settled.add((rank, title))
                return make(reason="no results against the remaining opponents give the norm")
        if not detail:
            return make(Status.POSSIBLE)
        exact = Exact(self, spec, player, title, counted, remaining)
        found = exact.least() if exact.subsets() <= EXACT_SUBSETS else None
        if found is not None:
            return make(Status.POSSIBLE, exact=True, ways=exact.ways(found), assumption="")
        # too many sets of counted games to try, or the norm comes only with a game not
        # played over the board (1.4.1c, 1.4.1f): the scores the bound does not rule out
        needs = needs_of(self._routes(rank, spec, counted, every=True))
        low = min(int(n.score * 2) for n in needs) if needs else 0
        ways = tuple(Way(Fraction(h, 2), ()) for h in range(low, 2 * len(remaining) + 1))
        return make(Status.POSSIBLE, ways=ways, needs=needs)

    def _assumption(self, spec: Requirements, counted: Sequence[NormGame]) -> str:
        """What a table of needs assumes (:func:`swiss_assumption`), and with the number
        of rounds unknown, how many (:meth:`_swiss_left`)."""
        if self.round_robin:
            floor = self.rules.articles["floor"]
            return f"remaining opponents as scheduled, each counted at least at the {floor} floor"
        if self.games_left_swiss is not None:
            return swiss_assumption(self.rules)
        return swiss_assumption(self.rules) + UNKNOWN_ROUNDS.format(
            horizon=self.up_to + self._swiss_left(spec, counted),
            left=self._swiss_left(spec, counted),
        )

    def _swiss_left(self, spec: Requirements, counted: Sequence[NormGame]) -> int:
        """The games left in a Swiss: the rounds left, or with their number unknown, those
        of a :data:`HORIZON`-round event, or as many as the minimum number of games still
        needs if that is more (nobody is out of reach for lack of games)."""
        if self.games_left_swiss is not None:
            return self.games_left_swiss
        return max(HORIZON - self.up_to, spec.min_games - len(counted), 1)

    def score(self, half_points: int) -> Fraction:
        """A score given in half points, as a fraction made once per outlook."""
        if half_points not in self._scores:
            self._scores[half_points] = Fraction(half_points, 2)
        return self._scores[half_points]

    def least_sum(self, spec: Requirements, half_points: int, games: int) -> int | None:
        """The least sum of ``games`` ratings (as counted, floor applied) that gives the norm
        with this score, ``None`` below the minimum score; the same for every player, so
        kept per title."""
        key = (spec.title, half_points, games)
        if key not in self._sums:
            need = needed_average(half_points, games, spec)
            self._sums[key] = None if need is None else least_total(need, games)
        return self._sums[key]

    def _routes(
        self,
        rank: int,
        spec: Requirements,
        counted: list[NormGame],
        every: bool,
        quick: bool = False,
    ) -> list[Relaxed]:
        """The bounds of the ways the norm search can succeed: first the norm over the games
        (with wins left out, 1.42e, a tail cut, 1.42f, and remaining rounds without a counted
        game, a bye or a forfeit); with ``every``, also 1.4.1c's 8 games where they can
        still apply (made only when asked for: the first route decides most players; with
        ``quick``, for a pass/fail answer, not where the rating alone rules them out).
        1.42c's last-round forfeit counted as a loss needs no bound of its own: the game
        played and lost gives the same record."""
        key = (rank, spec.title)
        o = self.opponents
        routes = self._bounds.get(key)
        if routes is None:
            if self.round_robin:
                left = sum(1 for r in o.remaining(rank) if r.counts)
            else:
                left = self._swiss_left(spec, counted)
            routes = [Relaxed(self, spec, counted, o.summary(rank), o.pool(rank), left)]
            self._bounds[key] = routes
        if every and key not in self._every:
            m = o.short_games(rank)
            if m is not None and quick and not rating_may_do(routes[0], m):
                return routes  # its rating cannot pass: not made for a pass/fail answer
            self._every.add(key)
            short = short_requirements(spec) if m is not None else None
            if short is not None and m is not None:
                routes.append(
                    Relaxed(
                        self,
                        short,
                        counted,
                        o.summary(rank),
                        o.pool(rank),
                        m,
                        exactly=True,
                        note=f"{short.games_article}: {short.min_games} games, the round "
                        "without a counted game a forfeit win or a pairing-allocated bye",
                    )
                )
        return routes

    def _spec(self, rank: int, title: Title) -> Requirements:
        """The requirements, kept so that their mix rules are made once."""
        spec = self._specs.get((rank, title))
        if spec is None:
            player = self.state.players[rank]
            spec = self._specs[(rank, title)] = requirements(title, player, self.ctx, self.rules)
        return spec
