"""FIDE Title Regulations 2024 (``fide-2024``), 1.4.2: games that do not count.

1.4.2a opponents of federations that are not FIDE members (players under the FIDE flag,
``FID``, are accepted); 1.4.2b unrated opponents who scored zero against rated opponents in
a round robin; 1.4.2c games not decided over the board, with the last-round forfeit rule.
Computers are not in the 2024 list; their games are not games under the FIDE Laws (1.1.1).

Every opponent is a GM rated 2500 from FRA, ESP or NED unless said otherwise: 6/9 = 67 % ->
125 -> 2625 is a norm.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.support.builders import FIDE_2024, Opp, check, record, verdict
from tracker.domain.titles import Title
from tracker.domain.tournaments import System
from tracker.norms.search import Verdict, evaluate

FEDS = ("FRA", "ESP", "NED")


def field(results: str, rating: int = 2500) -> list[Opp]:
    return [(rating, "GM", FEDS[i % 3], r) for i, r in enumerate(results)]


def articles(v: Verdict) -> dict[int, str]:
    return {i.round: i.article for i in v.ignored if not i.optional}


def test_1_4_2a_non_member_federation() -> None:
    v = verdict([*field("111111000"), (2500, "GM", "NON", "1")], rules=FIDE_2024)
    assert v.achieved
    assert v.games == 9
    assert articles(v) == {10: "1.4.2a"}


def test_1_4_2a_fid_players_are_accepted_as_opponents() -> None:
    """A game against a player under the FIDE flag counts (the game count and Ra)."""
    opponents = [*field("11111100"), (2500, "GM", "FID", "0")]
    v = verdict(opponents, rules=FIDE_2024)
    assert v.achieved
    assert v.games == 9
    assert articles(v) == {}


def test_1_4_2b_unrated_opponent_scoring_zero_in_a_round_robin() -> None:
    """8 GMs at 2550 and an unrated player (1400, raised to the floor 2200) beaten in round
    9. With that game: 6/9 -> 125; Ra (8·2550 + 2200)/9 = 2511; 2636."""
    opponents = [*field("11111000", 2550), (None, None, "FRA", "1")]
    me, cells, ctx = record(opponents, system=System.ROUND_ROBIN)
    counted = evaluate(me, cells, Title.GM, ctx, FIDE_2024)
    assert counted.achieved
    assert counted.average == 2511
    zero = dataclasses.replace(ctx, unrated_scored_zero=frozenset({10}))
    left_out = evaluate(me, cells, Title.GM, zero, FIDE_2024)
    assert not left_out.achieved
    assert articles(left_out) == {9: "1.4.2b"}


@pytest.mark.parametrize("code", ["+", "-", "W", "D", "L"])
def test_1_4_2c_games_not_played_over_the_board(code: str) -> None:
    v = verdict(field("1111" + code + "11000"), rules=FIDE_2024)
    assert v.achieved
    assert articles(v) == {5: "1.4.2c"}


def test_1_4_2c_last_round_forfeit_counts_as_a_loss_when_needed() -> None:
    """8 games, the last-round opponent (2300) forfeits: as a loss 6½/9 = 72 % -> 166,
    Ra 2478, 2644."""
    v = verdict([*field("111111=0"), (2300, "GM", "FRA", "+")], rules=FIDE_2024)
    assert v.achieved
    assert v.games == 9
    assert v.average == 2478
    assert "1.4.2c" in v.counted[-1].note


def test_computer_games_do_not_count_1_1_1() -> None:
    """9 rounds, the round-9 opponent a computer: 8 games and no bye or forfeit win, so not
    even 1.4.1c applies."""
    me, cells, ctx = record(field("111111000"))
    players = dict(ctx.players)
    players[10] = dataclasses.replace(players[10], computer=True)
    v = evaluate(me, cells, Title.GM, dataclasses.replace(ctx, players=players), FIDE_2024)
    assert not v.achieved
    assert not check(v, "games")
    assert articles(v) == {9: "1.1.1"}
