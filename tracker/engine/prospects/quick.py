"""Cheap tests of whether a Swiss pair is still in contention (:class:`FieldBound`): from
the field's counts and the player's record so far, without the pool of remaining opponents
or a :class:`.bound.Relaxed`. In a large open they decide most pairs, in contention or out
of reach for good; where they do not, the bound decides as before.

Why they are sound: :meth:`.bound.Relaxed.possible` tries records made of the games so far
but ``d`` won ones (1.42e) and ``m`` remaining games (any number up to the games left),
every one won; the pair is in contention as soon as one record passes the rating
requirement (1.48, 1.48a) against the pool's ``m`` strongest players and each mix rule
(1.43–1.46) against the most the pool could give. A Swiss pool is the field but the player
and those met over the board, at most ``up_to + 1`` players. So the pool holds at least the
field's number of each kind (title, federation, rated) less ``up_to + 1``, and its ``i``-th
highest rating is at least the field's ``(i + up_to + 1)``-th; of the field's foreign
federations at most ``up_to`` are gone. The first test tries the same records (the easiest
first, the others only where it fails on the mix alone) with these lower figures for the
pool and the bound's own for the games so far, but for the at-most rules every game so far
of the kind (the bound may leave some out), and, for a first answer shared by every player
with as many games, none of a kind for the at-least rules and as many as the games, or the
field, hold for the at-most ones. Each count a rule reads is then at least as good in the
bound as here, so when a record passes here, it passes the bound too.

The other way round, the pool's ``m`` strongest players are at most the field's ``m``
strongest: where every record fails the rating even against those (or, where some may not,
against the pool's own, which the bound reads), every record of the bound fails on the
number of games or the rating, which lasts (:attr:`.outlook.Outlook.settled`),
unless 1.4.1c's route of 8 games (2024) applies, which the bound tries with its own
requirements.

``tests/unit/test_quick_bound.py`` compares both answers with the bound's on generated
events."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from fractions import Fraction

from tracker.domain.titles import Title
from tracker.engine.prospects.bound import mo_reachable, record_drops
from tracker.engine.prospects.opponents import Have, Opponents, Weighted
from tracker.engine.prospects.values import Status
from tracker.norms.search import Requirements
from tracker.rules.mix import MixRule, WeightedMO


class FieldBound:
    """The field's counts less what ``up_to + 1`` players could take from any pool, for
    :meth:`status`; each figure worked out once per outlook."""

    def __init__(
        self, opponents: Opponents, least_sum: Callable[[Requirements, int, int], int | None]
    ) -> None:
        """``least_sum``: the outlook's :meth:`~.outlook.Outlook.least_sum`."""
        o = self.o = opponents
        self.least_sum = least_sum
        self.gone = o.up_to + 1
        """The most players a pool lacks: the player and one opponent a round."""
        self.size = len(o.field)
        self._ratings = [rating for rating, _ in o.field]
        self._titles = {t: max(0, c - self.gone) for t, c in o.titles.items()}
        self._most_one = max(o.federations.values(), default=0)
        self._rated = self.size - o.unrated
        self._best: dict[int, tuple[list[int], list[int]]] = {}
        self._weighted: dict[int, tuple[Mapping[Title, Fraction], list[tuple[int, int]]]] = {}
        self._mix: dict[tuple[int, int, int, str, int], tuple[MixRule, bool]] = {}
        left = o.games_left_swiss
        self.sound = left is not None and self.size - self.gone >= left
        """Whether any pool holds at least the games left, which every test here assumes
        (else :meth:`status` leaves every pair to the bound)."""

    def status(self, rank: int, spec: Requirements) -> Status | None:
        """:attr:`Status.POSSIBLE` where a record the Swiss bound tries surely passes it,
        :attr:`Status.OUT_OF_REACH` where no record can pass the rating even against the
        field's strongest players, or else the pool's (and 1.4.1c's 8 games cannot apply),
        ``None`` where the bound must say (the module docstring says why). The records are
        the bound's, every game left won: the easiest first (every game so far, every game
        left counted), the others looked through for a pass only where that one fails on
        the mix alone; the mix first with nothing known of the games so far but their
        number (the same answer for many players, kept), then with their opponents'
        counts."""
        if not self.sound:
            return None  # the pool might hold fewer players than games left
        o = self.o
        left = o.games_left_swiss
        assert left is not None
        record = o.record(rank)
        games = len(record.ordered)
        fewest = max(1, spec.min_games)
        least, most = self._best_sums(spec.floor)
        records = record_drops(record, record.wins, spec)
        seen: list[tuple[int, int, int]] = []
        first = looking = True
        maybe = False  # whether a record may pass the rating with some pool
        for kept, half, adjusted in records:
            seen.append((kept, half, adjusted))
            for m in range(left, -1, -1):
                n = kept + m
                if n < fewest:
                    break  # fewer games left counted only makes fewer games
                total = self.least_sum(spec, half + 2 * m, n)
                need = None if total is None else total - adjusted
                may = need is not None and need <= most[m]
                sure = may and need is not None and need <= least[m]
                if first:
                    first = False
                    looking = sure  # the easiest record's rating fails: no pass looked for
                if not may:
                    continue
                maybe = True
                if not looking:
                    break
                if sure and self._mix_ok(rank, spec, games, n, m):
                    return Status.POSSIBLE
            if maybe and not looking:
                break
        if o.short_games(rank) is not None:
            return None  # 1.4.1c's 8 games are a route of their own: the bound's to say
        if maybe:
            # the rating against the player's own pool, as the bound reads it
            best = o.best(rank, spec.floor)
            for kept, half, adjusted in itertools.chain(seen, records):
                for m in range(len(best) - 1, -1, -1):
                    n = kept + m
                    if n < fewest:
                        break
                    total = self.least_sum(spec, half + 2 * m, n)
                    if total is not None and total - adjusted <= best[m]:
                        return None  # may pass: the bound's to say
        return Status.OUT_OF_REACH

    def _mix_ok(self, rank: int, spec: Requirements, games: int, n: int, m: int) -> bool:
        """Whether the mix of a record of ``n`` games, ``m`` of them still to play, surely
        passes (:meth:`_mix_passes`), for a player with ``games`` counted so far."""
        rule = spec.mix(n, n)
        return self._shared_mix(rule, spec, games, m) or self._mix_passes(
            rule, spec, games, m, self.o.summary(rank)
        )

    def mix_surely(self, spec: Requirements, games: int, n: int, m: int) -> bool:
        """Whether every mix rule of a record of ``n`` games, ``m`` of them still to play,
        passes for any player with ``spec`` and ``games`` counted so far, whatever those
        games and whichever wins so far the record leaves out: the answer :meth:`_mix_ok`
        shares, which :meth:`.bound.Relaxed._mix_ok` takes before its own count (a pass here
        is a pass there: the module docstring says why). Only where :meth:`status` reasons
        at all (:attr:`sound`)."""
        return self.sound and self._shared_mix(spec.mix(n, n), spec, games, m)

    def _shared_mix(self, rule: MixRule, spec: Requirements, games: int, m: int) -> bool:
        """:meth:`_mix_passes` knowing nothing of the games so far but their number, kept."""
        key = (id(rule), m, games, spec.player.federation_key, spec.raise_count)
        known = self._mix.get(key)
        if known is None or known[0] is not rule:
            known = self._mix[key] = (rule, self._mix_passes(rule, spec, games, m, None))
        return known[1]

    def _best_sums(self, floor: int) -> tuple[list[int], list[int]]:
        """For ``m`` up to the games left, the least and the most the ``m`` strongest
        players of any pool sum to, each rating at least ``floor``: the field's ratings
        ranked ``up_to + 2`` to ``up_to + 1 + m``, and its ``m`` highest."""
        found = self._best.get(floor)
        if found is None:
            left = self.o.games_left_swiss
            assert left is not None
            raised = [max(r, floor) for r in self._ratings[: self.gone + left]]
            least = list(itertools.accumulate(raised[self.gone :], initial=0))
            most = list(itertools.accumulate(raised[:left], initial=0))
            found = self._best[floor] = (least, most)
        return found

    def _mix_passes(
        self, rule: MixRule, spec: Requirements, games: int, m: int, have: Have | None
    ) -> bool:
        """Every mix rule with ``m`` remaining opponents and nothing dropped
        (:meth:`.bound.Relaxed._mix_failures`), on the fewest players of each kind any pool
        holds; the games so far by ``have``, or without it, none of a kind for the
        at-least rules and ``games`` of it (or the field's number, if fewer) for the
        at-most ones."""
        o, gone, size = self.o, self.gone, self.size
        fed = o.federations
        own = spec.player.federation_key
        wanted = rule.title_holder_titles
        holders = sum(c for t, c in o.titles.items() if t in wanted)
        held = 0 if have is None else sum(c for t, c in have.titles.items() if t in wanted)
        if held + min(m, max(0, holders - gone)) < rule.min_title_holders:
            return False
        titles: Mapping[Title, int] = {} if have is None else have.titles
        if not mo_reachable(rule, titles, self._titles, m, self._weighted_mo(rule, titles)):
            return False
        foreign = 0
        if have is not None:
            is_foreign = o.rules.is_foreign
            foreign = sum(1 for f in have.federations if is_foreign(f, own))
        new_feds = max(0, len(o.foreign_in_field(own)) - o.up_to - foreign)
        if foreign + min(m, new_feds) < rule.min_foreign_federations:
            return False
        others = size - fed.get(own, 0) - gone  # the fewest a pool surely has
        other = 0 if have is None else games - have.federations.get(own, 0)
        if rule.min_other_federations is not None and other + min(m, max(0, others)) < (
            rule.min_other_federations
        ):
            return False
        # without ``have``: at most ``games`` of a kind so far, and no more than the field
        own_so_far = min(games, fed.get(own, 0)) if have is None else have.federations.get(own, 0)
        if rule.max_own_federation is not None and (
            own_so_far + max(0, m - others) > rule.max_own_federation
        ):
            return False
        cap = rule.max_one_federation
        if cap is not None:
            if have is None:
                most = self._most_one
                if min(games, most) + max(0, m - (size - most - gone)) > cap:
                    return False
            elif any(
                c + max(0, m - (size - fed.get(f, 0) - gone)) > cap
                for f, c in have.federations.items()
            ):
                return False
        if rule.max_unrated is not None:
            slack = spec.raise_count if o.rules.raised_unrated_counts_as_rated else 0
            so_far = min(games, o.unrated) if have is None else have.unrated
            if so_far + max(0, m - (self._rated - gone)) - slack > rule.max_unrated:
                return False
        return True

    def _weighted_mo(self, rule: MixRule, titles: Mapping[Title, int]) -> Weighted | None:
        """A weighted title mix's (value, gains) for a player whose opponents so far hold
        ``titles``, with the fewest titled players any pool holds
        (:meth:`Opponents.weighted`)."""
        mo = rule.mo
        if not isinstance(mo, WeightedMO):
            return None
        known = self._weighted.get(id(mo.weights))
        if known is None or known[0] is not mo.weights:
            weights = mo.scaled
            gains = sorted(
                ((weights.get(t, 0), c) for t, c in self._titles.items() if t is not None),
                reverse=True,
            )
            known = self._weighted[id(mo.weights)] = (mo.weights, gains)
        return mo.scaled_value(titles), known[1]


__all__ = ["FieldBound"]
