"""Norm prospects: after a round, what the remaining rounds must bring for a player to make a
norm they lack, and whether any result still can.

* **Round robins** (single or double): the remaining opponents are known (everyone not yet met
  as often as the cycles allow), so the prospect is exact. A norm's record is the games so far
  and a subset of the remaining ones: a remaining game is counted, left out as a win (1.42e),
  or left out as a game after the norm (1.42f, a tail of rounds, when the edition allows it).
  Whether a set of counted games gives the norm depends on their results only through the
  score, so for each set the fewest points it needs (:func:`tracker.norms.least_half_points`)
  decides which final scores in the remaining games can give the norm. Those scores are
  always every score from the lowest one up (a better result never hurts). The round order
  of the remaining games matters only for 1.42f; the prospect allows any order (the answer
  is "some order and these results give the norm"). Pairings of later rounds that arrived
  early are not used, so that the alerts do not depend on when facts arrive.
  Whether the norm is possible at all is decided by the norm search on the record with every
  remaining game won. The list of scores tries every set of counted games, so it is exact only
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
out of reach only when no score in no number of counted remaining games passes all of that.

The 1.42d status of unrated round-robin opponents (zero against rated players) is taken as it
stands after the round; remaining games are assumed to be played over the board.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from tracker.editions import TitleRules
from tracker.editions.mix import MO, ComboMO, MixRule, WeightedMO
from tracker.evaluation import context
from tracker.event_flags import swiss_exemption_possible
from tracker.norms import (
    Cell,
    Check,
    Context,
    NormGame,
    Requirements,
    floor_adjusted,
    gives_norm,
    least_half_points,
    least_total,
    needed_average,
    norm_exists,
    norm_games,
    open_checks,
    requirements,
)
from tracker.players import Player
from tracker.results import Code
from tracker.state import TournamentState
from tracker.titles import Title
from tracker.tournaments import System


def swiss_assumption(rules: TitleRules) -> str:
    """What a Swiss prospect assumes of the remaining opponents, with the edition's article
    for the floor (1.46c of 2009, 1.4.6b of 2024)."""
    return (
        "remaining opponents at best the highest-rated players not yet met over the board, "
        f"each counted at least at the {rules.articles['floor']} floor"
    )


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
    games_left: int
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
        (:func:`tracker.evaluation.context` of them) when the caller has them already."""
        self.state = state
        self.up_to = up_to
        t = state.tournament
        self.tournament = t
        self.rules = state.title_rules
        self.cells = state.all_cells(up_to) if cells is None else cells
        self.ctx = context(state, up_to, self.cells) if ctx is None else ctx
        self.round_robin = t.system.predetermined
        self.cycles = 2 if t.system is System.DOUBLE_ROUND_ROBIN else 1
        self.games_left_swiss = max(0, t.planned_rounds - up_to)
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
        self._bounds: dict[Key, _Relaxed] = {}
        self._specs: dict[Key, Requirements] = {}
        self._wins: dict[Key, bool] = {}
        self._kept: dict[Key, bool] = {}
        self._weighted: dict[tuple[int, int], tuple[Mapping[Title, Fraction], _Weighted]] = {}
        self._scores: dict[int, Fraction] = {}
        self._foreign: dict[int, tuple[int, int]] = {}
        self._sums: dict[tuple[Title, int, int], int | None] = {}
        self._won: dict[int, list[NormGame]] = {}

    # ------------------------------------------------------------------ public

    def all(self, secured: Collection[Key]) -> dict[Key, Prospect]:
        """Every (player, title) the norm evaluation considers, without the details (which
        :meth:`prospect` gives)."""
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
            games = len(counted) + min(left, self._pool(rank, remaining).size)
            opponents = len(distinct) if self.round_robin else games
            shown["remaining"] = remaining
            shown["open"] = tuple(open_checks(counted, spec, games, opponents))
        if left == 0:
            return make(reason="no games left")
        # round robin: winning every remaining game decides (:meth:`_wins_all`); the whole
        # record so, which the norm search would try first, is cheap to try, and when it
        # gives the norm, the bound (a necessary condition) cannot rule it out
        if not (self.round_robin and self._kept_and_won(rank, title, spec)):
            relaxed = self._relaxed(rank, spec, counted, remaining)
            if not relaxed.possible():
                return make(reason=relaxed.why_not())
            if not self.round_robin:
                return make(Status.POSSIBLE, needs=relaxed.needs() if detail else ())
            if not self._wins_all(rank, title):
                return make(reason="no results against the remaining opponents give the norm")
        if not detail:
            return make(Status.POSSIBLE)
        exact = _Exact(self, spec, player, title, counted, remaining)
        found = exact.least() if exact.subsets() <= EXACT_SUBSETS else None
        if found is not None:
            return make(Status.POSSIBLE, exact=True, ways=exact.ways(found))
        # too many sets of counted games to try: the scores the bound does not rule out
        needs = self._relaxed(rank, spec, counted, remaining).needs()
        low = min(int(n.score * 2) for n in needs) if needs else 0
        ways = tuple(Way(Fraction(h, 2), ()) for h in range(low, 2 * left + 1))
        return make(Status.POSSIBLE, ways=ways, needs=needs)

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
            new_feds = {f for f, c in pool.federations.items() if c > 0 and is_foreign(f, own)}
            self._foreign[rank] = (len(foreign), len(new_feds - foreign))
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

    def _relaxed(
        self, rank: int, spec: Requirements, counted: list[NormGame], remaining: Sequence[Remaining]
    ) -> _Relaxed:
        relaxed = self._bounds.get((rank, spec.title))
        if relaxed is None:
            pool = self._pool(rank, remaining)
            left = len(remaining) if self.round_robin else self.games_left_swiss
            relaxed = _Relaxed(self, spec, counted, self._summary(rank), pool, left)
            self._bounds[(rank, spec.title)] = relaxed
        return relaxed

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
            cells = list(self.cells.get(rank, []))
            cells += [
                Cell(n, r.opponent.rank, Code.WIN)
                for n, r in enumerate(self._remaining(rank), self.up_to + 1)
            ]
            player = self.state.players[rank]
            self._wins[(rank, title)] = norm_exists(player, cells, title, self.ctx, self.rules)
        return self._wins[(rank, title)]

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
        best: list[int] = []
        for rating, other in self.field:
            if len(best) == self.games_left_swiss:
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
    requirement exactly, each mix rule against the best the pool could give."""

    def __init__(
        self,
        outlook: Outlook,
        spec: Requirements,
        counted: Sequence[NormGame],
        have: _Have,
        pool: _Pool,
        left: int,
    ) -> None:
        self.o = outlook
        self.spec = spec
        self.counted = counted
        self.have = have
        self.pool = pool
        self.left = min(left, pool.size)
        rules, t = outlook.rules, outlook.tournament
        self.cut = rules.may_ignore_after_norm(t)
        self.drop_wins = rules.may_ignore_wins(t)
        floor = spec.floor
        clamped = [max(r, floor) for r in pool.ratings[: self.left]]
        self.best = list(itertools.accumulate(clamped, initial=0))
        self._ordered = sorted(counted, key=lambda g: g.rating)
        self._wins = [g for g in self._ordered if g.won] if self.drop_wins else []
        self._drops: list[tuple[int, int, int]] = []
        self._kept_sum = sum(g.rating for g in self._ordered)
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

    def _min_games(self, m: int) -> int:
        if m == self.left or self.drop_wins:
            return self.spec.min_games
        return max(self.spec.min_games, self.o.rules.min_games_after_cut(self.o.tournament))

    def _counts(self) -> range:
        return (
            range(self.left + 1) if self.cut or self.drop_wins else range(self.left, self.left + 1)
        )

    def _needed_sum(self, m: int, drop: tuple[int, int, int], h: int) -> int | None:
        """The least sum of the ``m`` counted remaining opponents' ratings (as counted) that
        gives the norm with ``h`` half points from them, ``None`` if no sum does."""
        n_c, h_c, adj_c = drop
        n = n_c + m
        if n == 0 or n < self._min_games(m):
            return None
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
                if n == 0 or n < self._min_games(m):
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
        """Each mix rule that fails for a record of ``n`` games, ``m`` of them still to play:
        at-least rules with the most the pool could add, at-most rules with the fewest it
        must. Lazily, so that a pass or fail need not describe every rule."""
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

        def fewest(have_n: int, droppable_n: int, pool_n: int) -> int:
            return max(0, have_n - droppable_n) + max(0, m - (pool.size - pool_n))

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
                out.append(Need(m, self.o.score(h), average, best))
        return tuple(out)


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
