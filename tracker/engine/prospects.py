"""Norm prospects: after a round, what the remaining rounds must bring for a player to make a
norm they lack, and whether any result still can.

* **Round robins** (single or double): the remaining opponents are known (everyone not yet met
  as often as the cycles allow), so the prospect is exact. A norm's record is the games so far
  and a subset of the remaining ones: a remaining game is counted, left out as a win (1.42e),
  or left out as a game after the norm (1.42f, a tail of rounds, when the edition allows it).
  Whether a set of counted games gives the norm depends on their results only through the
  score, so for each set the fewest points it needs (:func:`tracker.norms.search.least_half_points`)
  decides which final scores in the remaining games can give the norm. Those scores are
  always every score from the lowest one up (a better result never hurts). The round order
  of the remaining games matters only for 1.42f; the prospect allows any order (the answer
  is "some order and these results give the norm"). Pairings of later rounds that arrived
  early are not used, so that the alerts do not depend on when facts arrive.
  Whether the norm is possible at all is decided by the norm search on the record with every
  remaining game won, and on those records with some games won by forfeit where a game not
  played does more than a won game left out (1.4.1c, 1.4.1f: :meth:`Outlook._won_records`).
  The list of scores (over the board) tries every set of counted games, so it is exact only
  up to :data:`EXACT_SUBSETS` sets; a larger round robin (early rounds of 12 players and more)
  gets the Swiss bound below, with its opponents known, until it is small enough.
* **Swiss**: the opponents are unknown. The prospect lists, for each number of remaining games
  that may count and each score in them, the lowest average (1.47b rounding) those opponents
  must have, with ratings as the norm counts them: the 1.46d/e value for an unrated opponent,
  and the 1.46c floor for one below it.

**The Swiss assumption** (never "out of reach" while the norm is possible): the remaining
opponents may be any players the candidate has not met over the board, so they are at most as
strong as the strongest of those. Each of them is counted at least at the 1.46c floor, though
only the lowest (the edition's number of them) is raised. The title, federation and unrated
mix is checked against what those players could give, each rule on its own. The 1.43e
exemption is taken as met when every registered player, if paired, would meet it. A player is
out of reach only when no route (:class:`_Relaxed`: the games with wins left out, or 1.4.1c's
8 games), no score and no number of counted remaining games passes all of that; a remaining
round may bring no counted game (a bye, a forfeit), so any number up to the rounds left
counts (with the number of rounds unknown, up to :data:`HORIZON` rounds in all).

The 1.42d status of unrated round-robin opponents (zero against rated players) is taken as it
stands after the round. Byes entered for later rounds are not used (the alerts do not depend
on when they arrive).
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System
from tracker.engine.evaluation import context
from tracker.engine.event_flags import swiss_exemption_possible
from tracker.engine.state import TournamentState
from tracker.norms.search import (
    Cell,
    Check,
    Context,
    NormGame,
    Requirements,
    complete_mix_holds,
    floor_adjusted,
    gives_norm,
    least_half_points,
    least_total,
    needed_average,
    norm_exists,
    norm_games,
    open_checks,
    requirements,
    short_requirements,
)
from tracker.rules import TitleRules
from tracker.rules.mix import MO, ComboMO, MixRule, WeightedMO


def swiss_assumption(rules: TitleRules) -> str:
    """What a Swiss prospect assumes of the remaining opponents, with the edition's article
    for the floor (1.46c of 2009, 1.4.6b of 2024)."""
    return (
        "remaining opponents at best the highest-rated players not yet met over the board, "
        f"each counted at least at the {rules.articles['floor']} floor"
    )


UNKNOWN_ROUNDS = (
    "; the number of rounds is not known: at most {horizon} rounds in all are assumed "
    "({left} more games for this player)"
)

HORIZON = 13
"""With the number of rounds of a Swiss unknown, the prospects assume it has at most this
many rounds, or as many as the player needs to reach the minimum number of games if that is
more: so nobody is out of reach for lack of games, and the bound stays as cheap as that of a
13-round event (more rounds could only be tried one number of games at a time). Swiss events
of more than 13 rounds are rare, and their files give the number; ``--rounds`` gives it for
the others. 13 is the number of games a norm counts as at most (1.49, 1.7)."""


EXACT_SUBSETS = 2**10
"""The most sets of counted games (wins so far that 1.42e could leave out, times remaining
games that may count or not) a round-robin prospect tries one by one for its exact list of
scores: every single round robin of up to 10 players and double one of up to 6, and larger
ones in their later rounds."""


class Status(enum.Enum):
    SECURED = "secured"
    """The norm is achieved and no later game can take it away (1.42f, or the last round)."""
    POSSIBLE = "possible"
    OUT_OF_REACH = "out_of_reach"


@dataclasses.dataclass(frozen=True, slots=True)
class Need:
    """Swiss: with ``score`` points from ``games`` remaining games that count, their
    opponents must average at least ``average`` (1.47b rounding)."""

    games: int
    score: Fraction
    average: int
    best: int
    """The average of the ``games`` strongest players still available (the assumption)."""
    note: str = ""
    """What else the row needs (1.4.1c: the round without a counted game)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Remaining:
    """Round robin: a game still to play."""

    opponent: Player
    counts: bool
    """Whether the game can count for norms (1.42a/b/d exclude some opponents)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Way:
    """Round robin: ``score`` points from the remaining games give the norm, for example with
    these results (in the order of :attr:`Prospect.remaining`)."""

    score: Fraction
    results: tuple[Code, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Prospect:
    player: Player
    title: Title
    after_round: int
    status: Status
    games_left: int | None
    """Games (rounds of a Swiss) left to play; ``None`` when the number of rounds of a
    Swiss is not known."""
    exact: bool
    """Whether :attr:`ways` is exact: a round robin small enough to try every set of counted
    games (:data:`EXACT_SUBSETS`). Whether the norm is possible at all is exact in every
    round robin."""
    remaining: tuple[Remaining, ...] = ()
    ways: tuple[Way, ...] = ()
    """Round robin: every score in the remaining games that can give the norm, lowest first;
    with examples when :attr:`exact`, otherwise every score not ruled out by :attr:`needs`."""
    needs: tuple[Need, ...] = ()
    """The requirement per number of counted remaining games and score: a Swiss, or a round
    robin too large for :attr:`exact`."""
    open: tuple[Check, ...] = ()
    """The games and mix a record of every game will need, against the games so far."""
    reason: str = ""
    assumption: str = ""
    """What :attr:`needs` assumes about the games to come (Swiss, or a round robin too
    large for :attr:`exact`)."""

    @property
    def in_contention(self) -> bool:
        return self.status is Status.POSSIBLE


Key = tuple[int, Title]

_Weighted = tuple[int, list[tuple[int, int]]]
"""A weighted title mix for one player in units of its ``scale``: (value so far, gains)."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Pool:
    """What the remaining opponents could bring, summed up for the bounds."""

    size: int
    ratings: tuple[int, ...]
    """Their ratings as the norm counts them before the floor (1.46d/e), highest first, as
    many as there are games left."""
    titles: Counter[Title | None]
    federations: Counter[str]
    unrated: int


@dataclasses.dataclass(frozen=True, slots=True)
class _Have:
    """The opponents of the games so far, summed up for the bounds: all of them, and the won
    games among them that 1.42e could leave out."""

    titles: Counter[Title]
    federations: Counter[str]
    unrated: int
    droppable_federations: Counter[str]
    droppable_unrated: int


class Outlook:
    """The prospects of every player after round ``up_to``, sharing what all of them need."""

    def __init__(
        self,
        state: TournamentState,
        up_to: int,
        cells: Mapping[int, Sequence[Cell]] | None = None,
        ctx: Context | None = None,
    ) -> None:
        """``cells`` (every player's rounds up to ``up_to``, in round order) and ``ctx``
        (:func:`tracker.engine.evaluation.context` of them) when the caller has them already."""
        self.state = state
        self.up_to = up_to
        t = state.tournament
        self.tournament = t
        self.rules = state.title_rules
        self.cells = state.all_cells(up_to) if cells is None else cells
        self.ctx = context(state, up_to, self.cells) if ctx is None else ctx
        self.round_robin = t.system.predetermined
        self.cycles = 2 if t.system is System.DOUBLE_ROUND_ROBIN else 1
        self.games_left_swiss = (
            None if t.planned_rounds is None else max(0, t.planned_rounds - up_to)
        )
        """Rounds left in a Swiss; ``None`` when the number of rounds is not known (then
        :meth:`_swiss_left` assumes a number, :data:`HORIZON`)."""
        if not self.round_robin:
            # the exemption may still be met by players not paired yet (the assumption)
            field_exempt = swiss_exemption_possible(t, state.players.values(), self.rules)
            self.ctx = dataclasses.replace(
                self.ctx, swiss_exempt=self.ctx.swiss_exempt or field_exempt
            )
            players = list(state.players.values())
            self.field = sorted(
                ((self.rules.opponent_rating(p), p.rank) for p in players), reverse=True
            )
            self.titles = Counter(p.title for p in players)
            self.federations = Counter(p.federation_key for p in players)
            self.unrated = sum(1 for p in players if p.rating is None)
        self._games: dict[int, list[NormGame]] = {}
        self._pools: dict[int, _Pool] = {}
        self._have: dict[int, _Have] = {}
        self._everyone: list[Remaining] | None = None
        self._left: dict[int, tuple[Remaining, ...]] = {}
        self._bounds: dict[Key, list[_Relaxed]] = {}
        self._every: set[Key] = set()
        self._specs: dict[Key, Requirements] = {}
        self._wins: dict[Key, bool] = {}
        self._kept: dict[Key, bool] = {}
        self._weighted: dict[tuple[int, int], tuple[Mapping[Title, Fraction], _Weighted]] = {}
        self._scores: dict[int, Fraction] = {}
        self._foreign: dict[int, tuple[int, int]] = {}
        self._foreign_field: dict[str, frozenset[str]] = {}
        self._sums: dict[tuple[Title, int, int], int | None] = {}
        self._won: dict[int, list[NormGame]] = {}

    # ------------------------------------------------------------------ public

    def all(self, secured: Collection[Key]) -> dict[Key, Prospect]:
        """Every (player, title) the norm evaluation considers, without the details or the
        reasons (which :meth:`prospect` gives)."""
        out = {}
        for rank, player in self.state.players.items():
            for title in self.rules.eligible_norm_titles(player):
                out[(rank, title)] = self.prospect(rank, title, (rank, title) in secured, False)
        return out

    def prospect(self, rank: int, title: Title, secured: bool, detail: bool = True) -> Prospect:
        player = self.state.players[rank]
        remaining = self._remaining(rank) if self.round_robin else ()
        left = len(remaining) if self.round_robin else self.games_left_swiss
        shown: dict[str, Any] = {}  # the detail's fields

        def make(status: Status = Status.OUT_OF_REACH, **fields: Any) -> Prospect:
            return Prospect(player, title, self.up_to, status, left, **(shown | fields))

        shown["exact"] = False
        if secured:
            return make(Status.SECURED, reason="norm achieved")
        if left == 0 and not detail:
            return make(reason="no games left")
        counted = self._counted(rank)
        spec = self._spec(rank, title)
        if detail:
            distinct = {g.opponent.rank for g in counted} | {r.opponent.rank for r in remaining}
            to_come = self._swiss_left(spec, counted) if left is None else left
            games = len(counted) + min(to_come, self._pool(rank, remaining).size)
            opponents = len(distinct) if self.round_robin else games
            shown["remaining"] = remaining
            shown["open"] = tuple(open_checks(counted, spec, games, opponents))
            shown["assumption"] = self._assumption(spec, counted)
        if left == 0:
            return make(reason="no games left")
        # round robin: winning every remaining game decides (:meth:`_wins_all`); the whole
        # record so, which the norm search would try first, is cheap to try, and when it
        # gives the norm, the bound (a necessary condition) cannot rule it out
        if not (self.round_robin and self._kept_and_won(rank, title, spec)):
            routes = self._routes(rank, spec, counted, remaining, every=detail)
            if not routes[0].possible():
                # the other routes only when the first fails (or for the details)
                routes = self._routes(rank, spec, counted, remaining, True, quick=not detail)
                if not any(route.possible() for route in routes):
                    # the reason goes with the details (the status pass asks for none)
                    return make(reason=_why_not(routes) if detail else "")
            if not self.round_robin:
                return make(Status.POSSIBLE, needs=_needs(routes) if detail else ())
            if not self._wins_all(rank, title):
                return make(reason="no results against the remaining opponents give the norm")
        if not detail:
            return make(Status.POSSIBLE)
        exact = _Exact(self, spec, player, title, counted, remaining)
        found = exact.least() if exact.subsets() <= EXACT_SUBSETS else None
        if found is not None:
            return make(Status.POSSIBLE, exact=True, ways=exact.ways(found), assumption="")
        # too many sets of counted games to try, or the norm comes only with a game not
        # played over the board (1.4.1c, 1.4.1f): the scores the bound does not rule out
        needs = _needs(self._routes(rank, spec, counted, remaining, every=True))
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

    def foreign_federations(self, rank: int) -> tuple[int, int]:
        """The foreign federations (1.43) of the games so far, and how many more the
        remaining opponents could add."""
        if rank not in self._foreign:
            own = self.state.players[rank].federation_key
            is_foreign = self.rules.is_foreign
            have, pool = self._summary(rank), self._pools[rank]
            foreign = {f for f in have.federations if is_foreign(f, own)}
            if self.round_robin:
                new_feds = {f for f, c in pool.federations.items() if c > 0 and is_foreign(f, own)}
                self._foreign[rank] = (len(foreign), len(new_feds - foreign))
            else:
                # a Swiss pool is the field but the players met: of the field's foreign
                # federations, only those all of whose players were met are gone
                field = self._foreign_field.get(own)
                if field is None:
                    field = frozenset(f for f in self.federations if is_foreign(f, own))
                    self._foreign_field[own] = field
                gone = {
                    f
                    for other in self._met(rank, over_the_board=True)
                    if pool.federations[f := self.state.players[other].federation_key] <= 0
                }
                self._foreign[rank] = (len(foreign), len(field - gone - foreign))
        return self._foreign[rank]

    def weighted(self, rank: int, mo: MO) -> _Weighted | None:
        """A weighted title mix (1.45b–e) in integers, in units of
        :attr:`WeightedMO.scale`: the value of the games so far, and what each title among the
        remaining opponents adds with how many of them, best first. Kept per player and
        weights object; ``None`` for a mix of fixed combinations."""
        if not isinstance(mo, WeightedMO):
            return None
        known = self._weighted.get((rank, id(mo.weights)))
        if known is None or known[0] is not mo.weights:
            have, pool, weights = self._summary(rank), self._pools[rank], mo.scaled
            value = mo.scaled_value(have.titles)
            gains = sorted(
                ((weights.get(t, 0), c) for t, c in pool.titles.items() if t is not None),
                reverse=True,
            )
            known = (mo.weights, (value, gains))
            self._weighted[(rank, id(mo.weights))] = known
        return known[1]

    # ------------------------------------------------------------------ helpers

    def _routes(
        self,
        rank: int,
        spec: Requirements,
        counted: list[NormGame],
        remaining: Sequence[Remaining],
        every: bool,
        quick: bool = False,
    ) -> list[_Relaxed]:
        """The bounds of the ways the norm search can succeed: first the norm over the games
        (with wins left out, 1.42e, a tail cut, 1.42f, and remaining rounds without a counted
        game, a bye or a forfeit); with ``every``, also 1.4.1c's 8 games where they can
        still apply (made only when asked for: the first route decides most players; with
        ``quick``, for a pass/fail answer, not where the rating alone rules them out).
        1.42c's last-round forfeit counted as a loss needs no bound of its own: the game
        played and lost gives the same record."""
        key = (rank, spec.title)
        routes = self._bounds.get(key)
        if routes is None:
            pool = self._pool(rank, remaining)
            if self.round_robin:
                left = sum(1 for r in remaining if r.counts)
            else:
                left = self._swiss_left(spec, counted)
            routes = [_Relaxed(self, spec, counted, self._summary(rank), pool, left)]
            self._bounds[key] = routes
        if every and key not in self._every:
            m = self._short_games(rank, counted, remaining)
            if m is not None and quick and not _rating_may_do(routes[0], m):
                return routes  # its rating cannot pass: not made for a pass/fail answer
            self._every.add(key)
            short = short_requirements(spec) if m is not None else None
            if short is not None and m is not None:
                routes.append(
                    _Relaxed(
                        self,
                        short,
                        counted,
                        self._summary(rank),
                        self._pool(rank, remaining),
                        m,
                        exactly=True,
                        note=f"{short.games_article}: {short.min_games} games, the round "
                        "without a counted game a forfeit win or a pairing-allocated bye",
                    )
                )
        return routes

    def _short_games(
        self, rank: int, counted: list[NormGame], remaining: Sequence[Remaining]
    ) -> int | None:
        """1.4.1c (2024): whether the norm can still come from 8 counted games of a 9-round
        event, the ninth round a forfeit win or a pairing-allocated bye, and how many of the
        remaining games must then count: every round so far must be a counted game, but for
        at most one such round; if none was, one remaining round must be."""
        short = self.rules.short_norm(self.tournament)
        planned = self.tournament.planned_rounds
        if short is None or planned is None:
            return None
        played = {g.round for g in counted}
        missing = [r for r in range(1, self.up_to + 1) if r not in played]
        if len(missing) > 1:
            return None
        if missing:
            cell = next((c for c in self.cells.get(rank, ()) if c.round == missing[0]), None)
            if cell is None or not self.rules.short_norm_allows(cell.code, self.tournament):
                return None
        m = short[0] - len(counted)
        rounds_left = planned - self.up_to
        if m < 0 or m + (0 if missing else 1) != rounds_left:
            return None
        if self.round_robin and (
            m > sum(1 for r in remaining if r.counts) or m + (not missing) > len(remaining)
        ):
            return None
        return m

    def _kept_and_won(self, rank: int, title: Title, spec: Requirements) -> bool:
        """Round robin: whether the whole record, every remaining game won and nothing left
        out, gives the norm."""
        if (rank, title) not in self._kept:
            self._kept[(rank, title)] = gives_norm(self._won_games(rank), spec)
        return self._kept[(rank, title)]

    def _wins_all(self, rank: int, title: Title) -> bool:
        """Round robin: whether winning every remaining game gives the norm (the norm search
        on that record). A better result never hurts (a kept game's points only help, a game
        left out may be anything), so this decides whether any results can. The order is
        free, so the games after the norm that 1.42f lets go can be any of them, which 1.42e
        allows for wins anyway."""
        if (rank, title) not in self._wins:
            self._wins[(rank, title)] = any(
                norm_exists(self.state.players[rank], cells, title, self.ctx, self.rules)
                for cells in self._won_records(rank, title)
            )
        return self._wins[(rank, title)]

    def _won_records(self, rank: int, title: Title) -> Iterator[list[Cell]]:
        """Round robin: the records with every remaining game won, first all of them over
        the board, then with some of them forfeit wins (not counted) where that can give
        what leaving the won game out cannot: 1.4.1c's 8 games (a forfeit win in a 9-round
        event), and 1.4.1f, which lets wins be left out only when the complete record
        meets the mix (a forfeited game is not in the record). Elsewhere a forfeit win
        does for a norm what a won game left out does (1.42e)."""
        so_far = list(self.cells.get(rank, []))
        remaining = self._remaining(rank)

        def record(forfeits: Collection[int]) -> list[Cell]:
            return so_far + [
                Cell(n, r.opponent.rank, Code.FORFEIT_WIN if i in forfeits else Code.WIN)
                for i, (n, r) in enumerate(enumerate(remaining, self.up_to + 1))
            ]

        yield record(())
        spec = self._spec(rank, title)
        won = self._won_games(rank)
        spare = 0  # 1.4.1f: games the record can spare beyond the minimum, each a forfeit
        if self.rules.wins_need_complete_mix(self.tournament) and not complete_mix_holds(won, spec):
            spare = len(won) - spec.min_games
        short = self._short_games(rank, self._counted(rank), remaining) is not None
        for k in range(1, min(max(spare, short), len(remaining)) + 1):
            for forfeits in itertools.combinations(range(len(remaining)), k):
                rounds = {self.up_to + 1 + i for i in forfeits}
                if (short and k == 1) or (
                    k <= spare
                    and complete_mix_holds([g for g in won if g.round not in rounds], spec)
                ):
                    yield record(forfeits)

    def _won_games(self, rank: int) -> list[NormGame]:
        """Round robin: the games that count for norms (the same for every title) with every
        remaining game won: the games so far and the remaining games that count (1.42a/b/d
        depend on the opponent alone), as :func:`norm_games` would list them."""
        if rank not in self._won:
            rating = self.rules.opponent_rating
            self._won[rank] = [
                *self._counted(rank),
                *(
                    NormGame(n, r.opponent, Code.WIN, rating(r.opponent))
                    for n, r in enumerate(self._remaining(rank), self.up_to + 1)
                    if r.counts
                ),
            ]
        return self._won[rank]

    def _spec(self, rank: int, title: Title) -> Requirements:
        """The requirements, kept so that their mix rules are made once."""
        spec = self._specs.get((rank, title))
        if spec is None:
            player = self.state.players[rank]
            spec = self._specs[(rank, title)] = requirements(title, player, self.ctx, self.rules)
        return spec

    def _counted(self, rank: int) -> list[NormGame]:
        if rank not in self._games:
            player = self.state.players[rank]
            cells = self.cells.get(rank, [])
            self._games[rank] = norm_games(player, cells, self.ctx, self.rules)[0]
        return self._games[rank]

    def _summary(self, rank: int) -> _Have:
        if rank not in self._have:
            games = self._counted(rank)
            wins = (
                [g.opponent for g in games if g.won]
                if self.rules.may_ignore_wins(self.tournament)
                else []
            )
            opponents = [g.opponent for g in games]
            self._have[rank] = _Have(
                Counter(p.title for p in opponents if p.title is not None),
                Counter(p.federation_key for p in opponents),
                sum(1 for p in opponents if p.rating is None),
                Counter(p.federation_key for p in wins),
                sum(1 for p in wins if p.rating is None),
            )
        return self._have[rank]

    def _met(self, rank: int, over_the_board: bool) -> Counter[int]:
        return Counter(
            c.opponent
            for c in self.cells.get(rank, [])
            if c.opponent is not None and (c.code.over_the_board or not over_the_board)
        )

    def _pool(self, rank: int, remaining: Sequence[Remaining]) -> _Pool:
        if rank not in self._pools:
            self._pools[rank] = self._new_pool(rank, remaining)
        return self._pools[rank]

    def _new_pool(self, rank: int, remaining: Sequence[Remaining]) -> _Pool:
        if self.round_robin:
            players = [r.opponent for r in remaining if r.counts]
            ratings = sorted((self.rules.opponent_rating(p) for p in players), reverse=True)
            return _Pool(
                len(players),
                tuple(ratings),
                Counter(p.title for p in players),
                Counter(p.federation_key for p in players),
                sum(1 for p in players if p.rating is None),
            )
        # Swiss: everyone not met over the board (no pairing repeats a game, C.04.1)
        gone = {rank, *self._met(rank, over_the_board=True)}
        most = self.games_left_swiss
        if most is None:  # the most :meth:`_swiss_left` can give (the minimum is the same)
            most = max(HORIZON - self.up_to, self.rules.min_games(self.tournament)[0], 1)
        best: list[int] = []
        for rating, other in self.field:
            if len(best) == most:
                break
            if other not in gone:
                best.append(rating)
        titles, federations = self.titles.copy(), self.federations.copy()
        for other in gone:
            p = self.state.players[other]
            titles[p.title] -= 1
            federations[p.federation_key] -= 1
        return _Pool(
            len(self.state.players) - len(gone),
            tuple(best),
            titles,
            federations,
            self.unrated - sum(1 for r in gone if self.state.players[r].rating is None),
        )

    def _remaining(self, rank: int) -> tuple[Remaining, ...]:
        """Round robin: each opponent as many times as the cycles leave, by start rank."""
        if rank not in self._left:
            self._left[rank] = self._new_remaining(rank)
        return self._left[rank]

    def _new_remaining(self, rank: int) -> tuple[Remaining, ...]:
        met, cycles = self._met(rank, over_the_board=False), self.cycles
        return tuple(
            game
            for game in self._opponents()
            if game.opponent.rank != rank
            for _ in range(cycles - met[game.opponent.rank])
        )

    def _opponents(self) -> list[Remaining]:
        """Round robin: a game against each player, by start rank, and whether it counts
        (1.42a/b/d depend on the opponent alone)."""
        if self._everyone is None:
            self._everyone = [
                Remaining(
                    opponent,
                    self.rules.exclusion(
                        opponent, Code.DRAW, self.tournament, other in self.ctx.unrated_scored_zero
                    )
                    is None,
                )
                for other, opponent in sorted(self.state.players.items())
            ]
        return self._everyone


def outlook(state: TournamentState, up_to: int) -> Outlook:
    return Outlook(state, up_to)


# ----------------------------------------------------------------------------- the bound


class _Relaxed:
    """Necessary conditions over every record the remaining games could make: the rating
    requirement exactly, each mix rule against the best the pool could give.

    A record counts the games so far but ``d`` won ones (1.42e, the lowest rated for the
    rating, any for each mix rule) and ``m`` remaining games: ``m`` may be anything up to
    the games left, since a remaining round may bring no counted game (a bye, a forfeit, a
    game left out as a win or cut under 1.42f), and the record must keep the minimum
    number of games, so ``d`` is fixed by ``m`` and the number of games. With ``exactly``,
    ``m`` is ``left`` and no win is left out (1.4.1c: exactly 8 games)."""

    def __init__(
        self,
        outlook: Outlook,
        spec: Requirements,
        counted: Sequence[NormGame],
        have: _Have,
        pool: _Pool,
        left: int,
        exactly: bool = False,
        note: str = "",
    ) -> None:
        self.o = outlook
        self.spec = spec
        self.counted = counted
        self.have = have
        self.pool = pool
        self.exactly = exactly
        self.note = note
        rules, t = outlook.rules, outlook.tournament
        self.drop_wins = rules.may_ignore_wins(t) and not exactly
        self._ordered = sorted(counted, key=lambda g: g.rating)
        self._wins = [g for g in self._ordered if g.won] if self.drop_wins else []
        self._drops: list[tuple[int, int, int]] = []
        self._kept_sum = sum(g.rating for g in self._ordered)
        self.left = min(left, pool.size)
        clamped = [max(r, spec.floor) for r in pool.ratings[: self.left]]
        self.best = list(itertools.accumulate(clamped, initial=0))
        self.games_ok = False
        self.rating_ok = False
        self._failed_mix: tuple[int, int] | None = None
        """The last (games, remaining games) whose mix failed, for :meth:`why_not`."""
        self._mix: dict[tuple[int, int], bool] = {}
        self._possible: bool | None = None

    def drops(self) -> Iterator[tuple[int, int, int]]:
        """(games, half points, floor-adjusted rating sum) of the games so far after
        dropping the d lowest-rated wins, for d = 0, 1, …, each worked out once when first
        asked for."""
        ordered, spec = self._ordered, self.spec
        for d in range(len(self._wins) + 1):
            if d == len(self._drops):
                if d:
                    self._kept_sum -= self._wins[d - 1].rating
                # the kept games' lowest ratings: the ordered ones but the d lowest wins
                lowest = list(itertools.islice(_without_wins(ordered, d), spec.raise_count))
                half = sum(g.half_points for g in ordered) - 2 * d
                adjusted = floor_adjusted(lowest, spec) - sum(lowest) + self._kept_sum
                self._drops.append((len(ordered) - d, half, adjusted))
            yield self._drops[d]

    def _counts(self) -> range:
        return range(self.left, self.left + 1) if self.exactly else range(self.left + 1)

    def _needed_sum(self, m: int, drop: tuple[int, int, int], h: int) -> int | None:
        """The least sum of the ``m`` counted remaining opponents' ratings (as counted) that
        gives the norm with ``h`` half points from them, ``None`` if no sum does."""
        n_c, h_c, adj_c = drop
        n = n_c + m
        if n == 0 or n < self.spec.min_games:
            return None
        self.games_ok = True
        total = self.o.least_sum(self.spec, h_c + h, n)
        if total is None:
            return None
        x = total - adj_c
        if x > self.best[m]:
            return None
        self.rating_ok = True
        if not self._mix_ok(n, m):
            return None
        return x

    def possible(self) -> bool:
        """Whether some number of counted games and some score pass every bound (the best
        score is the easiest, and the mix does not depend on the score)."""
        if self._possible is None:
            self._possible = any(
                self._needed_sum(m, drop, 2 * m) is not None
                for m in reversed(self._counts())
                for drop in self.drops()
            )
        return self._possible

    def rows(self) -> dict[tuple[int, int], int]:
        """``(m, h) -> X``: with ``h`` half points from ``m`` counted remaining games, their
        opponents' ratings (as counted) must sum to at least ``X``."""
        rows: dict[tuple[int, int], int] = {}
        least_sum, spec = self.o.least_sum, self.spec
        for m in self._counts():
            best = self.best[m]
            for n_c, h_c, adj_c in self.drops():
                # :meth:`_needed_sum` for every score, fewest points last
                n = n_c + m
                if n == 0 or n < spec.min_games:
                    continue
                for h in range(2 * m, -1, -1):
                    total = least_sum(spec, h_c + h, n)
                    if total is None or total - adj_c > best:
                        break  # fewer points only raise the requirement
                    self.rating_ok = True
                    if not self._mix_ok(n, m):
                        break  # the same mix for every score
                    x = total - adj_c
                    known = rows.get((m, h))
                    if known is None or x < known:
                        rows[(m, h)] = x
        return rows

    def _mix_ok(self, n: int, m: int) -> bool:
        if (n, m) not in self._mix:
            self._mix[(n, m)] = ok = next(self._mix_failures(n, m), None) is None
            if not ok:
                self._failed_mix = (n, m)
        return self._mix[(n, m)]

    def _mix_failures(self, n: int, m: int) -> Iterator[str]:
        """Each mix rule that fails for a record of ``n`` games, ``m`` of them still to play
        (so ``len(counted) + m - n`` wins so far left out): at-least rules with the most the
        games so far and the pool could add, at-most rules with the fewest the games kept
        and the pool must bring, the wins left out being any of those of the kind. Lazily,
        so that a pass or fail need not describe every rule."""
        o, spec, pool, have = self.o, self.spec, self.pool, self.have
        double = o.tournament.system is System.DOUBLE_ROUND_ROBIN
        rule = spec.mix(n, (n + 1) // 2 if double else n)
        own = spec.player.federation_key
        holders = rule.title_holder_titles
        holders_have = sum(c for t, c in have.titles.items() if t in holders)
        holders_pool = sum(c for t, c in pool.titles.items() if t in holders)
        if holders_have + min(m, holders_pool) < rule.min_title_holders:
            yield f"{rule.title_holder_article} title-holders"
        weighted = o.weighted(spec.player.rank, rule.mo)
        if not _mo_reachable(rule, have.titles, pool.titles, m, weighted):
            yield f"{rule.mo_article} {spec.title.value} title mix"
        foreign, new_feds = o.foreign_federations(spec.player.rank)
        if foreign + min(m, new_feds) < rule.min_foreign_federations:
            yield f"{rule.foreign_article} foreign federations"
        if rule.min_other_federations is not None:
            other = len(self.counted) - have.federations[own]
            if other + min(m, pool.size - pool.federations[own]) < rule.min_other_federations:
                yield f"{rule.other_article} opponents from other federations"

        # the record leaves out exactly this many wins so far (1.42e): it has n games
        dropped = len(self.counted) + m - n

        def fewest(have_n: int, droppable_n: int, pool_n: int) -> int:
            return max(0, have_n - min(dropped, droppable_n)) + max(0, m - (pool.size - pool_n))

        def of_fed(fed: str) -> int:
            return fewest(
                have.federations[fed], have.droppable_federations[fed], pool.federations[fed]
            )

        if rule.max_own_federation is not None and of_fed(own) > rule.max_own_federation:
            yield f"{rule.caps_article} opponents from {own}"
        if rule.max_one_federation is not None:
            cap = rule.max_one_federation
            if any(of_fed(f) > cap for f in have.federations):
                yield f"{rule.caps_article} opponents from one federation"
        if rule.max_unrated is not None:
            slack = spec.raise_count if o.rules.raised_unrated_counts_as_rated else 0
            unrated = fewest(have.unrated, have.droppable_unrated, pool.unrated)
            if unrated - slack > rule.max_unrated:
                yield f"{rule.unrated_article} unrated opponents"

    def why_not(self) -> str:
        if not self.games_ok:
            most = len(self.counted) + self.left
            return (
                f"games: at most {most} games can count, {self.spec.games_article} needs "
                f"{self.spec.min_games}"
            )
        if not self.rating_ok:
            against = (
                "against the remaining opponents"
                if self.o.round_robin
                else "even against the strongest opponents still available"
            )
            return (
                "rating: no score in the remaining games gives the average and performance "
                + against
            )
        assert self._failed_mix is not None
        return "mix: " + ", ".join(self._mix_failures(*self._failed_mix))

    def needs(self) -> tuple[Need, ...]:
        """The rows a reader needs: per number of counted games, each score from the lowest
        possible, as long as more points lower the requirement."""
        rows = self.rows()
        scores: dict[int, list[int]] = {}
        for m, h in rows:
            scores.setdefault(m, []).append(h)
        out: list[Need] = []
        for m in sorted(scores, reverse=True):
            if m == 0:
                continue  # a norm from the games so far alone is :attr:`Status.SECURED`
            previous = None
            best = _avg(self.best[m], m)
            for h in sorted(scores[m]):
                average = _avg(rows[(m, h)], m)
                if previous is not None and average >= previous:
                    continue
                previous = average
                out.append(Need(m, self.o.score(h), average, best, self.note))
        return tuple(out)


def _rating_may_do(main: _Relaxed, m: int) -> bool:
    """Whether a record of the games so far, every one kept, and ``m`` remaining games all
    won against the strongest players of the pool reaches the rating requirement (1.48,
    1.48a): the first test 1.4.1c's route (:meth:`_Relaxed.possible`, no win left out)
    makes, here from the main route's sums."""
    if m > main.left:
        return False
    games, half, adjusted = next(main.drops())
    total = main.o.least_sum(main.spec, half + 2 * m, games + m)
    return total is not None and total - adjusted <= main.best[m]


def _needs(routes: Sequence[_Relaxed]) -> tuple[Need, ...]:
    """The rows of every route that is possible, by number of games (most first) and
    score; where two routes give a row for the same games and score, the lower average
    (the first route's on a tie)."""
    possible = [route for route in routes if route.possible()]
    if len(possible) == 1:
        return possible[0].needs()  # the common case: nothing to merge
    rows: dict[tuple[int, int], Need] = {}  # by games and score in half points
    for route in possible:
        for need in route.needs():
            key = (-need.games, 2 * need.score.numerator // need.score.denominator)
            known = rows.get(key)
            if known is None or need.average < known.average:
                rows[key] = need
    return tuple(rows[key] for key in sorted(rows))


def _why_not(routes: Sequence[_Relaxed]) -> str:
    """Why no route can give the norm, each reason once: the main route's, then each other
    route's (named by its article) where it differs; where they are the same, the main
    reason says that it holds for the other route too.

    The 2024 Swiss with 1.4.1c's route failing for the main route's reason said it twice
    (``rating: …; 1.4.1c: rating: …``); it now reads ``rating: … (1.4.1c's route too)``.
    """
    first, *others = routes
    main = first.why_not()
    same = [r.note.split(":")[0] for r in others if r.why_not() == main]
    told = [f"{r.note.split(':')[0]}: {r.why_not()}" for r in others if r.why_not() != main]
    if same:
        main += f" ({', '.join(same)}'s route too)"
    return "; ".join([main, *told])


def _without_wins(ordered: Sequence[NormGame], drop: int) -> Iterator[int]:
    """The ratings of ``ordered`` but its first ``drop`` won games, in order."""
    for g in ordered:
        if drop and g.won:
            drop -= 1
            continue
        yield g.rating


def _avg(total: int, games: int) -> int:
    """An average as 1.47b rounds it (the smallest sum reaching it is :func:`least_total`)."""
    return (2 * total + games) // (2 * games)


def _mo_reachable(
    rule: MixRule,
    titles: Counter[Title],
    pool: Counter[Title | None],
    m: int,
    weighted: _Weighted | None,
) -> bool:
    """Whether the title mix (1.45b–e, or the older fixed combinations) can be reached with
    ``m`` more opponents from the pool; ``weighted``: a weighted mix's values for the
    player (:meth:`Outlook.weighted`)."""
    mo = rule.mo
    if isinstance(mo, WeightedMO):
        assert weighted is not None
        value, gains = weighted
        needed = mo.scaled_needed
        slots = m
        for weight, count in gains:
            if value >= needed or slots == 0 or weight == 0:
                break
            used = min(count, slots)
            value += weight * used
            slots -= used
        return value >= needed
    assert isinstance(mo, ComboMO)

    def short(wanted: frozenset[Title], count: int) -> int | None:
        more = max(0, count - sum(c for t, c in titles.items() if t in wanted))
        return more if more <= sum(c for t, c in pool.items() if t in wanted) else None

    for wanted, count in mo.alternatives:
        more = short(wanted, count)
        if more is not None and more <= m:
            return True
    for group in mo.all_of:
        shorts = [short(w, c) for w, c in group]
        if all(s is not None for s in shorts) and sum(s or 0 for s in shorts) <= m:
            return True
    return False


# ----------------------------------------------------------------------------- round robin


@dataclasses.dataclass(frozen=True, slots=True)
class _Plan:
    """One way the remaining games can make a norm: ``kept`` count (their points at least
    ``kept_half``), ``wins`` must be won and are left out (1.42e), ``free`` are left out
    whatever the result (after the norm under 1.42f, or not counting at all)."""

    kept: tuple[int, ...]
    kept_half: int
    wins: tuple[int, ...]
    free: tuple[int, ...]

    @property
    def least(self) -> int:
        return self.kept_half + 2 * len(self.wins)


class _Exact:
    def __init__(
        self,
        outlook: Outlook,
        spec: Requirements,
        player: Player,
        title: Title,
        counted: Sequence[NormGame],
        remaining: Sequence[Remaining],
    ) -> None:
        rules, t = outlook.rules, outlook.tournament
        self.spec = spec
        self.after_cut = requirements(title, player, outlook.ctx, rules, after_cut=True)
        self.counted = list(counted)
        self.remaining = list(remaining)
        self.cut = rules.may_ignore_after_norm(t)
        self.drop_wins = rules.may_ignore_wins(t)
        self.futures = [
            (i, NormGame(0, r.opponent, Code.DRAW, rules.opponent_rating(r.opponent)))
            for i, r in enumerate(remaining)
            if r.counts
        ]
        self._bounds: dict[tuple[int, int, int], int | None] = {}

    def _current_choices(self) -> Iterator[tuple[list[NormGame], int]]:
        """The games so far that may be kept: all but any set of wins (1.42e)."""
        wins = [g for g in self.counted if g.won] if self.drop_wins else []
        for k in range(len(wins) + 1):
            for dropped in itertools.combinations(wins, k):
                ids = {id(g) for g in dropped}
                kept = [g for g in self.counted if id(g) not in ids]
                yield kept, sum(g.half_points for g in kept)

    def _future_choices(
        self,
    ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]]:
        """(kept, must be won and left out, left out whatever the result, after a cut) for
        the remaining games, the kept ones played first: the rest are wins left out (1.42e)
        or, when the edition allows it, games after the norm (1.42f)."""
        idx = [i for i, _ in self.futures]
        excluded = tuple(i for i in range(len(self.remaining)) if i not in set(idx))
        for size in range(len(idx), -1, -1):
            for kept in itertools.combinations(idx, size):
                rest = tuple(i for i in idx if i not in kept)
                if not rest or self.drop_wins:
                    yield kept, rest, excluded, False
                if rest and self.cut:
                    yield kept, (), rest + excluded, True

    def subsets(self) -> int:
        wins = sum(1 for g in self.counted if g.won) if self.drop_wins else 0
        return 1 << (wins + len(self.futures))

    def least(self) -> _Plan | None:
        """The plan with the fewest points from the remaining games."""
        best: _Plan | None = None
        games = dict(self.futures)
        low = self.spec.raise_count  # the most ratings the floor raises (1.46c)
        currents = [
            (current, half, len(current), sum(ratings), ratings[:low])
            for current, half in self._current_choices()
            for ratings in [sorted(g.rating for g in current)]
        ]
        for kept, wins, free, cut in self._future_choices():
            if len(self.counted) + len(kept) < self.spec.min_games:
                break  # too few games even with every game so far kept, and fewer to come
            if best is not None and 2 * len(wins) >= best.least:
                continue
            spec = self.after_cut if cut else self.spec
            future = [games[i] for i in kept]
            ratings = sorted(g.rating for g in future)
            future_sum, future_low = sum(ratings), ratings[:low]
            for current, current_half, count, total, lowest in currents:
                if count + len(future) < spec.min_games:
                    break  # the later choices leave out more games so far
                kept_games = [*current, *future]
                # the rating alone first: the mix is dearer and only matters if it could win
                bound = self._rating_bound(
                    spec, count + len(future), total + future_sum, sorted(lowest + future_low)
                )
                if bound is None or bound - current_half > 2 * len(kept):
                    continue
                if best is not None and max(0, bound - current_half) + 2 * len(wins) >= (
                    best.least
                ):
                    continue
                least = least_half_points(kept_games, spec)
                if least is None:
                    continue
                plan = _Plan(kept, max(0, least - current_half), wins, free)
                if plan.kept_half > 2 * len(kept):
                    continue
                if best is None or plan.least < best.least:
                    best = plan
        return best

    def _rating_bound(
        self, spec: Requirements, games: int, total: int, lowest: list[int]
    ) -> int | None:
        """``least_half_points(kept, spec, mix=False)`` from the kept games' number, rating
        sum and lowest ratings (ascending, as many as the floor may raise)."""
        if games < spec.min_games:
            return None
        adjusted = floor_adjusted(lowest, spec) - sum(lowest) + total
        key = (spec.min_games, games, adjusted)
        if key not in self._bounds:
            ra = _avg(adjusted, games)
            self._bounds[key] = (
                None
                if ra < spec.avg_min
                else next(
                    (
                        half
                        for half in range(2 * games + 1)
                        if (need := needed_average(half, games, spec)) is not None and ra >= need
                    ),
                    None,
                )
            )
        return self._bounds[key]

    def ways(self, plan: _Plan) -> tuple[Way, ...]:
        """Every score from the plan's lowest up, each with results that give the norm:
        the counted games' points go to the lowest-rated opponents first."""
        out = []
        total = 2 * len(self.remaining)
        kept, free = self._lowest_first(plan.kept), self._lowest_first(plan.free)
        for score in range(plan.least, total + 1):
            results = [Code.LOSS] * len(self.remaining)
            for i in plan.wins:
                results[i] = Code.WIN
            rest = score - 2 * len(plan.wins)
            kept_half = max(plan.kept_half, rest - 2 * len(plan.free))
            _spread(results, kept, kept_half)
            _spread(results, free, rest - kept_half)
            out.append(Way(Fraction(score, 2), tuple(results)))
        return tuple(out)

    def _lowest_first(self, games: Sequence[int]) -> list[int]:
        return sorted(games, key=lambda i: (self.remaining[i].opponent.rating or 0, i))


def _spread(results: list[Code], ordered: Sequence[int], half: int) -> None:
    """``half`` points over the games ``ordered``, a win each while they last."""
    for i in ordered:
        points = min(2, half)
        results[i] = (Code.LOSS, Code.DRAW, Code.WIN)[points]
        half -= points


__all__ = [
    "Need",
    "Outlook",
    "Prospect",
    "Remaining",
    "Status",
    "Way",
    "outlook",
    "swiss_assumption",
]
