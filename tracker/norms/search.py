"""Norm verdicts: does a player's record make a title norm, and with which games?

The search follows the structure of the rules rather than trying every subset:

* only won games (1.42e) may be dropped from inside the span of rounds, and only a tail of
  rounds after a norm was already achieved (1.42f) may be cut, so a candidate is a *cut round*
  plus a set of dropped wins;
* for a fixed cut and a fixed number ``k`` of dropped wins the score, the number of games and
  so ``dp`` are fixed; among wins that look alike to the mix rules it is always at least as
  good to drop the lowest rated (a swap argument, see ``tests/unit/test_norm_search.py``), and the
  best possible average for ``k`` is the one that drops the ``k`` lowest-rated wins;
* a depth-first search over which wins to drop prunes with bounds that are valid for every
  edition: the best average still reachable, the title-holders and title-equivalents still
  reachable, the foreign federations still reachable, and the fewest own-federation,
  single-federation and unrated opponents the kept games can have.

Editions decide what may be dropped: in 2024 round robins no tail may be cut (1.4.1e) and
wins only when the whole record meets the mix (1.4.1f); 2024's 8 games of 9 rounds (1.4.1c)
are a last attempt after the 1.42c/1.4.2c last-round forfeit.

``tests/unit/test_norm_search.py`` checks the search against a plain enumeration of every subset
on generated small cases.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction

from tracker.domain.fide_tables import average_half_up, dp, percentage, percentage_of_half_points
from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import Tournament
from tracker.rules import TitleRules
from tracker.rules.mix import MixRule


@dataclasses.dataclass(frozen=True, slots=True)
class Cell:
    """One player's round: the opponent's start rank (``None`` for a bye) and the TRF code."""

    round: int
    opponent: int | None
    code: Code
    opponent_rating: int | None = None
    """The opponent's rating at the date of the game, when the input gave one (used only
    where the edition asks for it: 1.1.4 of 2024, events longer than 30 days)."""


@dataclasses.dataclass(frozen=True, slots=True)
class NormGame:
    """A game that counts for norms (or may be ignored), seen from the candidate."""

    round: int
    opponent: Player
    code: Code
    rating: int
    """Opponent's rating as the edition counts it before the floor (unrated value applied)."""
    note: str = ""
    half_points: int = dataclasses.field(init=False, repr=False, compare=False)
    """The candidate's score in half points, kept as an integer for the search."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "half_points", self.code.half_points)

    @property
    def won(self) -> bool:
        return self.code is Code.WIN


@dataclasses.dataclass(frozen=True, slots=True)
class Ignored:
    round: int
    opponent: Player | None
    code: Code
    article: str
    reason: str
    optional: bool
    """``True`` for games the player *may* leave out (1.42e/f); ``False`` for games that do
    not count at all (1.42a–d, byes)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Check:
    article: str
    name: str
    needed: str
    actual: str
    met: bool
    depends_on: str = ""
    """What a requirement that holds for some federations of players of unknown federation
    and fails for others depends on (``met`` is then ``False``); empty otherwise."""


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """The best attempt at one norm after one round, with everything an arbiter checks."""

    title: Title
    achieved: bool
    rounds_considered: int
    counted: tuple[NormGame, ...]
    ignored: tuple[Ignored, ...]
    score: Fraction
    percentage: int
    average: int | None
    performance: int | None
    raised: tuple[int, ...]
    """Start ranks of the opponents raised to the rating floor."""
    credited_games: int
    checks: tuple[Check, ...]

    @property
    def games(self) -> int:
        return len(self.counted)

    @property
    def possible(self) -> bool:
        """Whether the attempt gives the norm for some federations of the players whose
        federation is unknown: every requirement is met or depends on them."""
        return all(c.met or c.depends_on for c in self.checks)

    def ignores_optional_games(self) -> bool:
        """Whether the attempt leaves out games the player could have kept (1.42e/f)."""
        return any(i.optional for i in self.ignored)


@dataclasses.dataclass(frozen=True, slots=True)
class Context:
    """Tournament-wide facts a player's norm depends on, computed once per round."""

    tournament: Tournament
    players: dict[int, Player]
    swiss_exempt: bool
    """The Swiss exemption (1.43e / 1.4.3d) holds, players of unknown federation counted as
    from the host federation."""
    unrated_scored_zero: frozenset[int]
    """Unrated players who scored zero against rated opponents (for 1.42d)."""
    game_date_ratings: bool = False
    """Opponents count with their rating at the date of each game (1.1.4 of 2024)."""
    swiss_exempt_possible: bool = False
    """The Swiss exemption holds if players of unknown federation are foreign (each from a
    federation of their own): it depends on them when :attr:`swiss_exempt` does not hold."""
    event_check: Check | None = None
    """A requirement of the event every norm fails (its rate of play:
    :func:`tracker.engine.evaluation.norm_event`); ``None`` for an event that can give norms."""

    def opponent(self, cell: Cell) -> Player:
        """The opponent of ``cell`` as the norm rules see them: with the rating at the
        date of the game where the edition uses it and the input gave it."""
        assert cell.opponent is not None
        player = self.players[cell.opponent]
        if self.game_date_ratings and cell.opponent_rating is not None:
            return dataclasses.replace(player, rating=cell.opponent_rating)
        return player


# ----------------------------------------------------------------------------- game lists


def norm_games(
    player: Player, cells: Sequence[Cell], ctx: Context, rules: TitleRules
) -> tuple[list[NormGame], list[Ignored], NormGame | None]:
    """Split a player's rounds into games that count and games that do not (1.42a–d).

    Also returns the last-round forfeit win that 1.42c lets count as a loss, if any."""
    counted: list[NormGame] = []
    excluded: list[Ignored] = []
    forfeit: NormGame | None = None
    t = ctx.tournament
    for cell in cells:
        if cell.opponent is None:
            excluded.append(
                Ignored(
                    cell.round,
                    None,
                    cell.code,
                    rules.articles["bye"],
                    "bye: not a game",
                    optional=False,
                )
            )
            continue
        opponent = ctx.opponent(cell)
        reason = rules.exclusion(opponent, cell.code, t, cell.opponent in ctx.unrated_scored_zero)
        if reason is None:
            counted.append(
                NormGame(cell.round, opponent, cell.code, rules.opponent_rating(opponent))
            )
            continue
        excluded.append(Ignored(cell.round, opponent, cell.code, *reason, optional=False))
        if (
            cell.code is Code.FORFEIT_WIN
            and t.is_last(cell.round)
            and rules.last_round_forfeit_counts()
            and rules.exclusion(opponent, Code.LOSS, t, cell.opponent in ctx.unrated_scored_zero)
            is None
        ):
            forfeit = NormGame(
                cell.round,
                opponent,
                Code.LOSS,
                rules.opponent_rating(opponent),
                note=f"last-round forfeit counted as a loss ({rules.last_round_forfeit_article})",
            )
    return counted, excluded, forfeit


# ----------------------------------------------------------------------------- evaluation


@dataclasses.dataclass(frozen=True, slots=True)
class _Spec:
    title: Title
    rules: TitleRules
    player: Player
    tournament: Tournament
    exemption: str | None
    floor: int
    raise_count: int
    avg_min: int
    perf_min: int
    min_games: int
    counted_as: int
    """What a norm of exactly :attr:`min_games` games counts as (World Cup, 1.4.1c: 9)."""
    games_article: str
    exemption_possible: str | None = None
    """The federation exemption when players of unknown federation may make it hold (the
    Swiss exemption's field, 1.4.3b's host federation); :attr:`exemption` when it holds
    anyway."""
    event_check: Check | None = None
    """:attr:`Context.event_check`: listed first in every evidence, and no norm."""
    optimistic: bool = False
    """Judge requirements that depend on unknown federations as met: the search for an
    attempt that is *possible* (:func:`evaluate`'s breakdown, prospects). A norm is
    announced only from a search without it."""
    _mixes: dict[tuple[int, int | None, bool], MixRule] = dataclasses.field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """The mix rules asked for so far (the edition's rules are values, so each is made once)."""

    def mix(self, games: int, opponents: int | None = None, sure: bool | None = None) -> MixRule:
        """The edition's mix rule for ``games`` games; with the exemption that surely holds
        (``sure``, by default unless :attr:`optimistic`) or that possibly holds."""
        possible = self.optimistic if sure is None else not sure
        rule = self._mixes.get((games, opponents, possible))
        if rule is None:
            rule = self._mixes[(games, opponents, possible)] = _edition_mix(
                self.rules,
                self.title,
                games,
                self.tournament,
                self.player,
                self.exemption_possible if possible else self.exemption,
                opponents,
            )
        return rule


_MIX_MEMO_SIZE = 4096
"""Mix rules an edition keeps before it starts its memo afresh."""


def _edition_mix(
    rules: TitleRules,
    title: Title,
    games: int,
    t: Tournament,
    player: Player,
    exemption: str | None,
    opponents: int | None,
) -> MixRule:
    """``rules.mix`` remembered in the edition's memo: the players of a round meet a few
    mix rules between them (keyed by what the edition's mix reads of the player,
    :meth:`TitleRules.mix_reads`), and each takes Fractions and a :class:`WeightedMO` to make."""
    key = (title, games, t, rules.mix_reads(player), exemption, opponents)
    memo = rules.mix_memo
    rule = memo.get(key)
    if rule is None:
        if len(memo) >= _MIX_MEMO_SIZE:
            memo.clear()
        rule = memo[key] = rules.mix(title, games, t, player, exemption, opponents)
    return rule


def _spec(
    title: Title, player: Player, ctx: Context, rules: TitleRules, optimistic: bool = False
) -> _Spec:
    t = ctx.tournament
    low, counted_as = rules.min_games(t)
    exemption = rules.federation_exemption(t, ctx.swiss_exempt, player)
    return _Spec(
        title=title,
        rules=rules,
        player=player,
        tournament=t,
        exemption=exemption,
        exemption_possible=exemption or _possible_exemption(player, ctx, rules),
        event_check=ctx.event_check,
        optimistic=optimistic,
        floor=rules.rating_floor[title],
        raise_count=rules.raised_opponents,
        avg_min=rules.average_min[title],
        perf_min=rules.performance_min[title],
        min_games=low,
        counted_as=counted_as,
        games_article=rules.articles["games"],
    )


def _possible_exemption(player: Player, ctx: Context, rules: TitleRules) -> str | None:
    """The federation exemption if players of unknown federation make it hold: the Swiss
    exemption with them foreign, or (the player's own federation unknown) an exemption for
    the host federation's players (1.4.3b of 2024)."""
    t = ctx.tournament
    swiss = ctx.swiss_exempt or ctx.swiss_exempt_possible
    found = rules.federation_exemption(t, swiss, player)
    if found is None and player.federation is None and t.host_federation is not None:
        host = dataclasses.replace(player, federation=t.host_federation)
        found = rules.federation_exemption(t, swiss, host)
    return found


def _adjusted(ratings: Sequence[int], spec: _Spec) -> tuple[int, int]:
    """Sum of ratings with the lowest ``raise_count`` raised to the floor (1.46c), and how
    many were raised. ``ratings`` must be sorted ascending."""
    total = sum(ratings)
    raised = 0
    for r in ratings[: spec.raise_count]:
        if r < spec.floor:
            total += spec.floor - r
            raised += 1
    return total, raised


def _average(adjusted_sum: int, games: int) -> int:
    """1.47b: the average rounded to the nearest whole number, 0.5 up."""
    return average_half_up(adjusted_sum, games)


def _score_ok(half_points: int, games: int, rules: TitleRules) -> bool:
    """1.49: at least the minimum score (35 %), compared exactly."""
    share = rules.min_score
    if share is None:
        return True
    return half_points * share.denominator >= 2 * share.numerator * games


def _needed_average(half_points: int, games: int, spec: _Spec) -> int:
    """Lowest average Ra that gives the norm for this score: Ra ≥ minimum average and
    Ra + dp ≥ minimum performance (1.48, 1.48a)."""
    return max(spec.avg_min, spec.perf_min - dp(percentage_of_half_points(half_points, games)))


def _titles(games: Iterable[NormGame], distinct: bool) -> Counter[Title]:
    """The opponents' titles, per game or (``distinct``) per opponent."""
    opponents = (
        {g.opponent.rank: g.opponent for g in games}.values()
        if distinct
        else (g.opponent for g in games)
    )
    return Counter(p.title for p in opponents if p.title is not None)


def _unrated(games: Sequence[NormGame], raised: int, spec: _Spec) -> int:
    """Unrated opponents for 1.46a; those raised to the floor count as rated where the
    edition says so. ``games`` sorted by rating ascending."""
    count = sum(1 for g in games if g.opponent.rating is None)
    if spec.rules.raised_unrated_counts_as_rated:
        count -= sum(1 for g in games[:raised] if g.opponent.rating is None)
    return count


def _mix_checks(
    kept: Sequence[NormGame],
    raised: int,
    spec: _Spec,
    games: int | None = None,
    opponents: int | None = None,
) -> list[Check]:
    """The mix checks of ``kept``; with ``games`` (and ``opponents``), the numbers a record
    of that length will need, against what ``kept`` has so far (for prospects)."""
    n = len(kept) if games is None else games
    distinct = len({g.opponent.rank for g in kept}) if opponents is None else opponents
    return [describe() for _, describe in _mix_verdicts(kept, raised, spec, n, distinct)]


def _mix_met(kept: Sequence[NormGame], raised: int, spec: _Spec) -> bool:
    """Whether every check of :func:`_mix_checks` is met, decided without describing them
    and stopping at the first one not met: the search and the prospects ask this far more
    often than a reader sees a check."""
    verdicts = _mix_verdicts(kept, raised, spec, len(kept), len({g.opponent.rank for g in kept}))
    return all(met for met, _ in verdicts)


def _mix_verdicts(
    kept: Sequence[NormGame], raised: int, spec: _Spec, n: int, distinct: int
) -> Iterator[tuple[bool, Callable[[], Check]]]:
    """Each rule of the opponent mix (1.43-1.46a / 1.4.3-1.4.5, as the edition's
    :class:`MixRule` for ``n`` games against ``distinct`` players states it) over ``kept``:
    whether it is met, and how to describe it as a :class:`Check`, made only when asked."""
    rule = spec.mix(n, distinct, sure=True)
    holder_titles = _titles(kept, rule.title_holders_distinct)
    holders = sum(c for t, c in holder_titles.items() if t in rule.title_holder_titles)
    holders_met = holders >= rule.min_title_holders
    yield (
        holders_met,
        lambda: Check(
            rule.title_holder_article,
            "title-holders",
            f"≥ {rule.min_title_holders}",
            str(holders),
            holders_met,
        ),
    )
    same = rule.distinct_opponents == rule.title_holders_distinct
    titles = holder_titles if same else _titles(kept, rule.distinct_opponents)
    mo_met = rule.mo.ok(titles)
    yield (
        mo_met,
        lambda: Check(
            rule.mo_article,
            f"{spec.title.value} title mix",
            rule.mo.describe_needed(),
            rule.mo.describe_actual(titles),
            mo_met,
        ),
    )
    yield from _federation_verdicts(kept, spec, rule, n)
    unrated_max = rule.max_unrated
    if unrated_max is not None:
        unrated = _unrated(kept, raised, spec)
        unrated_met = unrated <= unrated_max
        yield (
            unrated_met,
            lambda: Check(
                rule.unrated_article,
                "unrated opponents",
                f"≤ {unrated_max}",
                str(unrated),
                unrated_met,
            ),
        )


@dataclasses.dataclass(frozen=True, slots=True)
class _Federations:
    """The federations of the kept games' opponents, for 1.43/1.44a (1.4.3/1.4.4, 2.2), with
    players of unknown federation counted both ways. Each count is a range ``(low, high)``
    over every federation those players (and the player, when theirs is unknown) could
    have: an at-least rule is surely met at ``low`` and possibly met at ``high``, an at-most
    rule the other way round. One assignment gives every best value at once (each unknown
    from a federation of their own), so "possible" for each rule is possible for all."""

    known: Counter[str]
    own: str | None
    unknown: tuple[Player, ...]
    """Opponents of unknown federation, each once."""
    unknown_games: int
    most_against_one_unknown: int

    @classmethod
    def of(cls, kept: Sequence[NormGame], player: Player) -> _Federations:
        known: Counter[str] = Counter()
        unknown: Counter[int] = Counter()
        players: dict[int, Player] = {}
        for g in kept:
            fed = g.opponent.federation
            if fed is None:
                unknown[g.opponent.rank] += 1
                players[g.opponent.rank] = g.opponent
            else:
                known[fed] += 1
        return cls(
            known,
            player.federation,
            tuple(players[r] for r in sorted(players)),
            sum(unknown.values()),
            max(unknown.values(), default=0),
        )

    @property
    def certain(self) -> bool:
        return not self.unknown and self.own is not None

    def foreign(self, rules: TitleRules) -> tuple[int, int]:
        """Federations other than the player's (:meth:`TitleRules.is_foreign`: FID only
        where the edition counts it)."""
        if self.own is None:  # the player's own may be any of them
            countable = [f for f in self.known if rules.is_foreign(f, "")]
            return max(0, len(countable) - 1), len(countable) + len(self.unknown)
        low = sum(1 for f in self.known if rules.is_foreign(f, self.own))
        return low, low + len(self.unknown)

    def own_games(self) -> tuple[int, int]:
        if self.own is None:
            return 0, max(self.known.values(), default=0) + self.unknown_games
        return self.known[self.own], self.known[self.own] + self.unknown_games

    def most_from_one(self) -> tuple[int, int]:
        most = max(self.known.values(), default=0)
        return max(most, self.most_against_one_unknown), most + self.unknown_games

    def who(self) -> str:
        """What the counts depend on, for a requirement's name."""
        parts = []
        if self.unknown:
            n = len(self.unknown)
            parts.append(f"{n} opponent{'s' if n > 1 else ''} of unknown federation")
        if self.own is None:
            parts.append("the player's own federation (unknown)")
        return " and ".join(parts)

    def names(self) -> str:
        return ", ".join(f"{p.name} ({p.rank})" for p in self.unknown)


def _federation_verdicts(
    kept: Sequence[NormGame], spec: _Spec, rule: MixRule, n: int
) -> Iterator[tuple[bool, Callable[[], Check]]]:
    """The federation rules of ``rule`` (the one that surely applies) over ``kept``: each
    met surely, failed surely, or depending on players of unknown federation; in an
    :attr:`_Spec.optimistic` search a depending rule counts as met."""
    feds = _Federations.of(kept, spec.player)
    foreign = feds.foreign(spec.rules)
    foreign_text = _range(foreign)
    if feds.unknown:
        foreign_text += f" (unknown federation: {feds.names()})"
    exemption = rule.federation_exemption
    if exemption is not None:
        yield (
            True,
            lambda: Check(exemption, "federations", "exempt", f"{foreign_text} foreign", True),
        )
    # the exemption that surely holds lifts what it lifts (caps too, as the edition says);
    # one that only may hold makes every federation rule depend on it
    maybe_exempt = spec.exemption_possible if exemption is None else None

    def verdict(
        article: str, name: str, needed: str, actual: str, sure: bool, possible: bool
    ) -> tuple[bool, Callable[[], Check]]:
        possible = possible or maybe_exempt is not None
        depends = ""
        if not sure and possible:
            reasons = []
            if feds.unknown or feds.own is None:
                reasons.append(feds.who())
            if maybe_exempt is not None:
                reasons.append(
                    f"the exemption {maybe_exempt}, which players of unknown federation may give"
                )
            depends = "; ".join(reasons)
        shown = f"{name} (depends on {depends})" if depends else name
        return (
            sure or (spec.optimistic and possible),
            lambda: Check(article, shown, needed, actual, sure, depends),
        )

    if exemption is None:
        low, high = foreign
        need_foreign = rule.min_foreign_federations
        yield verdict(
            rule.foreign_article,
            "foreign federations",
            f"≥ {need_foreign}",
            foreign_text,
            low >= need_foreign,
            high >= need_foreign,
        )
    own_low, own_high = feds.own_games()
    own_name = feds.own if feds.own is not None else "the player's federation"
    own_cap = rule.max_own_federation
    if own_cap is not None:
        yield verdict(
            rule.caps_article,
            f"opponents from {own_name}",
            f"≤ {own_cap}",
            _range((own_low, own_high)),
            own_high <= own_cap,
            own_low <= own_cap,
        )
    one_cap = rule.max_one_federation
    if one_cap is not None:
        one_low, one_high = feds.most_from_one()
        if feds.certain:
            fed, most = (
                max(feds.known.items(), key=lambda kv: (kv[1], kv[0])) if feds.known else ("-", 0)
            )
            one_text = f"{most} ({fed})"
        else:
            one_text = _range((one_low, one_high))
        yield verdict(
            rule.caps_article,
            "opponents from one federation",
            f"≤ {one_cap}",
            one_text,
            one_high <= one_cap,
            one_low <= one_cap,
        )
    other_min = rule.min_other_federations
    if other_min is not None:
        other = (n - own_high, n - own_low)
        yield verdict(
            rule.other_article,
            "opponents from other federations",
            f"≥ {other_min}",
            _range(other),
            other[0] >= other_min,
            other[1] >= other_min,
        )


def _range(values: tuple[int, int]) -> str:
    low, high = values
    return str(low) if low == high else f"{low} to {high}"


def _mix_holds(games: Sequence[NormGame], spec: _Spec) -> bool:
    """Every rule of the opponent mix over ``games`` (1.4.1f of 2024: the complete event)."""
    ordered = sorted(games, key=lambda g: g.rating)
    _, raised = _adjusted([g.rating for g in ordered], spec)
    return _mix_met(ordered, raised, spec)


def _foreign(feds: Counter[str], own: str, rules: TitleRules) -> int:
    """How many of ``feds`` are federations other than ``own`` (1.43; FID by the edition)."""
    foreign = rules.is_foreign
    return sum(1 for f in feds if foreign(f, own))


def _feasible(kept: Sequence[NormGame], spec: _Spec) -> bool:
    """Every requirement at once; ``kept`` sorted by rating ascending."""
    n = len(kept)
    if n < spec.min_games:
        return False
    half = sum(g.half_points for g in kept)
    if not _score_ok(half, n, spec.rules):
        return False
    adjusted, raised = _adjusted([g.rating for g in kept], spec)
    if _average(adjusted, n) < _needed_average(half, n, spec):
        return False
    return _mix_met(kept, raised, spec)


def _explain(
    kept: Sequence[NormGame], ignored: Sequence[Ignored], cut: int, spec: _Spec
) -> Verdict:
    rules = spec.rules
    n = len(kept)
    half = sum(g.half_points for g in kept)
    score = Fraction(half, 2)
    needed_games = f"≥ {spec.min_games}"
    if spec.counted_as > spec.min_games:
        needed_games += f", counted as {spec.counted_as}"
    checks = [Check(spec.games_article, "games", needed_games, str(n), n >= spec.min_games)]
    if spec.event_check is not None:
        checks.insert(0, spec.event_check)
    if n == 0:
        return Verdict(
            spec.title, False, cut, (), tuple(ignored), score, 0, None, None, (), 0, tuple(checks)
        )
    pct = percentage(score, n)
    ordered = sorted(kept, key=lambda g: g.rating)
    adjusted, raised = _adjusted([g.rating for g in ordered], spec)
    ra = _average(adjusted, n)
    rp = ra + dp(pct)
    if rules.min_score is not None:
        checks.append(
            Check(
                rules.articles["score"],
                "score",
                f"≥ {float(rules.min_score):.0%}",
                f"{pct}%",
                _score_ok(half, n, rules),
            )
        )
    checks.append(
        Check(
            rules.articles["average"],
            "average rating of opponents (Ra)",
            f"≥ {spec.avg_min}",
            str(ra),
            ra >= spec.avg_min,
        )
    )
    checks.append(
        Check(
            rules.articles["performance"],
            "performance (Rp = Ra + dp)",
            f"≥ {spec.perf_min}",
            f"{rp} ({ra} {dp(pct):+d} for {pct}%)",
            rp >= spec.perf_min,
        )
    )
    checks.extend(_mix_checks(ordered, raised, spec))
    achieved = all(c.met for c in checks)
    credited = 0
    if achieved:
        credited = rules.credited_games(
            n,
            _extra_points(half, n, ra, spec),
            spec.tournament,
            (spec.min_games, spec.counted_as),
        )
    raised_ranks = tuple(g.opponent.rank for g in ordered[:raised])
    return Verdict(
        spec.title,
        achieved,
        cut,
        tuple(sorted(kept, key=lambda g: g.round)),
        tuple(sorted(ignored, key=lambda i: i.round)),
        score,
        pct,
        ra,
        rp,
        raised_ranks,
        credited,
        tuple(checks),
    )


def _extra_points(half: int, n: int, ra: int, spec: _Spec) -> int:
    """1.41c: whole points scored above the lowest score that gives the norm with this Ra."""
    needed = half
    while (
        needed > 0
        and _score_ok(needed - 1, n, spec.rules)
        and (ra + dp(percentage(Fraction(needed - 1, 2), n)) >= spec.perf_min)
    ):
        needed -= 1
    return (half - needed) // 2


# ----------------------------------------------------------------------------- search


class _Search:
    """Find, for one span of rounds, the fewest won games to drop that give the norm."""

    def __init__(self, mandatory: Sequence[NormGame], wins: Sequence[NormGame], spec: _Spec):
        self.spec = spec
        self.mandatory = sorted(mandatory, key=lambda g: g.rating)
        self.wins = sorted(wins, key=lambda g: g.rating)
        self.total = len(self.mandatory) + len(self.wins)
        self.half = sum(g.half_points for g in self.mandatory) + 2 * len(self.wins)
        everyone = [*self.mandatory, *self.wins]
        lowest = min((g.rating for g in everyone), default=spec.floor)
        self.max_raise = spec.raise_count * max(0, spec.floor - lowest)
        self.mandatory_sum = sum(g.rating for g in self.mandatory)
        # suffix sums of win ratings (wins ascending): best kept sum for the top ones
        self.win_suffix = [0] * (len(self.wins) + 1)
        for i in range(len(self.wins) - 1, -1, -1):
            self.win_suffix[i] = self.win_suffix[i + 1] + self.wins[i].rating

    def fewest_drops(self) -> list[NormGame] | None:
        spec = self.spec
        for k in range(len(self.wins) + 1):
            n = self.total - k
            if n < spec.min_games:
                return None
            half = self.half - 2 * k
            if not _score_ok(half, n, spec.rules):
                return None
            need = _needed_average(half, n, spec)
            # best average for k drops: keep the top wins
            kept = [*self.mandatory, *self.wins[k:]]
            kept.sort(key=lambda g: g.rating)
            adjusted, _ = _adjusted([g.rating for g in kept], spec)
            if _average(adjusted, n) < need:
                continue
            rule = spec.mix(n)
            if not self._mix_possible(0, k, [], rule):
                continue
            if _feasible(kept, spec):
                return self.wins[:k]
            budget = (2 * need - 1) * n  # 2 * adjusted sum must reach this (1.47b rounding)
            found = self._dfs(0, k, [], 0, rule, budget)
            if found is not None:
                return found
        return None

    def _dfs(
        self,
        index: int,
        to_drop: int,
        dropped: list[NormGame],
        dropped_sum: int,
        rule: MixRule,
        budget: int,
    ) -> list[NormGame] | None:
        wins = self.wins
        remaining = len(wins) - index
        if to_drop > remaining:
            return None
        # rating bound: kept ratings = everything minus dropped minus the cheapest still to drop
        cheapest = self.win_suffix[index] - self.win_suffix[index + to_drop]
        best_sum = self.mandatory_sum + self.win_suffix[0] - dropped_sum - cheapest
        if 2 * (best_sum + self.max_raise) < budget:
            return None
        if not self._mix_possible(index, to_drop, dropped, rule):
            return None
        if to_drop == 0:
            dropped_set = {id(g) for g in dropped}
            kept = [*self.mandatory, *(g for g in wins if id(g) not in dropped_set)]
            kept.sort(key=lambda g: g.rating)
            return list(dropped) if _feasible(kept, self.spec) else None
        game = wins[index]
        dropped.append(game)
        found = self._dfs(index + 1, to_drop - 1, dropped, dropped_sum + game.rating, rule, budget)
        dropped.pop()
        if found is not None:
            return found
        return self._dfs(index + 1, to_drop, dropped, dropped_sum, rule, budget)

    def _mix_possible(
        self, index: int, to_drop: int, dropped: list[NormGame], rule: MixRule
    ) -> bool:
        """Necessary conditions on the mix, valid whatever is dropped later."""
        undecided = self.wins[index:]
        dropped_ids = {id(g) for g in dropped}
        kept_wins = [g for g in self.wins[:index] if id(g) not in dropped_ids]
        # at-least rules: optimistic, every undecided game kept
        optimistic = [*self.mandatory, *kept_wins, *undecided]
        titles = _titles(optimistic, rule.distinct_opponents)
        if not rule.mo.ok(titles):
            return False
        holder_titles = _titles(optimistic, rule.title_holders_distinct)
        holders = sum(c for t, c in holder_titles.items() if t in rule.title_holder_titles)
        needed = rule.min_title_holders
        if rule.title_holders_distinct:
            # the requirement grows with the players kept: bound it by those surely kept
            sure_players = {g.opponent.rank for g in [*self.mandatory, *kept_wins]}
            needed = self.spec.mix(rule.games, len(sure_players)).min_title_holders
        if holders < needed:
            return False
        # players of unknown federation as the most favourable reading has them (a bound)
        own = self.spec.player.federation_key
        feds = Counter(g.opponent.federation_key for g in optimistic)
        if _foreign(feds, own, self.spec.rules) < (rule.min_foreign_federations):
            return False
        if rule.min_other_federations is not None and (
            len(optimistic) - feds[own] < rule.min_other_federations
        ):
            return False
        # at-most rules: pessimistic, as many of a kind dropped as still possible
        sure_feds = Counter(g.opponent.federation_key for g in [*self.mandatory, *kept_wins])
        maybe = Counter(g.opponent.federation_key for g in undecided)
        for fed in set(sure_feds) | set(maybe):
            least = sure_feds[fed] + max(0, maybe[fed] - to_drop)
            if rule.max_one_federation is not None and least > rule.max_one_federation:
                return False
            if (
                fed == own
                and rule.max_own_federation is not None
                and (least > rule.max_own_federation)
            ):
                return False
        if rule.max_unrated is not None:
            sure_unrated = sum(
                1 for g in [*self.mandatory, *kept_wins] if g.opponent.rating is None
            )
            maybe_unrated = sum(1 for g in undecided if g.opponent.rating is None)
            least = sure_unrated + max(0, maybe_unrated - to_drop)
            # raised unrated opponents may count as rated: allow for the raise
            slack = self.spec.raise_count if self.spec.rules.raised_unrated_counts_as_rated else 0
            if least - slack > rule.max_unrated:
                return False
        return True


# ----------------------------------------------------------------------------- for prospects

Requirements = _Spec
"""Everything one title's norm needs for one player in one tournament (read-only)."""


def requirements(
    title: Title, player: Player, ctx: Context, rules: TitleRules, after_cut: bool = False
) -> Requirements:
    """The requirements of ``title``; ``after_cut`` for a record whose later games are left
    out under 1.42f (at least :meth:`min_games_after_cut` games). Optimistic about players
    of unknown federation: prospects ask whether a norm is still *possible*."""
    spec = _spec(title, player, ctx, rules, optimistic=True)
    if after_cut:
        t = ctx.tournament
        spec = dataclasses.replace(
            spec, min_games=max(spec.min_games, rules.min_games_after_cut(t))
        )
    return spec


def least_half_points(kept: Sequence[NormGame], spec: Requirements, mix: bool = True) -> int | None:
    """The fewest half points with which the games ``kept``, whatever their results, give
    the norm; ``None`` when no score does (too few games, Ra below 1.48a, or the mix).
    With ``mix=False`` the mix is not checked (a lower bound, cheaper)."""
    n = len(kept)
    if n < spec.min_games:
        return None
    ordered = sorted(kept, key=lambda g: g.rating)
    adjusted, raised = _adjusted([g.rating for g in ordered], spec)
    ra = _average(adjusted, n)
    if ra < spec.avg_min:
        return None
    if mix and not _mix_met(ordered, raised, spec):
        return None
    for half in range(2 * n + 1):
        need = needed_average(half, n, spec)
        if need is not None and ra >= need:
            return half
    return None


def complete_mix_holds(games: Sequence[NormGame], spec: Requirements) -> bool:
    """Whether ``games``, every one counted, meet the opponent mix (1.4.1f of 2024)."""
    return _mix_holds(games, spec)


def gives_norm(games: Sequence[NormGame], spec: Requirements) -> bool:
    """Whether ``games``, every one kept, give the norm with their results: the number of
    games, the score (1.49), Ra and Rp (1.48, 1.48a) and the mix, the rating first."""
    return _feasible(sorted(games, key=lambda g: g.rating), spec)


def needed_average(half_points: int, games: int, spec: Requirements) -> int | None:
    """The lowest Ra with which this score gives the norm (1.48, 1.48a); ``None`` below the
    minimum score (1.49). Integers throughout, as the search computes it."""
    if not _score_ok(half_points, games, spec.rules):
        return None
    return _needed_average(half_points, games, spec)


def floor_adjusted(ratings: Sequence[int], spec: Requirements) -> int:
    """The sum of ``ratings`` (ascending) with the lowest raised to the floor (1.46c)."""
    return _adjusted(ratings, spec)[0]


def least_total(need: int, games: int) -> int:
    """The smallest sum of ratings whose average over ``games``, rounded as the norm's Ra is
    (1.47b), reaches ``need``.

    >>> least_total(2380, 9), _average(21416, 9), _average(21415, 9)
    (21416, 2380, 2379)
    """
    total = need * games - games // 2
    while _average(total - 1, games) >= need:
        total -= 1
    while _average(total, games) < need:
        total += 1
    return total


def open_checks(
    kept: Sequence[NormGame], spec: Requirements, games: int, opponents: int | None
) -> list[Check]:
    """What a record of ``games`` games will need, against what ``kept`` has so far."""
    ordered = sorted(kept, key=lambda g: g.rating)
    _, raised = _adjusted([g.rating for g in ordered], spec)
    return [
        Check(
            spec.rules.articles["games"],
            "games",
            f"≥ {spec.min_games}",
            str(len(kept)),
            len(kept) >= spec.min_games,
        ),
        *_mix_checks(ordered, raised, spec, games, opponents),
    ]


def find_norm(
    player: Player, cells: Sequence[Cell], title: Title, ctx: Context, rules: TitleRules
) -> Verdict | None:
    """The best achieved attempt at ``title`` from the player's rounds so far, or ``None``.

    Among achieved attempts: the one credited with the most games (1.41c, 1.49), then the one
    with the most games, then the one that ignores fewest games. The 1.42c last-round forfeit
    is only used when no attempt without it gives the norm (the player "needed" the game)."""
    return _find(norm_games(player, cells, ctx, rules), player, cells, title, ctx, rules)


def find_norms(
    player: Player,
    cells: Sequence[Cell],
    titles: Iterable[Title],
    ctx: Context,
    rules: TitleRules,
) -> dict[Title, Verdict]:
    """:func:`find_norm` for several titles, splitting the games only once."""
    titles = list(titles)
    if not titles or ctx.event_check is not None or _hopeless(player, cells, titles, ctx, rules):
        return {}
    games = norm_games(player, cells, ctx, rules)
    profile = _Profile.of(games[0])
    found = {}
    for title in titles:
        verdict = _find(games, player, cells, title, ctx, rules, profile)
        if verdict is not None:
            found[title] = verdict
    return found


def _hopeless(
    player: Player, cells: Sequence[Cell], titles: Sequence[Title], ctx: Context, rules: TitleRules
) -> bool:
    """A cheap test that rules out most players of an open before any game is classified:
    even the best-rated possible games (every game with an opponent that could count,
    forfeit wins included for 1.42c) cannot reach the lowest minimum average (1.48a)."""
    players = ctx.players
    game_date = ctx.game_date_ratings
    ratings = sorted(
        (
            rules.opponent_rating(ctx.opponent(c) if game_date else players[c.opponent])
            for c in cells
            if c.opponent is not None and (c.code.over_the_board or c.code is Code.FORFEIT_WIN)
        ),
        reverse=True,
    )
    least, _ = rules.min_games(ctx.tournament)
    short = rules.short_norm(ctx.tournament)
    if short is not None:
        least = min(least, short[0])
    if len(ratings) < least:
        return True
    lift = max(rules.raised_opponents * max(0, rules.rating_floor[t] - ratings[-1]) for t in titles)
    best = average_half_up(sum(ratings[:least]) + lift, least)
    return best < min(rules.average_min[t] for t in titles)


def _find(
    games: tuple[list[NormGame], list[Ignored], NormGame | None],
    player: Player,
    cells: Sequence[Cell],
    title: Title,
    ctx: Context,
    rules: TitleRules,
    profile: _Profile | None = None,
    first: bool = False,
    optimistic: bool = False,
) -> Verdict | None:
    """The best attempt, or with ``first`` any achieved attempt (cheaper); ``optimistic``:
    the best attempt that is possible for some federations of the players whose federation
    is unknown (:attr:`_Spec.optimistic`)."""
    counted, excluded, forfeit = games
    if ctx.event_check is not None:
        return None  # no norm in this event (its rate of play)
    spec = _spec(title, player, ctx, rules, optimistic)
    last = max((c.round for c in cells), default=0)

    def pick(attempts: Iterable[Verdict]) -> Verdict | None:
        return next(iter(attempts), None) if first else _best(attempts, last)

    best = pick(_attempts(counted, excluded, last, spec, profile=profile))
    if best is None and forfeit is not None and len(counted) < spec.min_games:
        # 1.42c: the player needed the forfeited game to make up the number of games
        with_forfeit = [*counted, forfeit]
        left_out = [i for i in excluded if i.round != forfeit.round]
        best = pick(_attempts(with_forfeit, left_out, last, spec, cut_allowed=False))
    if best is None:
        short = _short_spec(counted, cells, spec)
        if short is not None:
            best = pick(_attempts(counted, excluded, last, short, cut_allowed=False))
    return best


def _short_spec(counted: Sequence[NormGame], cells: Sequence[Cell], spec: _Spec) -> _Spec | None:
    """1.4.1c (2024): the spec of a norm over fewer games, when the edition allows one for
    this tournament and every round is a counted game but one, which the player won by
    forfeit or spent on a pairing-allocated bye."""
    rules, t = spec.rules, spec.tournament
    short = rules.short_norm(t)
    if short is None or t.planned_rounds is None or len(counted) != short[0]:
        return None
    played = {g.round for g in counted}
    missing = [c for c in cells if c.round not in played]
    rounds = played | {c.round for c in missing}
    if rounds != set(range(1, t.planned_rounds + 1)) or len(missing) != 1:
        return None
    if not rules.short_norm_allows(missing[0].code, t):
        return None
    return short_requirements(spec)


def short_requirements(spec: _Spec) -> _Spec | None:
    """The requirements of a norm over fewer games (1.4.1c of 2024: 8 games counted as 9),
    when the edition allows one in this tournament, whichever round lacks its game."""
    short = spec.rules.short_norm(spec.tournament)
    if short is None:
        return None
    low, counted_as = short
    return dataclasses.replace(
        spec, min_games=low, counted_as=counted_as, games_article=spec.rules.short_norm_article
    )


def norm_exists(
    player: Player, cells: Sequence[Cell], title: Title, ctx: Context, rules: TitleRules
) -> bool:
    """Whether :func:`find_norm` finds a norm, without choosing the best attempt."""
    games = norm_games(player, cells, ctx, rules)
    return _find(games, player, cells, title, ctx, rules, first=True) is not None


def evaluate(
    player: Player, cells: Sequence[Cell], title: Title, ctx: Context, rules: TitleRules
) -> Verdict:
    """Like :func:`find_norm`, but a failed attempt is reported too. When the norm depends
    on players of unknown federation (it holds for some of their federations, not for
    others), the attempt that would give it, with ``achieved`` false and each requirement
    that depends on them saying so (:attr:`Check.depends_on`). Otherwise the attempt over
    every round played, with only the games that cannot count left out, so its checks show
    what is missing."""
    games = norm_games(player, cells, ctx, rules)
    found = _find(games, player, cells, title, ctx, rules)
    if found is not None:
        return found
    if _unknown_federations(player, games[0], ctx):
        found = _find(games, player, cells, title, ctx, rules, optimistic=True)
        if found is not None:
            return found
    counted, excluded, _ = games
    last = max((c.round for c in cells), default=0)
    return _explain(counted, excluded, last, _spec(title, player, ctx, rules))


def _unknown_federations(player: Player, counted: Sequence[NormGame], ctx: Context) -> bool:
    """Whether a federation rule of this record can depend on an unknown federation."""
    return (
        player.federation is None
        or any(g.opponent.federation is None for g in counted)
        or (ctx.swiss_exempt_possible and not ctx.swiss_exempt)
    )


def _best(attempts: Iterable[Verdict], last: int) -> Verdict | None:
    best: Verdict | None = None
    for candidate in attempts:
        if best is None or _key(candidate) > _key(best):
            best = candidate
        if best.rounds_considered == last and not best.ignores_optional_games():
            break
    return best


def _key(v: Verdict) -> tuple[int, int, int]:
    return (v.credited_games, v.games, -len(v.ignored))


@dataclasses.dataclass(frozen=True, slots=True)
class _Profile:
    """A player's counted games reduced to what the quick bound needs, built once for all
    titles: ratings and results, each sorted best first, as running sums."""

    lowest: int
    rating_sums: tuple[int, ...]
    """``rating_sums[m]``: the sum of the m highest ratings."""
    half_sums: tuple[int, ...]
    """``half_sums[m]``: the m best results, in half points."""

    @classmethod
    def of(cls, games: Sequence[NormGame]) -> _Profile:
        ratings = sorted((g.rating for g in games), reverse=True)
        halves = sorted((g.half_points for g in games), reverse=True)
        rating_sums, half_sums = [0], [0]
        for r, h in zip(ratings, halves, strict=True):
            rating_sums.append(rating_sums[-1] + r)
            half_sums.append(half_sums[-1] + h)
        return cls(ratings[-1] if ratings else 0, tuple(rating_sums), tuple(half_sums))


def _possible(profile: _Profile, spec: _Spec) -> bool:
    """A quick necessary condition over every subset of at least the minimum games: the best
    average of m games is that of the m highest rated, the best score that of the m best
    results, and the two bounds together must reach the performance (1.48, 1.48a)."""
    n = len(profile.rating_sums) - 1
    if n < spec.min_games:
        return False
    lift = spec.raise_count * max(0, spec.floor - profile.lowest)
    for m in range(spec.min_games, n + 1):
        best_average = average_half_up(profile.rating_sums[m] + lift, m)
        if best_average < spec.avg_min:
            return False  # the top-m average only falls as m grows
        best_pct = percentage_of_half_points(profile.half_sums[m], m)
        if best_average + dp(best_pct) >= spec.perf_min:
            return True
    return False


def _mix_reachable(games: Sequence[NormGame], spec: _Spec) -> bool:
    """Necessary conditions of the mix over any subset of ``games`` of at least the minimum
    number: each rule is checked against its weakest form, that of the fewest games (the
    at-least rules on all the games, the at-most rules through what the others must make up).
    """
    if len(games) < spec.min_games:
        return False
    rule = spec.mix(spec.min_games, min(spec.min_games, len({g.opponent.rank for g in games})))
    titles = _titles(games, rule.distinct_opponents)
    if not rule.mo.ok(titles):
        return False
    holder_titles = _titles(games, rule.title_holders_distinct)
    holders = sum(c for t, c in holder_titles.items() if t in rule.title_holder_titles)
    if holders < rule.min_title_holders:
        return False
    own = spec.player.federation_key  # unknown federations at their most favourable
    feds = Counter(g.opponent.federation_key for g in games)
    if _foreign(feds, own, spec.rules) < rule.min_foreign_federations:
        return False
    if rule.min_other_federations is not None and len(games) - feds[own] < (
        rule.min_other_federations
    ):
        return False
    # at-most rules: n games need at least n - cap games of the other kinds, a need that
    # only grows with n, so the fewest games are the easiest case
    n = spec.min_games
    if rule.max_own_federation is not None and len(games) - feds[own] < n - (
        rule.max_own_federation
    ):
        return False
    if rule.max_one_federation is not None and any(
        len(games) - count < n - rule.max_one_federation for count in feds.values()
    ):
        return False
    if rule.max_unrated is not None:
        rated = sum(1 for g in games if g.opponent.rating is not None)
        slack = spec.raise_count if spec.rules.raised_unrated_counts_as_rated else 0
        if rated + slack < n - rule.max_unrated:
            return False
    return True


def _attempts(
    games: list[NormGame],
    left_out: list[Ignored],
    last: int,
    spec: _Spec,
    cut_allowed: bool = True,
    profile: _Profile | None = None,
) -> Iterable[Verdict]:
    rules, t = spec.rules, spec.tournament
    if not _possible(profile or _Profile.of(games), spec):
        return
    cuts = sorted({g.round for g in games} | {last}, reverse=True)
    if not (cut_allowed and rules.may_ignore_after_norm(t)):
        cuts = cuts[:1]
    if not _mix_reachable(games, spec):
        return
    after_cut = dataclasses.replace(
        spec, min_games=max(spec.min_games, rules.min_games_after_cut(t))
    )
    for cut in cuts:
        inside = [g for g in games if g.round <= cut]
        cut_spec = spec if cut == last else after_cut
        if len(inside) < cut_spec.min_games:
            break
        if cut != last and not _mix_reachable(inside, cut_spec):
            continue
        after = [
            Ignored(
                g.round,
                g.opponent,
                g.code,
                rules.after_norm_article,
                f"played after the norm was achieved in round {cut}",
                optional=True,
            )
            for g in games
            if g.round > cut
        ]
        if rules.may_ignore_wins(t) and (
            not rules.wins_need_complete_mix(t) or _mix_holds(games, spec)
        ):
            mandatory = [g for g in inside if not g.won]
            wins = [g for g in inside if g.won]
        else:
            mandatory, wins = inside, []
        drops = _Search(mandatory, wins, cut_spec).fewest_drops()
        if drops is None:
            continue
        drop_ids = {id(g) for g in drops}
        kept = [g for g in inside if id(g) not in drop_ids]
        dropped = [
            Ignored(
                g.round,
                g.opponent,
                g.code,
                rules.win_article,
                "won game left out: the norm holds without it",
                optional=True,
            )
            for g in drops
        ]
        verdict = _explain(kept, [*left_out, *after, *dropped], cut, cut_spec)
        if verdict.achieved or (spec.optimistic and verdict.possible):
            yield verdict
