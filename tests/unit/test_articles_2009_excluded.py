"""FIDE Title Regulations 2009 (``fide-2009``), 1.42a–d: games that do not count.

1.42a opponents from federations that are not FIDE members (``NON``); 1.42b computers;
1.42c games not decided over the board (forfeits ``+``/``-``, and ``W``/``D``/``L``: less
than one move), with the last-round forfeit rule; 1.42d unrated opponents who scored zero
against rated players in a round robin.

Unless a case says otherwise every opponent is a GM rated 2500 from FRA, ESP or NED (in
turn), so the title and federation rules always hold. 6/9 = 67 % -> dp 125 -> 2625 is a GM
norm; 5½/9 = 61 % -> 80 -> 2580 is not (table 10.1a, reference §1.1).
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.support.builders import FIDE_2009, Opp, check, record, verdict
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System
from tracker.norms.search import Verdict, evaluate

FEDS = ("FRA", "ESP", "NED")


def field(results: str, rating: int = 2500) -> list[Opp]:
    """One GM opponent per result letter, all rated ``rating``."""
    return [(rating, "GM", FEDS[i % 3], r) for i, r in enumerate(results)]


def judged(
    opponents: list[Opp],
    *,
    computer_round: int | None = None,
    scored_zero_round: int | None = None,
    **kw: object,
) -> Verdict:
    """Like ``verdict`` but can make the opponent of one round a computer (1.42b) or mark
    them as an unrated player who scored zero against rated players (1.42d)."""
    me, cells, ctx = record(opponents, **kw)  # type: ignore[arg-type]
    players = dict(ctx.players)
    zero: frozenset[int] = frozenset()
    if computer_round is not None:
        rank = computer_round + 1  # opponents get start ranks 2, 3, … in round order
        players[rank] = dataclasses.replace(players[rank], computer=True)
    if scored_zero_round is not None:
        zero = frozenset({scored_zero_round + 1})
    ctx = dataclasses.replace(ctx, players=players, unrated_scored_zero=zero)
    return evaluate(me, cells, Title.GM, ctx, FIDE_2009)


def ignored_articles(v: Verdict) -> dict[int, str]:
    return {i.round: i.article for i in v.ignored}


def mandatory(v: Verdict) -> set[int]:
    """Rounds left out because they cannot count (not by the player's choice)."""
    return {i.round for i in v.ignored if not i.optional}


# ----------------------------------------------------------------------------- 1.42a


def test_1_42a_game_against_a_non_member_federation_is_left_out() -> None:
    """1.42a: a 10-round record whose round-10 opponent is from a non-member federation is a
    norm over the other 9 games only."""
    opponents = [*field("111111000"), (2500, "GM", "NON", "1")]
    v = verdict(opponents, rules=FIDE_2009)
    assert v.achieved
    assert v.games == 9
    assert 10 not in {g.round for g in v.counted}
    assert ignored_articles(v) == {10: "1.42a"}
    assert mandatory(v) == {10}


def test_1_42a_non_member_opponent_leaves_too_few_games() -> None:
    """1.42a: in 9 rounds a non-member opponent leaves 8 games: no norm, although the same
    record against a member federation is one."""
    member = field("111111000")
    non_member = [*member[:8], (2500, "GM", "NON", "0")]
    assert verdict(member, rules=FIDE_2009).achieved
    v = verdict(non_member, rules=FIDE_2009)
    assert not v.achieved
    assert v.games == 8
    assert not check(v, "games")


# ----------------------------------------------------------------------------- 1.42b


def test_1_42b_game_against_a_computer_is_left_out() -> None:
    """1.42b: the computer's game (round 3 of 10) does not count; the other 9 make the
    norm."""
    v = judged(field("1101111000"), computer_round=3)  # 6/9 without round 3
    assert v.achieved
    assert v.games == 9
    assert ignored_articles(v) == {3: "1.42b"}


def test_1_42b_computer_opponent_leaves_too_few_games() -> None:
    """1.42b: 9 rounds with a computer among the opponents leave 8 games: no norm."""
    v = judged(field("111111000"), computer_round=9)
    assert not v.achieved
    assert v.games == 8
    assert ignored_articles(v) == {9: "1.42b"}


# ----------------------------------------------------------------------------- 1.42c


@pytest.mark.parametrize("code", ["+", "-", "W", "D", "L"])
def test_1_42c_game_not_played_over_the_board_is_left_out(code: str) -> None:
    """1.42c: a forfeit or a game of less than one move (round 5 of 10) does not count."""
    results = "1111" + code + "11000"
    v = verdict(field(results), rules=FIDE_2009)
    assert v.achieved
    assert v.games == 9
    assert 5 not in {g.round for g in v.counted}
    assert ignored_articles(v) == {5: "1.42c"}
    assert mandatory(v) == {5}


@pytest.mark.parametrize("code", ["+", "-", "W", "D", "L"])
def test_1_42c_game_not_played_over_the_board_leaves_too_few_games(code: str) -> None:
    """1.42c: in 9 rounds such a game before the last round leaves 8 games: no norm."""
    v = verdict(field("1111" + code + "1100"), rules=FIDE_2009)
    assert not v.achieved
    assert v.games == 8
    assert not check(v, "games")


@pytest.mark.parametrize(("code", "achieved"), [("+", False), ("1", True)])
def test_1_42c_forfeit_win_earns_no_point_for_the_norm(code: str, achieved: bool) -> None:
    """1.42c: 10 rounds, 5½ from 9 played games plus round 5 won.

    Won by forfeit: 5½/9 = 61 % -> 80 -> 2580, no norm. Won over the board it counts:
    6½/10 = 65 % -> 110 -> 2610, a norm."""
    v = verdict(field("1111" + code + "1=000"), rules=FIDE_2009)
    assert v.achieved is achieved


def test_1_42c_last_round_forfeit_keeps_a_norm_that_survives_a_loss() -> None:
    """1.42c: 8 games played, the round-9 (last-round) opponent forfeits. Counted as a loss
    the norm holds: 6½/9 = 72 % -> 166; Ra (8·2500 + 2300)/9 = 2477.8 -> 2478; 2644."""
    opponents = [*field("111111=0"), (2300, "GM", "FRA", "+")]
    v = verdict(opponents, rules=FIDE_2009)
    assert v.achieved
    assert v.games == 9
    assert v.score == 6.5
    assert v.average == 2478  # the scheduled opponent's rating is counted
    last = v.counted[-1]
    assert (last.round, last.code) == (9, Code.LOSS)
    assert "1.42c" in last.note


def test_1_42c_earlier_round_forfeit_is_not_rescued() -> None:
    """1.42c: the same 8 games with the forfeit in round 5 of 9: only the last round is
    rescued, so 8 games and no norm."""
    v = verdict(field("1111+11=0"), rules=FIDE_2009)
    assert not v.achieved
    assert v.games == 8


def test_1_42c_last_round_forfeit_is_no_help_when_a_loss_would_break_the_norm() -> None:
    """1.42c: 5½ from 8 games, last-round opponent forfeits. As a loss: 5½/9 = 61 % -> 80
    -> 2580 < 2600; the player could not have afforded to lose, so no norm (even though a
    win, 6½/9 -> 2666, would have been one)."""
    v = verdict(field("11111=00+"), rules=FIDE_2009)
    assert not v.achieved
    assert v.games == 8


def test_1_42c_own_last_round_forfeit_is_not_rescued() -> None:
    """1.42c: the rule helps a player whose opponent forfeits, not one who forfeits."""
    v = verdict(field("111111=0-"), rules=FIDE_2009)
    assert not v.achieved
    assert v.games == 8


def test_1_42c_last_round_forfeit_only_rescues_the_game_count() -> None:
    """1.42c: the forfeit may stand in for a game the player needed "to get the required
    number of games". With 9 games already played (10-round event) it is simply not a game.

    Played: 8½/9 against 2350 -> Ra 2350 < 2380, no norm. Counting the round-10 forfeit of a
    2800 as a loss would give Ra (9·2350 + 2800)/10 = 2395 and 8½/10 = 85 % -> 296 -> 2691,
    a norm the regulation does not give."""
    opponents = [*field("11111111=", rating=2350), (2800, "GM", "FRA", "+")]
    v = verdict(opponents, rules=FIDE_2009)
    assert not v.achieved
    assert v.games == 9


# ----------------------------------------------------------------------------- 1.42d

# A 10-player round robin: 8 rated GMs at 2550 and, in round 9, an unrated untitled player
# beaten by the candidate. With that game: 6/9 = 67 % -> 125; the unrated counts 1200 and
# is raised to the floor 2200 (1.46c/d): Ra (8·2550 + 2200)/9 = 2511.1 -> 2511; 2636.
UNRATED_LAST = [*field("11111000", rating=2550), (None, None, "FRA", "1")]


def test_1_42d_unrated_opponent_who_scored_zero_in_a_round_robin_is_left_out() -> None:
    v = judged(UNRATED_LAST, system=System.ROUND_ROBIN, scored_zero_round=9)
    assert not v.achieved
    assert v.games == 8
    assert ignored_articles(v) == {9: "1.42d"}


def test_1_42d_same_unrated_opponent_counts_when_they_scored() -> None:
    """1.42d: without the zero score the game counts and the norm holds (Ra 2511, 2636)."""
    v = judged(UNRATED_LAST, system=System.ROUND_ROBIN)
    assert v.achieved
    assert v.games == 9
    assert v.average == 2511
    assert v.performance == 2636


def test_1_42d_applies_only_to_round_robins() -> None:
    """1.42d speaks of round-robin tournaments: in a Swiss the game counts."""
    v = judged(UNRATED_LAST, system=System.SWISS, scored_zero_round=9)
    assert v.achieved
    assert v.games == 9


def test_1_42d_applies_only_to_unrated_opponents() -> None:
    """1.42d: a rated opponent who scored zero still counts."""
    rated_last = [*field("11111000", rating=2550), (2550, "GM", "FRA", "1")]
    v = judged(rated_last, system=System.ROUND_ROBIN, scored_zero_round=9)
    assert v.achieved
    assert v.games == 9
