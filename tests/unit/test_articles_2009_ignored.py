"""FIDE Title Regulations 2009 (``fide-2009``), 1.42e and 1.42f: games the player may ignore.

1.42e a won game may be left out if the opponent mix and the minimum games of 1.41 still
hold (not a draw or a loss); 1.42f games played after a norm was achieved before the last
round may be left out.

dp values from table 10.1a (reference §1.1): 78 % -> 220, 80 % -> 240, 75 % -> 193,
70 % -> 149, 67 % -> 125, 60 % -> 72, 55 % -> 36, 50 % -> 0.
"""

from __future__ import annotations

import pytest

from tests.support.builders import FIDE_2009, Opp, check, verdict
from tracker.norms.search import Verdict

FEDS = ("FRA", "ESP", "NED")


def field(results: str, rating: int = 2500, title: str | None = "GM") -> list[Opp]:
    return [(rating, title, FEDS[i % 3], r) for i, r in enumerate(results)]


def optional_ignored(v: Verdict) -> dict[int, str]:
    """Rounds the player chose to leave out, with the article allowing it."""
    return {i.round: i.article for i in v.ignored if i.optional}


# ----------------------------------------------------------------------------- 1.42e

# Nine GMs rated 2390: 7/9 = 78 % -> 220; 2390 + 220 = 2610, a GM norm.
# In round 3 an extra game against an opponent rated 2200 (= the GM floor, so 1.46c does not
# lift it). Counted, Ra = (9·2390 + 2200)/10 = 2371 < 2380 (1.48a): no norm over 10 games.
STRONG = field("111111=0=", rating=2390)  # 7 points


def with_low(result: str, title: str | None = "IM", fed: str = "FRA") -> list[Opp]:
    """``STRONG`` with the 2200 opponent inserted as round 3."""
    return [*STRONG[:2], (2200, title, fed, result), *STRONG[2:]]


def test_1_42e_won_game_against_a_low_rated_opponent_may_be_ignored() -> None:
    v = verdict(with_low("1"), rules=FIDE_2009)
    assert v.achieved
    assert v.games == 9
    assert optional_ignored(v) == {3: "1.42e"}
    assert v.average == 2390
    assert v.performance == 2610


@pytest.mark.parametrize("result", ["=", "0"])
def test_1_42e_draw_or_loss_may_not_be_ignored(result: str) -> None:
    """1.42e only lets the player leave out games they won: with a draw or a loss in round 3
    Ra stays 2371 < 2380 and there is no norm."""
    v = verdict(with_low(result), rules=FIDE_2009)
    assert not v.achieved
    assert v.average == 2371
    assert not check(v, "average rating")


def test_1_42e_won_game_may_not_be_ignored_if_the_title_mix_breaks() -> None:
    """1.42e: the mix must still hold. Here the 2200 opponent is one of only three GMs (the
    others: 2 GMs and 7 IMs); without them 2 GMs < 3 (1.45b)."""
    others = [
        (rating, "GM" if i < 2 else "IM", fed, r) for i, (rating, _, fed, r) in enumerate(STRONG)
    ]
    opponents = [*others[:2], (2200, "GM", "FRA", "1"), *others[2:]]
    v = verdict(opponents, rules=FIDE_2009)
    assert not v.achieved
    assert v.average == 2371


def test_1_42e_won_game_may_not_be_ignored_if_the_federation_rule_breaks() -> None:
    """1.42e: the 2200 opponent is the only one from a second foreign federation (the others:
    5 GER, 4 FRA); without them only one foreign federation is left (1.43)."""
    feds = ["GER"] * 5 + ["FRA"] * 4
    others = [(rating, t, fed, r) for (rating, t, _, r), fed in zip(STRONG, feds, strict=True)]
    opponents = [*others[:2], (2200, "IM", "ESP", "1"), *others[2:]]
    v = verdict(opponents, rules=FIDE_2009)
    assert not v.achieved
    assert v.average == 2371


def test_1_42e_won_game_may_not_be_ignored_below_nine_games() -> None:
    """1.42e with 1.41a: in 9 rounds, dropping the won game leaves 8. Eight GMs at 2390 with
    6½ (81 % -> 251 -> 2641) plus a win against 2200: Ra (8·2390 + 2200)/9 = 2368.9 -> 2369
    < 2380, and the 8 games alone are too few."""
    eight = field("111111=0", rating=2390)  # 6½
    opponents = [*eight[:2], (2200, "IM", "FRA", "1"), *eight[2:]]
    v = verdict(opponents, rules=FIDE_2009)
    assert not v.achieved
    assert v.games == 9
    assert v.average == 2369


def test_1_42e_leaves_out_the_fewest_wins_needed() -> None:
    """1.42e: the norm already holds with every game, so nothing is left out even though
    dropping the weakest win would also give a norm. 10 GMs at 2500, 7/10 = 70 % -> 149 ->
    2649."""
    v = verdict(field("1111111000"), rules=FIDE_2009)
    assert v.achieved
    assert v.games == 10
    assert optional_ignored(v) == {}


# ----------------------------------------------------------------------------- 1.42f


def test_1_42f_games_after_a_norm_before_the_last_round_are_ignored() -> None:
    """1.42f: 11 rounds, norm over the first 9 (6/9 = 67 % -> 125 -> 2625), losses in rounds
    10 and 11. Over 10 games 6/10 = 60 % -> 72 -> 2572 and over 11 6/11 = 55 % -> 36 -> 2536
    would fail."""
    v = verdict(field("111111000" + "00"), rules=FIDE_2009)
    assert v.achieved
    assert v.rounds_considered == 9
    assert v.games == 9
    assert v.performance == 2625
    assert optional_ignored(v) == {10: "1.42f", 11: "1.42f"}


def test_1_42f_cuts_only_a_tail_not_the_first_rounds() -> None:
    """1.42f ignores games *after* the norm: losses in rounds 1 and 2 followed by 6 from the
    last 9 rounds give nothing. First 9: 5/9 = 56 % -> 43 -> 2543; first 10: 5½/10 -> 2536
    (55 % -> 36); all 11: 6/11 -> 2536."""
    v = verdict(field("00" + "111======"), rules=FIDE_2009)
    assert not v.achieved


def test_1_42f_first_rounds_must_hold_the_mix() -> None:
    """1.42f with the mix: the third GM was met only in round 10, so the first 9 rounds
    (2 GMs, 7 IMs) are no norm although 6/9 -> 2625 is a GM performance."""
    titles = ["GM", "GM", *["IM"] * 7, "GM", "GM"]
    opponents = [
        (2500, t, FEDS[i % 3], r)
        for i, (t, r) in enumerate(zip(titles, "11111100000", strict=True))
    ]
    v = verdict(opponents, rules=FIDE_2009)
    assert not v.achieved


def test_1_42f_later_norm_is_preferred_when_it_also_holds() -> None:
    """1.42f is optional: if the norm also holds over all rounds no game is ignored. 11 GMs
    at 2500, 7/11 = 64 % -> 102 -> 2602."""
    v = verdict(field("111111000" + "10"), rules=FIDE_2009)
    assert v.achieved
    assert v.rounds_considered == 11
    assert optional_ignored(v) == {}
