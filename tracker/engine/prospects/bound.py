"""The Swiss bound (:class:`Relaxed`): necessary conditions over every record the remaining
games could make, the rating requirement exactly and each mix rule against the best the
pool of opponents could give; and the table of needs it gives a reader."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from tracker.domain.titles import Title
from tracker.domain.tournaments import System
from tracker.engine.prospects.opponents import Have, Pool, Record, Weighted
from tracker.engine.prospects.values import Need, Row
from tracker.norms.search import (
    NormGame,
    Requirements,
    floor_adjusted,
    least_total,
    needed_average,
)
from tracker.rules.mix import ComboMO, MixRule, WeightedMO

if TYPE_CHECKING:
    from tracker.engine.prospects.outlook import Outlook


class Relaxed:
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
        have: Have,
        pool: Pool,
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
        o = outlook.opponents
        rank = spec.player.rank
        self._record = o.record(rank)
        self._wins = () if exactly else self._record.wins
        self._drops: list[tuple[int, int, int]] | None = None
        self.left = min(left, pool.size)
        self.best = o.best(rank, spec.floor)
        """``best[m]`` for ``m`` up to :attr:`left` (:meth:`Opponents.best`)."""
        self.games_ok = False
        self.rating_ok = False
        self.lasting = True
        """Whether every record failed for a reason later rounds keep (so far): too few
        games, the rating, or an at-least rule of the mix even with every game left
        counted (:meth:`_short_for_good`). Not an at-most rule, nor an at-least rule with
        fewer games left counted: a game so far counts for the at-least rules and may be
        left out for the at-most ones, which no single record of the round before does."""
        self._for_good: dict[int, bool] = {}
        self._failed_mix: tuple[int, int] | None = None
        """The last (games, remaining games) whose mix failed, for :meth:`why_not`."""
        self._mix: dict[tuple[int, int], bool] = {}
        self._possible: bool | None = None

    def drops(self) -> list[tuple[int, int, int]]:
        """The records of the games so far the bound tries (:func:`record_drops`), worked
        out once."""
        if self._drops is None:
            self._drops = list(record_drops(self._record, self._wins, self.spec))
        return self._drops

    def _counts(self) -> range:
        return range(self.left, self.left + 1) if self.exactly else range(self.left + 1)

    def possible(self) -> bool:
        """Whether some number of counted games and some score pass every bound (the best
        score is the easiest, and the mix does not depend on the score)."""
        if self._possible is None:
            self._possible = self._first_pass()
        return self._possible

    def _first_pass(self) -> bool:
        """:meth:`possible`: for each number ``m`` of counted remaining games (most first)
        and each record of the games so far (fewest wins left out first), until one
        passes: the number of games, then the least sum of the ``m`` opponents' ratings that
        gives the norm with every game won against what the pool's ``m`` strongest give,
        then the mix. Written out as loops: this runs for every pair the cheap tests of
        :mod:`.quick` leave to the bound."""
        drops = self.drops()
        least_sum, spec, best = self.o.least_sum, self.spec, self.best
        fewest = max(1, spec.min_games)
        for m in reversed(self._counts()):
            best_m = best[m]
            for games, half, adjusted in drops:
                n = games + m
                if n < fewest:
                    break  # each later record leaves out one more game
                self.games_ok = True
                total = least_sum(spec, half + 2 * m, n)
                if total is None or total - adjusted > best_m:
                    continue
                self.rating_ok = True
                if self._mix_ok(n, m):
                    return True
                if self.lasting and not self._short_for_good(n):
                    self.lasting = False
        return False

    def _mix_ok(self, n: int, m: int) -> bool:
        """Whether every mix rule passes for the records of ``n`` games, ``m`` of them still
        to play; in a Swiss, first by the answer the cheap tests share for every player with
        as many games (:meth:`.quick.FieldBound.mix_surely`), which passes only where this
        count passes too (``tests/unit/test_quick_bound.py``)."""
        known = self._mix.get((n, m))
        if known is None:
            quick = self.o.quick
            if quick is not None and quick.mix_surely(self.spec, len(self._record.ordered), n, m):
                known = True
            else:
                known = next(self._mix_failures(n, m), None) is None
                if not known:
                    self._failed_mix = (n, m)
            self._mix[(n, m)] = known
        return known

    def _short_for_good(self, n: int) -> bool:
        """Whether an at-least rule of the mix of ``n`` games fails even with every game
        left counted: a round played later adds at most its game to those so far and takes
        its opponent from the pool and a game from those left, which leaves every
        at-least count where it was or lower, so such a record fails in every later round
        too."""
        if n not in self._for_good:
            self._for_good[n] = next(self._at_least_failures(n, self.left), None) is not None
        return self._for_good[n]

    def _mix_failures(self, n: int, m: int) -> Iterator[str]:
        """Each mix rule that fails for a record of ``n`` games, ``m`` of them still to play
        (so ``len(counted) + m - n`` wins so far left out): at-least rules with the most the
        games so far and the pool could add, at-most rules with the fewest the games kept
        and the pool must bring, the wins left out being any of those of the kind. Lazily,
        so that a pass or fail need not describe every rule."""
        yield from self._at_least_failures(n, m)
        yield from self._at_most_failures(n, m)

    def _rule(self, n: int) -> MixRule:
        double = self.o.tournament.system is System.DOUBLE_ROUND_ROBIN
        return self.spec.mix(n, (n + 1) // 2 if double else n)

    def _at_least_failures(self, n: int, m: int) -> Iterator[str]:
        """:meth:`_mix_failures`' at-least rules."""
        o, spec, pool, have = self.o, self.spec, self.pool, self.have
        rule = self._rule(n)
        own = spec.player.federation_key
        holders_have, holders_pool = o.opponents.holders(spec.player.rank, rule.title_holder_titles)
        if holders_have + min(m, holders_pool) < rule.min_title_holders:
            yield f"{rule.title_holder_article} title-holders"
        weighted = o.opponents.weighted(spec.player.rank, rule.mo)
        if not mo_reachable(rule, have.titles, pool.titles, m, weighted):
            yield f"{rule.mo_article} {spec.title.value} title mix"
        foreign, new_feds = o.opponents.foreign_federations(spec.player.rank)
        if foreign + min(m, new_feds) < rule.min_foreign_federations:
            yield f"{rule.foreign_article} foreign federations"
        if rule.min_other_federations is not None:
            other = len(self.counted) - have.federations.get(own, 0)
            if other + min(m, pool.size - pool.federations.get(own, 0)) < (
                rule.min_other_federations
            ):
                yield f"{rule.other_article} opponents from other federations"

    def _at_most_failures(self, n: int, m: int) -> Iterator[str]:
        """:meth:`_mix_failures`' at-most rules."""
        o, spec, pool, have = self.o, self.spec, self.pool, self.have
        rule = self._rule(n)
        own = spec.player.federation_key
        # the record leaves out exactly this many wins so far (1.42e): it has n games
        dropped = len(self.counted) + m - n

        def fewest(have_n: int, droppable_n: int, pool_n: int) -> int:
            return max(0, have_n - min(dropped, droppable_n)) + max(0, m - (pool.size - pool_n))

        def of_fed(fed: str) -> int:
            return fewest(
                have.federations.get(fed, 0),
                have.droppable_federations.get(fed, 0),
                pool.federations.get(fed, 0),
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
        """The rows a reader needs: per number ``m`` of counted remaining games (most
        first), each score from the lowest possible, as long as more points lower the
        requirement. A row's average is that of the least sum of the ``m`` opponents'
        ratings (as counted) that gives the norm with that score, over every number of
        wins so far left out (:meth:`drops`) whose record passes the mix; ``m`` of 0 is
        no row (a norm from the games so far alone is :attr:`Status.SECURED`).

        In half points and integers throughout, each number of games' rows in a list by
        score, for ``h`` from the lowest score that passes up to ``2m``: fewer points never
        lower the least sum (1.48; :func:`_least_sums` is non-increasing in the score), so
        the scores that pass the rating bound for a record are those from the first that
        does (a bisection) to ``2m``, and the mix of a record does not depend on its score
        (so a record whose mix fails gives no row at all).

        Made once per round for the routes whose rating inputs are the same (round 1 of a
        500-player open: 447 different among 1,058), see :meth:`_rating_key`: another
        route's table is taken when every mix it asked passes here too."""
        key = self._rating_key()
        made = self.o.made.needs
        known = made.get(key)
        if known is not None:
            asked, table = known
            if all(self._mix_ok(n, m) for n, m in asked):
                if asked:
                    self.rating_ok = True
                return table
        asked_now: list[tuple[int, int]] = []
        table, passed = self._needs(asked_now)
        if passed:
            made[key] = (tuple(asked_now), table)
        return table

    def _rating_key(self) -> tuple[object, ...]:
        """Everything :meth:`_needs` reads but the answers of :meth:`_mix_ok`: the least
        sums' key (the minimum score, average and performance, :func:`_least_sums`), the
        minimum number of games, the pool's best sums up to the games left (so the games
        left), the records of the games so far (:meth:`drops`, so their number), whether
        every game left must count (:attr:`exactly`) and the rows' note. Where two routes'
        keys are equal, :meth:`_needs` asks the same mix questions in the same order and,
        when every answer is a pass, makes the same rows: so a route whose answers to those
        questions all pass may take the other's table (``tests/unit/test_prospect_sharing.py``
        compares)."""
        spec = self.spec
        return (
            spec.rules.min_score,
            spec.avg_min,
            spec.perf_min,
            spec.min_games,
            tuple(self.best[: self.left + 1]),  # its length gives the games left
            tuple(self.drops()),  # the first gives the number of games so far
            self.exactly,
            self.note,
        )

    def _needs(self, asked: list[tuple[int, int]]) -> tuple[tuple[Need, ...], bool]:
        """:meth:`needs` worked out, with each (games, remaining games) whose mix it asked
        in ``asked``, in order, and whether every answer was a pass."""
        spec, best_of, note = self.spec, self.best, self.note
        passed = True
        sums = _least_sums(spec)
        rows: list[Row] = []
        most = len(self._record.ordered)  # the games so far with no win left out
        for m in reversed(self._counts()):
            if m == 0 or most + m < spec.min_games:
                break  # no record of so few games: fewer remaining ones give none either
            best = best_of[m]
            top = 2 * m
            low = top + 1  # the least sums so far are those of h = low, …, 2m
            least: list[int] = []
            for n_c, h_c, adj_c in self.drops():
                n = n_c + m
                if n == 0 or n < spec.min_games:
                    continue
                by_half, lowered = sums.get(n) or _sums_of(sums, spec, n)
                # the first score (h_c + h half points in all) whose least sum passes
                first = bisect.bisect_left(lowered, -best - adj_c, h_c, h_c + top + 1)
                if first > h_c + top:
                    continue  # not even every remaining game won
                self.rating_ok = True
                asked.append((n, m))
                if not self._mix_ok(n, m):
                    passed = False
                    continue  # the same mix for every score
                xs = [total - adj_c for total in by_half[first : h_c + top + 1]]
                h = first - h_c
                if not least:
                    least, low = xs, h
                elif h >= low:  # within those so far: the lower of each
                    least[h - low :] = map(min, least[h - low :], xs)
                else:
                    least = xs[: low - h] + list(map(min, least, xs[low - h :]))
                    low = h
            previous = None
            shown = avg(best, m)
            for h, least_x in enumerate(least, low):
                average = (2 * least_x + m) // (2 * m)  # avg(), inline: the hot loop
                if previous is not None and average >= previous:
                    continue
                previous = average
                rows.append((m, h, average, shown, note))
        return needs_table(tuple(rows), self.o), passed


Sums = tuple[tuple[int, ...], tuple[int, ...]]
"""The least sums of a number of games by half points (:data:`_NEVER` below the minimum
score), and the same negated (ascending, for a bisection)."""

_NEVER = 1 << 40
"""The least sum of a score below the minimum (1.49): no ratings give it."""

_SUMS: dict[tuple[object, ...], dict[int, Sums]] = {}
""":func:`_least_sums` by what it reads of the requirements."""


def _least_sums(spec: Requirements) -> dict[int, Sums]:
    """For each number of games ``n`` asked so far, the least sum of ``n`` ratings (as
    counted, floor applied) that gives the norm with ``H`` half points, by ``H`` from 0 to
    ``2n`` (:data:`_NEVER` below the minimum score): :meth:`Outlook.least_sum` for every score at
    once, shared by every player and round whose requirements read the same. The sum
    reads of the requirements only the minimum score (1.49), the minimum average and the
    minimum performance (1.48, :func:`~tracker.norms.search.needed_average`), its key."""
    key = (spec.rules.min_score, spec.avg_min, spec.perf_min)
    found = _SUMS.get(key)
    if found is None:
        if len(_SUMS) >= 256:
            _SUMS.clear()
        found = _SUMS[key] = {}
    return found


def _sums_of(sums: dict[int, Sums], spec: Requirements, n: int) -> Sums:
    """The sums of ``n`` games by half points, made for :func:`_least_sums`."""
    made = []
    for half in range(2 * n + 1):
        need = needed_average(half, n, spec)
        made.append(_NEVER if need is None else least_total(need, n))
    sums[n] = found = (tuple(made), tuple(-total for total in made))
    return found


def rating_may_do(main: Relaxed, m: int) -> bool:
    """Whether a record of the games so far, every one kept, and ``m`` remaining games all
    won against the strongest players of the pool reaches the rating requirement (1.48,
    1.48a): the first test 1.4.1c's route (:meth:`Relaxed.possible`, no win left out)
    makes, here from the main route's sums."""
    if m > main.left:
        return False
    games, half, adjusted = main.drops()[0]
    total = main.o.least_sum(main.spec, half + 2 * m, games + m)
    return total is not None and total - adjusted <= main.best[m]


def needs_of(routes: Sequence[Relaxed]) -> tuple[Need, ...]:
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
    return needs_table(
        tuple((n.games, h, n.average, n.best, n.note) for (_, h), n in sorted(rows.items())),
        possible[0].o,
    )


def needs_table(rows: tuple[Row, ...], outlook: Outlook) -> tuple[Need, ...]:
    """The :class:`Need` values of ``rows``, the same tuple for every table of the round
    that is the same and the same value for every row (:class:`.values.Made`)."""
    made = outlook.made
    found = made.tables.get(rows)
    if found is None:
        known = made.rows
        shared = []
        for row in rows:
            need = known.get(row)
            if need is None:
                games, half_points, average, best, note = row
                score = outlook.score(half_points)
                need = known[row] = Need(games, score, average, best, note)
            shared.append(need)
        found = made.tables[rows] = tuple(shared)
    return found


def why_not(routes: Sequence[Relaxed]) -> str:
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


def record_drops(
    record: Record, wins: Sequence[NormGame], spec: Requirements
) -> Iterator[tuple[int, int, int]]:
    """(games, half points, floor-adjusted rating sum) of the games so far after leaving
    out the ``d`` lowest-rated of ``wins`` (1.42e), for d = 0, 1, …"""
    ordered, kept = record.ordered, record.rating_sum
    for d in range(len(wins) + 1):
        if d:
            kept -= wins[d - 1].rating
        # the kept games' lowest ratings: the ordered ones but the d lowest wins
        lowest = list(itertools.islice(_without_wins(ordered, d), spec.raise_count))
        adjusted = floor_adjusted(lowest, spec) - sum(lowest) + kept
        yield len(ordered) - d, record.half_points - 2 * d, adjusted


def _without_wins(ordered: Sequence[NormGame], drop: int) -> Iterator[int]:
    """The ratings of ``ordered`` but its first ``drop`` won games, in order."""
    for g in ordered:
        if drop and g.won:
            drop -= 1
            continue
        yield g.rating


def avg(total: int, games: int) -> int:
    """An average as 1.47b rounds it (the smallest sum reaching it is :func:`least_total`)."""
    return (2 * total + games) // (2 * games)


def mo_reachable(
    rule: MixRule,
    titles: Mapping[Title, int],
    pool: Mapping[Title | None, int],
    m: int,
    weighted: Weighted | None,
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
