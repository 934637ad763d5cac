"""Everything derived from a tournament's facts after a given round: standings, live
ratings, the tournament-wide context of the norm rules, and every player's verdicts."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection, Iterator, Mapping, MutableMapping, Sequence
from fractions import Fraction

from tracker.domain.fraction_text import fraction_text
from tracker.domain.players import Player
from tracker.domain.rate_of_play import Pace, RateOfPlay, classify, rating_minimum
from tracker.domain.titles import Title
from tracker.engine.event_flags import (
    TournamentFlags,
    busiest_day,
    exemption_holds,
    swiss_exemption_by_round,
    tournament_flags,
)
from tracker.engine.state import TournamentState
from tracker.norms.live_rating import (
    EMPTY_TRACK,
    InterimRating,
    LiveTrack,
    RatedGame,
    first_reached,
    live_track,
)
from tracker.norms.search import Cell, Check, Context, Verdict, evaluate, norms_found


@dataclasses.dataclass(frozen=True, slots=True)
class NormEvent:
    """Whether the event can give title norms (and prospects) and title-by-rating levels,
    from its rate of play: the one place where that is decided."""

    rate: RateOfPlay
    norms: bool
    title_ratings: bool
    reason: str
    """How the rate of play was read and, when the event gives no norms, why."""
    check: Check | None
    """The requirement a norm of this event fails (in every evidence), or ``None``."""

    @property
    def flag(self) -> str:
        """``rate_of_play`` on a norm: ``standard``, or ``unknown`` (judged as standard)."""
        return Pace.STANDARD.value if self.rate.pace is Pace.STANDARD else Pace.UNKNOWN.value


def norm_event(state: TournamentState) -> NormEvent:
    """Whether the event can give title norms and title-by-rating levels, from its rate of play,
    where it was played and the edition's :attr:`norm_rate_minimum`.

    Reading [files 20] Is it a norm event (B.02 1.1; 2009 1.14; 2024 1.1.3; Laws of Chess
    A.1/B.1): the time control (TRF 122, else TRF26's 222) is read as each player's minutes for
    60 moves: the base time of every period that starts by move 60 plus 60 increments (``90
    min/40 moves + 30 min + 30 sec/move``: 150; ``40/120, 60``: 180; ``15 min + 10 sec/move``:
    25). Under 60 minutes the event is rapid, at 10 or under blitz (the Laws' appendices A.1,
    B.1); ``092`` words (``Rapid``, ``Blitz``, ``Standard``) decide only when there is no
    readable time control; a platform's address or "online" in any record (name, city, arbiter,
    092, 122) makes it online. Title norms and prospects need a standard event over the board
    with at least the rating regulations' minimum (B.02 2024 1.1: 120 minutes when a player is
    rated 2400 or more, 90 from 1800, 60 below; the strongest player of the field decides, so
    that every game is rated) and the edition's ``norm_rate_minimum`` (120 minutes: 2009 1.14,
    read from its summary table "not less than 120 minutes"; 2024 1.1.3 "2 hours for all moves,
    assuming 60 moves"; the pre-2009 summary states none); title-by-rating levels need the B.02
    minimum. Rapid, blitz and online events, and standard events with too little time, give
    round summaries with live ratings (the rapid and blitz rules of B.02 use the same K and
    rounding; the file's ratings are used as given), no norm, prospect or title-rating alert;
    ``round_finished`` says why (``not_a_norm_event``), as do ``tracker replay``'s header, the
    tournament view (``rate_of_play``, ``norm_event``, ``norm_event_reason``) and every norm
    evidence (a failed "rate of play" requirement). A file without a (readable) time control is
    judged as a standard event, as before, and its norms carry ``rate_of_play: unknown``. A bare
    ``N+I`` is read in minutes and seconds (``90+30``) unless ``N`` is 300 or more, or at least
    60 with an increment of at most 5 (``180+2``, ``60+0``: TRF26 seconds)."""
    t, rules = state.tournament, state.title_rules
    rate = classify(t.time_control, t.event_type, (t.name, t.city or "", t.chief_arbiter or ""))
    top = max((p.rating for p in state.players.values() if p.rating is not None), default=None)
    rated_from = rating_minimum(top)
    title_minimum = rules.norm_rate_minimum
    need = max(rated_from, title_minimum[0] if title_minimum else 0)
    article = f"{title_minimum[1]}, B.02 1.1" if title_minimum else "B.02 1.1"
    needed = f"standard chess over the board, ≥ {need} min for 60 moves"
    described = rate.describe()
    if rate.online or rate.pace in (Pace.RAPID, Pace.BLITZ):
        what = "an online event" if rate.online else f"a {rate.pace.value} event"
        reason = (
            f"{what} ({rate.detail()}): title norms and title ratings come only from "
            "standard games over the board (B.02 1.1)"
        )
        actual = f"online, {described}" if rate.online else described
        return NormEvent(
            rate, False, False, reason, Check(article, "rate of play", needed, actual, False)
        )
    minutes = rate.minutes
    if minutes is None:
        reason = f"rate of play {described}: judged as a standard event"
        return _scheduled(state, rate, reason, rated_from)
    ratings_ok = minutes >= rated_from
    norms_ok = ratings_ok and minutes >= need
    if norms_ok:
        reason = f"{described}, at least the {need} min of {article}"
        return _scheduled(state, rate, reason, rated_from)
    if ratings_ok:
        reason = (
            f"{described}: rated, but a norm event needs ≥ {need} min for 60 moves "
            f"({title_minimum[1] if title_minimum else 'B.02 1.1'})"
        )
    else:
        reason = (
            f"{described}: fewer than the {rated_from} min for 60 moves B.02 1.1 asks when a "
            f"player is rated {top}: no norms, no title ratings"
        )
    return NormEvent(
        rate, False, ratings_ok, reason, Check(article, "rate of play", needed, described, False)
    )


_DAY_MINUTES = 24 * 60


def _scheduled(state: TournamentState, rate: RateOfPlay, reason: str, rated_from: int) -> NormEvent:
    """A standard event's schedule, from the round dates or the start and end dates
    (:func:`busiest_day`): no norms and no title ratings, with the article, when

    * a day holds more rounds than a standard event can: each round takes at least twice
      the B.02 1.1 minimum for 60 moves (both clocks), and a day has 24 hours (a one-day
      event of 9 rounds of a field rated 2400 needs 36 hours: it is not standard);
    * more rounds are played on a day than the edition allows (2009 1.13, 2024 1.1.3:
      two);
    * a day's play exceeds the edition's hours (2009 1.12, 2024 1.1.2: 12, assuming 60
      moves), where the rate of play gives the time for 60 moves.

    Reading [issue-19 20] The schedule (2009 1.12/1.13, 2024 1.1.2/1.1.3): the busiest day comes
    from 132, else from 042/052 against the planned rounds (⌈n/d⌉); more than two rounds on it,
    or more than 12 hours (rounds × both clocks' time for 60 moves), or more rounds than 24
    hours hold at twice the B.02 1.1 minimum (a one-day event of 9 rounds of a field rated
    2400+): 1.1 is the administration of every title (of 0.31, 2009; 0.6, 2024), so the event
    gives neither norms nor title levels (title-by-rating levels included), as a rapid event
    does. The pre-2009 summary states no limit."""
    busiest = busiest_day(state.tournament)
    rules = state.title_rules
    if busiest is None:
        return NormEvent(rate, True, True, reason, None)
    rounds, known = busiest
    shortest = 2 * (rate.minutes if rate.minutes is not None else rated_from)
    problem: tuple[str, str, str] | None = None
    if rounds * 2 * rated_from > _DAY_MINUTES:
        problem = (
            "B.02 1.1",
            f"a round of standard chess takes at least {2 * rated_from} min (both clocks, "
            f"{rated_from} min each for 60 moves, B.02 1.1): a day holds fewer than {rounds}",
            "standard rounds a day hold",
        )
    elif rules.max_rounds_per_day and rounds > rules.max_rounds_per_day[0]:
        most, article = rules.max_rounds_per_day
        problem = (article, f"no more than {most} rounds a day ({article})", f"≤ {most} a day")
    elif rules.max_hours_per_day and rounds * shortest > 60 * rules.max_hours_per_day[0]:
        hours, article = rules.max_hours_per_day
        problem = (
            article,
            f"no more than {hours} hours of play a day ({article}, 60 moves: "
            f"{fraction_text(Fraction(rounds * shortest, 60))} h)",
            f"≤ {hours} h a day",
        )
    if problem is None:
        return NormEvent(rate, True, True, reason, None)
    article, rule, needed = problem
    why = f"{known}: {rule}; no title norms and no title ratings (as for a rapid event)"
    return NormEvent(rate, False, False, why, Check(article, "schedule", needed, known, False))


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerRound:
    """One player's standing after a round."""

    player: Player
    cells: tuple[Cell, ...]
    score: Fraction
    live: InterimRating | None
    reached: dict[Title, InterimRating]
    """Title levels reached (announced as ``title_rating_reached``)."""
    live_only: dict[Title, InterimRating] = dataclasses.field(default_factory=dict)
    """Levels of titles by rating reached only live where the edition asks for a published
    rating (2009 1.3): said in the round summary, never announced as reached."""
    track: LiveTrack = dataclasses.field(default=EMPTY_TRACK, repr=False)
    """The live ratings so far, which the next round's standings extend."""
    first: Mapping[Title, InterimRating] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )
    """Every level first reached so far (:func:`first_reached`), published or not, which
    the next round's standings extend."""

    @property
    def half_points(self) -> int:
        """The score in half points."""
        score = self.score
        return 2 * score.numerator // score.denominator


def context(
    state: TournamentState,
    up_to: int,
    cells: Mapping[int, Sequence[Cell]] | None = None,
    gate: NormEvent | None = None,
) -> Context:
    """The tournament-wide facts after round ``up_to``; ``cells`` and ``gate`` (the
    :func:`norm_event`) when already worked out."""
    if gate is None:
        gate = norm_event(state)
    if cells is None:
        cells = state.all_cells(up_to)
    t, rules = state.tournament, state.title_rules
    last_only = not rules.swiss_exemption_per_round
    by_round = swiss_exemption_by_round(t, state.players, cells, up_to, rules, last_only=last_only)
    exempt = exemption_holds(by_round, rules)
    possible = exempt
    if not exempt and any(p.federation is None for p in state.players.values()):
        # players of unknown federation may make it hold: the norms say it depends on them
        possible = exemption_holds(
            swiss_exemption_by_round(
                t, state.players, cells, up_to, rules, last_only=last_only, optimistic=True
            ),
            rules,
        )
    return Context(
        tournament=t,
        players=dict(state.players),
        swiss_exempt=exempt,
        unrated_scored_zero=unrated_scoring_zero(state, cells),
        game_date_ratings=rules.uses_game_date_ratings(t),
        swiss_exempt_possible=possible,
        event_check=gate.check,
    )


def flags(state: TournamentState, up_to: int, rows: list[PlayerRound]) -> TournamentFlags:
    """The tournament-level facts carried on the norm alerts of round ``up_to``."""
    cells = {row.player.rank: row.cells for row in rows}
    return tournament_flags(state.tournament, state.players, cells, up_to, state.title_rules)


def unrated_scoring_zero(
    state: TournamentState, cells: Mapping[int, Sequence[Cell]]
) -> frozenset[int]:
    """Unrated players of a round robin who have played rated opponents and scored nothing
    against them (1.42d of 2009)."""
    if not state.tournament.system.predetermined:
        return frozenset()
    zero: set[int] = set()
    for rank, player in state.players.items():
        if player.rating is not None:
            continue
        against_rated = [
            c
            for c in cells.get(rank, ())
            if c.opponent is not None
            and c.code.over_the_board
            and state.players[c.opponent].rating is not None
        ]
        if against_rated and sum(c.code.points for c in against_rated) == 0:
            zero.add(rank)
    return frozenset(zero)


def standings(
    state: TournamentState,
    up_to: int,
    since: Sequence[PlayerRound] | None = None,
    gate: NormEvent | None = None,
) -> list[PlayerRound]:
    """Every player after round ``up_to``, best score first (then start rank). ``since``:
    the standings after round ``up_to - 1`` of the same facts and players, which are
    extended by round ``up_to`` alone (its cells, score, live rating and the levels it
    reaches: what the whole record gives, as ``tests/unit/test_incremental.py`` checks);
    ``gate``: the :func:`norm_event`, when already worked out."""
    if since is None:
        cells = state.all_cells(up_to)
        new: dict[int, list[Cell]] = {}
        previous: dict[int, PlayerRound] = {}
    else:
        rnd = state.rounds.get(up_to)
        new = {rank: [cell] for rank, cell in rnd.cells(up_to)} if rnd is not None else {}
        previous = {row.player.rank: row for row in since}
    players = state.players
    rating_rules = state.rating_rules
    rules = state.title_rules
    min_games = rules.rating_title_min_games
    on = state.tournament.start_date
    published = rules.needs_published_rating
    # a level reached live is said only where the event's games count for title ratings
    said = (norm_event(state) if gate is None else gate).title_ratings
    keyed: list[tuple[int, int, PlayerRound]] = []
    for rank, player in players.items():
        before = previous.get(rank)
        if before is None:
            mine = tuple(cells.get(rank, ()))
            added: Sequence[Cell] = mine
            half_points = 0
            track = EMPTY_TRACK
            first: Mapping[Title, InterimRating] | None = None
        else:
            added = new.get(rank, ())
            if not added:  # absent from the round: the same standing
                keyed.append((-before.half_points, rank, before))
                continue
            mine = before.cells + tuple(added)
            half_points = before.half_points
            track = before.track
            first = before.first
        games: list[tuple[int, tuple[RatedGame]]] = []
        for c in added:
            half_points += c.code.half_points
            if c.opponent is not None:
                games.append((c.round, (RatedGame(players[c.opponent].rating, c.code),)))
        if games or before is None:
            known = len(track.interims)
            track = live_track(player, games, rating_rules, on, since=track)
            start = player.rating or 0
            if first is None or any(i.rating > start for i in track.interims[known:]):
                titles = rules.rating_level_titles(player)
                first = first_reached(player, track.interims[known:], titles, min_games, first)
        assert first is not None
        interims = track.interims
        if before is not None and first is before.first:  # no level reached since
            reached, live_only = before.reached, before.live_only
        else:
            reached = {t: r for t, r in first.items() if not published(t)}
            live_only = {t: r for t, r in first.items() if said and published(t)}
        row = PlayerRound(
            player=player,
            cells=mine,
            score=_half(half_points),
            live=interims[-1] if interims else None,
            reached=reached,
            live_only=live_only,
            track=track,
            first=first,
        )
        keyed.append((-half_points, rank, row))
    keyed.sort(key=_by_score)
    return [row for _, _, row in keyed]


@functools.cache
def _half(half_points: int) -> Fraction:
    """A score of ``half_points`` half points (one value per score, shared)."""
    return Fraction(half_points, 2)


def _by_score(item: tuple[int, int, PlayerRound]) -> tuple[int, int]:
    return item[0], item[1]


Key = tuple[int, Title]
"""A player's start rank and a norm title."""


class Norms(MutableMapping[Key, Verdict]):
    """The norms of a round by player and title (:func:`achieved_norms`): which there are is
    decided at once, a verdict (the evidence) is made when first asked for where the search
    could tell without it (:func:`~tracker.norms.search.norms_found`). The round's alerts
    ask for the verdicts of the norms they announce; a norm in force is only looked up."""

    __slots__ = ("_found",)

    def __init__(self) -> None:
        self._found: dict[Key, Verdict | Callable[[], Verdict]] = {}

    def __getitem__(self, key: Key) -> Verdict:
        found = self._found[key]
        if not isinstance(found, Verdict):
            found = self._found[key] = found()
        return found

    def __setitem__(self, key: Key, verdict: Verdict | Callable[[], Verdict]) -> None:
        self._found[key] = verdict

    def __delitem__(self, key: Key) -> None:
        del self._found[key]

    def __contains__(self, key: object) -> bool:
        return key in self._found  # without making the verdict

    def __iter__(self) -> Iterator[Key]:
        return iter(self._found)

    def __len__(self) -> int:
        return len(self._found)


def achieved_norms(
    state: TournamentState,
    rows: list[PlayerRound],
    ctx: Context,
    before: Collection[Key] | None = None,
) -> Norms:
    """Every (player, title) with a norm from the rows' rounds, in the :func:`context` of
    those rounds. ``before``: the norms of the round before that this search builds on
    (:func:`norms_before`)."""
    found = Norms()
    eligible = state.title_rules.eligible_norm_titles
    known = frozenset(() if before is None else before)
    ranks = {rank for rank, _ in known}
    for row in rows:
        titles = eligible(row.player)
        if not titles:
            continue
        rank = row.player.rank
        held: Sequence[Title] | None = None
        if before is not None:
            held = [t for t in titles if (rank, t) in known] if rank in ranks else ()
        for title, verdict in norms_found(
            row.player, row.cells, titles, ctx, state.title_rules, held
        ).items():
            found[(rank, title)] = verdict
    return found


def norms_before(
    state: TournamentState, number: int, ctx: Context, before: Context, norms: Collection[Key]
) -> Collection[Key] | None:
    """The norms of round ``number - 1`` (``norms``, found in the context ``before``, on the
    same facts), where the search after round ``number`` may build on them (1.42f of 2009,
    1.4.1e of 2024 in a Swiss: the games after a norm may be left out, with the minimum
    number of games still there); ``None`` where it may not.

    Every attempt of the search on the record of round ``number - 1`` is one on the record
    of round ``number`` with its last round cut, judged by the same requirements: those read
    the same context, the earlier games count as they did, and each quick test of the search
    only gets easier with a game more. So a norm found before is found again, and is not
    searched for (its verdict, which may now use the new round's game, is made when asked
    for); a norm not found before can come only from the whole record, which alone is tried
    (:func:`~tracker.norms.search.norms_found`).

    Only where the argument holds: an edition that lets the games after a norm go, asking
    no more games of a record cut after the norm than of any (1.42f: "provided the minimum
    number of games of 1.41 still holds"); a Swiss (a round robin's view also holds the
    norms certain before they are achieved, which the search does not find; 1.42d takes
    games against an unrated player in or out with other players' results; a double round
    robin's mix counts each opponent once); and the context the requirements and the games
    read the same (the Swiss exemption of either reading, which can start to hold or, in
    2024, stop; the event's own failed requirement; the unrated players with no point
    against rated ones; the ratings at the date of each game).
    The search's two attempts that are no tail cut need no condition: 1.4.1c's 8 games of 9
    rounds and 1.42c's last-round forfeit counted as a loss give a norm only after the last
    round, never one a later round builds on, and are tried as before.
    ``tests/unit/test_norms_before.py`` compares the norms with the search's from scratch,
    round by round."""
    t, rules = state.tournament, state.title_rules
    if (
        t.system.predetermined
        or not rules.may_ignore_after_norm(t)
        or rules.min_games_after_cut(t) > rules.min_games(t)[0]
        or _reads(ctx) != _reads(before)
    ):
        return None
    return norms


def _reads(ctx: Context) -> tuple[object, ...]:
    """What of a round's context the requirements of a norm and its games read."""
    return (
        ctx.swiss_exempt,
        ctx.swiss_exempt_possible,
        ctx.event_check,
        ctx.unrated_scored_zero,
        ctx.game_date_ratings,
    )


def verdict_for(state: TournamentState, rank: int, title: Title, up_to: int) -> Verdict:
    """The full verdict, failed or not, for the arbiter's breakdown."""
    player = state.players[rank]
    cells = state.all_cells(up_to)
    ctx = context(state, up_to, cells)
    return evaluate(player, cells.get(rank, []), title, ctx, state.title_rules)
