"""Live (interim) standard ratings: the rating change of B.02 8.3 computed game by game.

A player's rating after some rounds is their start rating plus the change of all their
rated games so far, computed as FIDE computes a rating period (B.02 8.3.1 to 8.3.4):

* only games played over the board (B.02 5.1) against a rated opponent count (8.3.1);
* D is capped by the edition's 350/400-point rule, PD comes from table 8.1.2 (8.1(b));
* the change is K × Σ(score − PD), rounded once on the total, 0.5 away from zero (8.3.4).

An unrated player has no interim rating (their first rating comes from 8.2, over whole
events); their change is 0 and :func:`interim_ratings` gives nothing.

A 1500 player with K 40 beating a 1900 player (rules of 2024): D = −400, PD = .08, change
40 × .92 = 36.8, rounded to 37.

>>> from tracker.rules.rating import rating_rules_named
>>> from tracker.domain.players import Player
>>> rules = rating_rules_named("rating-2024")
>>> player = Player(rank=1, name="A", federation="ENG", rating=1500, k_factor=40)
>>> rating_change(player, [RatedGame(1900, Code.WIN)], rules, date(2024, 5, 1))
37
>>> [(i.round, i.rating, i.change) for i in interim_ratings(player, [
...     (1, [RatedGame(1900, Code.WIN)]),
...     (2, [RatedGame(None, Code.WIN)]),
...     (3, [RatedGame(1600, Code.DRAW)]),
... ], rules, date(2024, 5, 1))]
[(1, 1537, 37), (2, 1537, 37), (3, 1542, 42)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from fractions import Fraction
from operator import attrgetter, itemgetter
from typing import NamedTuple

from tracker.domain.fide_tables import expected_hundredths
from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import RATING_TITLES, Title
from tracker.rules.rating import RatingRules

__all__ = [
    "EMPTY_TRACK",
    "InterimRating",
    "LiveTrack",
    "RatedGame",
    "first_reached",
    "interim_ratings",
    "k_factor",
    "live_track",
    "rated_games",
    "rating_change",
]


class RatedGame(NamedTuple):
    """One of the player's games, as the rating change reads it. A named tuple: the live
    ratings of every round build one per game played so far."""

    opponent_rating: int | None
    """The opponent's rating on the list in force; ``None`` for an unrated opponent."""
    code: Code
    """The player's own result letter."""

    @property
    def is_rated(self) -> bool:
        """Played over the board (B.02 5.1) against a rated player (8.3.1)."""
        return self.code.over_the_board and self.opponent_rating is not None


class InterimRating(NamedTuple):
    """The live rating after one round. A named tuple: one is built per round played so
    far, for every player, every round."""

    round: int
    rating: int
    """Start rating plus :attr:`change`."""
    change: int
    """Rating change of every rated game up to and including this round (8.3.2d, 8.3.4)."""
    rated_games: int | None = None
    """Rated games the player has played in all, this tournament's so far included; ``None``
    when the count before the tournament is unknown. 1.3 of the title regulations asks for
    30 for titles by rating achieved after 1 July 2017; the caller decides."""


def rated_games(games: Iterable[RatedGame]) -> list[RatedGame]:
    """The games that change the rating: over the board (B.02 5.1) against a rated
    opponent (8.3.1). Forfeits, games lost/won/drawn before a move, byes and games against
    unrated opponents are dropped.

    >>> len(rated_games([RatedGame(1800, Code.WIN), RatedGame(1800, Code.FORFEIT_WIN),
    ...                  RatedGame(1800, Code.WIN_NO_MOVE), RatedGame(None, Code.DRAW),
    ...                  RatedGame(None, Code.HALF_BYE)]))
    1
    """
    return [game for game in games if game.is_rated]


def k_factor(player: Player, rules: RatingRules, on: date, games_in_period: int) -> int:
    """The player's development coefficient K for a period with ``games_in_period`` rated
    games (B.02 8.3.3; 8.56 before 2022).

    ``player.k_factor``, a fact from the rating list, is used when known. Otherwise K is
    derived from the edition, in this order:

    1. a new player (``player.rated_games`` below 30) gets the new-player K; an unknown
       count means an established player;
    2. a junior (per the edition's junior rule, judged on ``on``) rated under 2300 gets the
       junior K; an unknown birth date means not a junior;
    3. a start rating of 2400 or more gets K 10, anything lower the middle K. The rule says
       K 10 "once a player's published rating has reached 2400 and remains at that level
       subsequently, even if the rating drops below 2400": that history is not known here,
       so the start rating is used (give ``player.k_factor`` when it matters).

    Either way the edition's K × n ≤ 700 rule (8.3.3, from 2022) is applied last.

    >>> from tracker.rules.rating import rating_rules_named
    >>> import dataclasses
    >>> from tracker.domain.players import Player
    >>> r2024, r2009 = rating_rules_named("rating-2024"), rating_rules_named("rating-2009")
    >>> p = Player(rank=1, name="A", federation="ENG", rating=2100)
    >>> k_factor(p, r2024, date(2024, 5, 1), 9), k_factor(p, r2009, date(2010, 5, 1), 9)
    (20, 15)
    >>> k_factor(dataclasses.replace(p, k_factor=40), r2024, date(2024, 5, 1), 20)
    35
    """
    if player.k_factor is not None:
        return rules.k_limited(player.k_factor, games_in_period)
    return rules.k_limited(_edition_k(player, rules, on), games_in_period)


def _edition_k(player: Player, rules: RatingRules, on: date) -> int:
    if player.rated_games is not None and player.rated_games < rules.new_player_games:
        return rules.k_new_player
    rating = player.rating
    junior = rules.junior
    if (
        junior is not None
        and player.birth_date is not None
        and junior.until.is_junior(player.birth_date, on)
        and (rating is None or rating < junior.below)
    ):
        return junior.k
    if rating is not None and rating >= rules.established_from:
        return rules.k_established
    return rules.k_below_established


def _raw_change(player_rating: int, games: Sequence[RatedGame], rules: RatingRules) -> Fraction:
    """Σ(score − PD) over ``games`` (all rated), before K (8.3.1, 8.3.2a-c)."""
    return Fraction(_hundredths(player_rating, games, rules), 100)


def _hundredths(player_rating: int, games: Sequence[RatedGame], rules: RatingRules) -> int:
    """Σ(score − PD) in hundredths, exact: scores and table 8.1.2 are in hundredths."""
    differences = [player_rating - _opponent(game) for game in games]
    cap = rules.difference_cap
    if cap is not None:
        differences = cap.effective_differences(player_rating, differences)
    hundredths = 0
    for game, d in zip(games, differences, strict=True):
        hundredths += _SCORE_HUNDREDTHS[game.code] - expected_hundredths(d)
    return hundredths


_SCORE_HUNDREDTHS = {code: int(code.points * 100) for code in Code}


def _opponent(game: RatedGame) -> int:
    assert game.opponent_rating is not None  # only rated games get here
    return game.opponent_rating


def rating_change(
    player: Player,
    games: Sequence[RatedGame],
    rules: RatingRules,
    on: date,
    games_in_period: int | None = None,
) -> int:
    """The rating change of ``games``, one tournament's, under ``rules`` (B.02 8.3).

    Games that are not rated are ignored (:func:`rated_games`). Each D is capped as the
    edition says (8.3.1; with the 2022 one-upgrade limit only the game with the greatest
    difference is capped), PD comes from table 8.1.2, and K × Σ(score − PD) is rounded
    once, 0.5 away from zero (8.3.2, 8.3.4). ``games_in_period`` is n for the K × n ≤ 700
    rule; it defaults to the number of rated games in ``games``. An unrated player gets 0.

    >>> from tracker.rules.rating import rating_rules_named
    >>> from tracker.domain.players import Player
    >>> rules = rating_rules_named("rating-2024")
    >>> p = Player(rank=1, name="A", federation="ENG", rating=2450, k_factor=10)
    >>> rating_change(p, [RatedGame(2415, Code.DRAW)], rules, date(2024, 5, 1))  # -0.5
    -1
    >>> rating_change(p, [RatedGame(2000, Code.DRAW), RatedGame(2450, Code.FORFEIT_WIN)],
    ...               rules, date(2024, 5, 1))  # D 450 counts as 400: PD .92, 10 x -.42
    -4
    """
    if player.rating is None:
        return 0
    counted = rated_games(games)
    if not counted:
        return 0
    n = len(counted) if games_in_period is None else games_in_period
    k = k_factor(player, rules, on, n)
    return rules.rounding.apply(k * _raw_change(player.rating, counted, rules))


def interim_ratings(
    player: Player,
    games_by_round: Iterable[tuple[int, Sequence[RatedGame]]],
    rules: RatingRules,
    on: date,
    games_in_period: int | None = None,
) -> list[InterimRating]:
    """The live rating after each round, rounds in increasing order.

    ``games_by_round`` pairs a round number with the player's games of that round (a
    mapping's ``.items()`` will do; rounds without a rated game still get an entry). Each
    entry is recomputed from all games so far, rounded once (8.3.4), never accumulated
    from rounded per-round changes. ``games_in_period`` is n for the K × n ≤ 700 rule,
    the same for every round; by default it is the number of rated games so far, i.e. the
    rating as if the period closed after that round. An unrated player gets ``[]``.
    """
    return list(live_track(player, games_by_round, rules, on, games_in_period).interims)


class LiveTrack(NamedTuple):
    """A player's live ratings up to some round, with what extending them to later rounds
    needs (:func:`live_track` with ``since``) instead of starting again from round 1."""

    interims: tuple[InterimRating, ...]
    played: tuple[RatedGame, ...]
    """The rated games so far: over the board, against a rated opponent."""
    hundredths: int
    """Σ(score − PD) of :attr:`played`, in hundredths, each game standing alone (the sum
    the 2022 one-upgrade cap recomputes from :attr:`played`)."""


EMPTY_TRACK = LiveTrack((), (), 0)


def live_track(
    player: Player,
    games_by_round: Iterable[tuple[int, Sequence[RatedGame]]],
    rules: RatingRules,
    on: date,
    games_in_period: int | None = None,
    since: LiveTrack = EMPTY_TRACK,
) -> LiveTrack:
    """:func:`interim_ratings` as a track; ``since``: the track of the rounds before those of
    ``games_by_round``, which it extends. Extending gives exactly what the whole record
    gives: the change is worked out again from every game so far, only the sum of the games
    standing alone is carried (an exact integer).

    >>> from tracker.rules.rating import rating_rules_named
    >>> rules, on = rating_rules_named("rating-2024"), date(2024, 5, 1)
    >>> p = Player(rank=1, name="A", federation="ENG", rating=1500, k_factor=40)
    >>> one, two = [(1, [RatedGame(1900, Code.WIN)])], [(2, [RatedGame(1600, Code.DRAW)])]
    >>> live_track(p, two, rules, on, since=live_track(p, one, rules, on)) == live_track(
    ...     p, one + two, rules, on)
    True
    """
    start = player.rating
    if start is None:
        return EMPTY_TRACK
    cap = rules.difference_cap
    separable = cap is None or not cap.once_per_tournament
    limit = cap.points if cap is not None and cap.applies_to(start) else None
    base_k = player.k_factor if player.k_factor is not None else _edition_k(player, rules, on)
    k_limited = rules.k_limited
    rounded = rules.rounding.apply_ratio
    before = player.rated_games
    played: list[RatedGame] = []  # since those of ``since``
    hundredths = since.hundredths
    result: list[InterimRating] = []
    count = len(since.played)
    for round_number, games in sorted(games_by_round, key=_ROUND_NUMBER):
        for game in games:
            opponent, code = game
            if opponent is None or not code.over_the_board:
                continue
            played.append(game)
            count += 1
            if separable:
                d = start - opponent
                if limit is not None:
                    d = limit if d > limit else -limit if d < -limit else d
                hundredths += 50 * code.half_points - expected_hundredths(d)
        if not separable:  # 2022's one upgrade per tournament depends on every game so far
            hundredths = _hundredths(start, [*since.played, *played], rules)
        n = count if games_in_period is None else games_in_period
        change = rounded(k_limited(base_k, n) * hundredths, 100) if count else 0
        total = None if before is None else before + count
        result.append(InterimRating(round_number, start + change, change, total))
    return LiveTrack(since.interims + tuple(result), since.played + tuple(played), hundredths)


_ROUND_NUMBER = itemgetter(0)


def first_reached(
    player: Player,
    interims: Sequence[InterimRating],
    titles: Iterable[Title],
    min_rated_games: int | None = None,
    before: Mapping[Title, InterimRating] | None = None,
) -> dict[Title, InterimRating]:
    """For each of ``titles`` (those whose level is news for the player: the edition's
    :meth:`~tracker.rules.TitleRules.rating_level_titles`) whose level (1.3, 1.52) is
    above the player's start rating, the first interim rating at or above that level.

    With ``min_rated_games`` (1.3: 30 rated games for ratings after 1 July 2017) a title by
    rating (FM, CM, WFM, WCM) is reached only by an interim rating with at least that many
    rated games behind it; when the count is unknown the rating is taken, and
    :attr:`InterimRating.rated_games` (``None``) says so.

    ``before``: what this gave for the interim ratings of the rounds before ``interims``
    (which are then only the later ones): a level reached then keeps its first interim
    rating, the others are looked for in ``interims`` alone; the result is what the whole
    list gives.

    >>> p = Player(rank=1, name="A", federation="ENG", rating=2190)
    >>> interims = [InterimRating(1, 2195, 5), InterimRating(2, 2203, 13)]
    >>> reached = first_reached(p, interims, [Title.WIM, Title.CM, Title.WFM])
    >>> {title.value: interim.round for title, interim in reached.items()}
    {'WIM': 2, 'CM': 2}
    >>> first_reached(p, interims[1:], [Title.WIM, Title.CM, Title.WFM], before={}) == reached
    True
    """
    start = player.rating
    reached: dict[Title, InterimRating] = {}
    best = max(map(_RATING, interims), default=None)
    if not before and (best is None or (start is not None and best <= start)):
        return reached  # no interim rating above the start: no level is news
    for title in titles:
        if before is not None and title in before:
            reached[title] = before[title]
            continue
        if best is None or title.level > best or (start is not None and start >= title.level):
            continue  # no interim rating reaches it, or the start rating did
        for interim in interims:
            if interim.rating >= title.level and _enough_games(title, interim, min_rated_games):
                reached[title] = interim
                break
    return reached


_RATING = attrgetter("rating")


def _enough_games(title: Title, interim: InterimRating, least: int | None) -> bool:
    if least is None or title not in RATING_TITLES or interim.rated_games is None:
        return True
    return interim.rated_games >= least
