"""The same record judged by ``fide-2009`` and ``fide-pre-2009`` where the editions differ
(reference §4 and §5), and the edition in force on each side of 1 July 2009.

Pre-2009 articles are the German summary's sections (2.1 … 2.5); 2009 articles are those of
the Russian text (1.41a … 1.49). dp from table 10.1a (reference §1.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from tests.support.builders import FIDE_2009, PRE_2009, Opp, check, player, verdict
from tracker.domain.tournaments import EventKind
from tracker.norms.search import Verdict
from tracker.rules import TitleRules, title_rules_in_force

FEDS = ("FRA", "ESP", "NED")
WOMAN = player(1, 2300, None, "GER", sex="w")
BOTH = pytest.mark.parametrize("rules", [FIDE_2009, PRE_2009], ids=lambda r: r.name)


def field(
    results: str, rating: int = 2500, titles: Sequence[str | None] | None = None
) -> list[Opp]:
    ts = list(titles) if titles is not None else ["GM"] * len(results)
    return [(rating, t, FEDS[i % 3], r) for i, (t, r) in enumerate(zip(ts, results, strict=True))]


def judge(opponents: list[Opp], rules: TitleRules, title: str = "GM") -> Verdict:
    candidate = WOMAN if title in ("WGM", "WIM") else None
    return verdict(opponents, title=title, rules=rules, candidate=candidate)


def expected(rules: TitleRules, new: object, old: object) -> object:
    return new if rules is FIDE_2009 else old


# ----------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("on", "rules"),
    [
        (date(2009, 6, 30), PRE_2009),
        (date(2009, 7, 1), FIDE_2009),
        (date(1990, 1, 1), PRE_2009),
        (date(2012, 6, 30), FIDE_2009),  # the last day before its 2012 revision
    ],
)
def test_edition_in_force_changes_on_1_july_2009(on: date, rules: TitleRules) -> None:
    """2009 header: the regulations "come into force on 01.07.2009"."""
    chosen = title_rules_in_force(on)
    assert chosen is rules
    assert chosen.name == rules.name


# ----------------------------------------------------------------------------- averages


@BOTH
@pytest.mark.parametrize(("ra", "new", "old"), [(2380, True, False), (2381, True, True)])
def test_minimum_average_2380_vs_2381(rules: TitleRules, ra: int, new: bool, old: bool) -> None:
    """2009 1.48a: Ra ≥ 2380; pre-2009 2.5: Ra ≥ 2381. 8/9 -> +351 clears every
    performance level."""
    v = judge(field("111111110", ra), rules)
    assert v.average == ra
    assert v.achieved is expected(rules, new, old)
    assert check(v, "average rating") is expected(rules, new, old)


# ----------------------------------------------------------------------------- performance


@BOTH
@pytest.mark.parametrize(("ra", "new", "old"), [(2475, True, False), (2476, True, True)])
def test_performance_2600_vs_2601(rules: TitleRules, ra: int, new: bool, old: bool) -> None:
    """2009 1.48: Rp ≥ 2600; pre-2009 2.5: Rp ≥ 2601. 6/9 -> +125: 2475 gives 2600."""
    v = judge(field("111111000", ra), rules)
    assert v.performance == ra + 125
    assert v.achieved is expected(rules, new, old)


@BOTH
@pytest.mark.parametrize(
    ("title", "ra"), [("IM", 2325), ("WGM", 2275), ("WIM", 2125)], ids=["IM", "WGM", "WIM"]
)
def test_performance_levels_of_the_other_titles_differ_by_one(
    rules: TitleRules, title: str, ra: int
) -> None:
    """2009: 2450 / 2400 / 2250; pre-2009: 2451 / 2401 / 2251. Ra + 125 hits the 2009
    level exactly."""
    v = judge(field("111111000", ra), rules, title)
    assert v.achieved is expected(rules, True, False)


# ----------------------------------------------------------------------------- raising


@BOTH
def test_one_vs_two_opponents_raised(rules: TitleRules) -> None:
    """2009 1.46c: one opponent raised, to 2200; pre-2009 2.4: two, to 2250. Seven GMs at
    2450 and two at 1800, 7/9 -> +220:
    2009: (7·2450 + 2200 + 1800)/9 = 2350 < 2380, no norm;
    pre-2009: (7·2450 + 2·2250)/9 = 2405.6 -> 2406; 2626 ≥ 2601, norm."""
    opponents = [*field("111111=", 2450), (1800, "GM", "FRA", "="), (1800, "GM", "ESP", "0")]
    v = judge(opponents, rules)
    assert v.average == expected(rules, 2350, 2406)
    assert len(v.raised) == expected(rules, 1, 2)
    assert v.achieved is expected(rules, False, True)


# ----------------------------------------------------------------------------- unrated


@BOTH
@pytest.mark.parametrize(
    ("title", "new", "old"),
    [(None, 1200, 1400), ("GM", 2300, 1400), ("WFM", 1900, 1400)],
)
def test_unrated_opponent_1200_vs_1400(
    rules: TitleRules, title: str | None, new: int, old: int
) -> None:
    """2009 1.46d: unrated = the rating floor, 1200 (1.46e: titled ones at fixed values);
    pre-2009 2.4: unrated = "currently 1400", whatever their title."""
    v = judge([(None, title, "FRA", "="), *field("========")], rules)
    assert v.counted[0].rating == expected(rules, new, old)


@BOTH
def test_unrated_average_and_rated_status(rules: TitleRules) -> None:
    """Three unrated untitled opponents and six GMs at 2600, 7/9 -> +220.
    2009: one raised to 2200, two at 1200: (15600 + 2200 + 2·1200)/9 = 2244.4 -> 2244; and 3
    unrated > ⌊10/5⌋ = 2 (a raised one is still unrated).
    pre-2009: two raised to 2250 (now rated), one at 1400: (15600 + 4500 + 1400)/9 = 2389;
    1 unrated ≤ 2; 2389 + 220 = 2609: norm."""
    unrated = [(None, None, "FRA", "="), (None, None, "ESP", "="), (None, None, "NED", "0")]
    v = judge([*unrated, *field("111111", 2600)], rules)
    assert v.average == expected(rules, 2244, 2389)
    assert check(v, "unrated opponents") is expected(rules, False, True)
    assert v.achieved is expected(rules, False, True)


# ----------------------------------------------------------------------------- titles


@BOTH
def test_fm_for_a_wgm_norm_weighted_vs_fixed(rules: TitleRules) -> None:
    """FMs count for a WGM norm in both editions, but differently. 12 games:
    2009 1.45d: ⌈12/3⌉ = 4 WGM-equivalents, 3 FMs = 3: no norm;
    pre-2009 2.3: "3 of GM, IM, WGM, FM": 3 FMs suffice.
    Title-holders: 2009 ⌈12/2⌉ = 6, pre-2009 ⌈13/2⌉ = 7; 4 WFMs + 3 FMs = 7.
    All draws against 2450 (≥ 2401). FMs last, so cutting rounds only loses FMs."""
    titles = [None] * 5 + ["WFM"] * 4 + ["FM"] * 3
    v = judge(field("=" * 12, 2450, titles), rules, "WGM")
    assert v.achieved is expected(rules, False, True)
    assert check(v, "WGM title mix") is expected(rules, False, True)


@BOTH
def test_fm_for_a_wim_norm_weighted_vs_fixed(rules: TitleRules) -> None:
    """9 games, 1 FM and 2 WIMs: 2009 1.45e: 1.5 + 2 = 3.5 ≥ 3, norm; pre-2009 2.3: neither
    "3 WIM" nor "2 of GM, IM, WGM, FM", no norm. All draws against 2300."""
    titles = [None] * 4 + ["WFM", "WFM", "FM", "WIM", "WIM"]
    v = judge(field("=" * 9, 2300, titles), rules, "WIM")
    assert v.achieved is expected(rules, True, False)


@BOTH
@pytest.mark.parametrize(
    ("title", "titles", "new", "old"),
    [
        # IM norm, 12 games: 2009 needs 4 IM-equivalents, 2 GMs = 3; pre-2009 "2 GM" suffices
        pytest.param("IM", [None] * 5 + ["FM"] * 5 + ["GM"] * 2, False, True, id="IM-2GM-12g"),
        # GM norm, 12 games: 2009 needs 4 GMs; pre-2009 "3 GM"
        pytest.param("GM", [None] * 5 + ["IM"] * 4 + ["GM"] * 3, False, True, id="GM-3GM-12g"),
        # IM norm, 9 games, 1 GM + 2 IMs: 1.5 + 2 = 3.5 (2009); "2 IM + 1 GM" (pre-2009)
        pytest.param("IM", [None] * 4 + ["FM"] * 2 + ["GM", "IM", "IM"], True, True, id="IM-agree"),
        # IM norm, 9 games, 1 GM + 1 IM: 2.5 < 3 (2009); no combination (pre-2009)
        pytest.param("IM", [None] * 4 + ["FM"] * 3 + ["GM", "IM"], False, False, id="IM-neither"),
    ],
)
def test_weighted_vs_fixed_title_combinations(
    rules: TitleRules, title: str, titles: list[str | None], new: bool, old: bool
) -> None:
    """2009 1.45b–e weigh titles against a third of the games; pre-2009 2.3 lists fixed
    combinations. All draws against opponents above both editions' performance levels; the
    scarce titles are met last so that cutting rounds cannot help."""
    rating = {"GM": 2650, "IM": 2500}[title]
    v = judge(field("=" * len(titles), rating, titles), rules, title)
    assert v.achieved is expected(rules, new, old)
    assert check(v, f"{title} title mix") is expected(rules, new, old)


@BOTH
def test_title_holders_half_of_opponents_vs_half_of_all_players(rules: TitleRules) -> None:
    """10 games, untitled candidate, 5 titled opponents: 2009 1.45a ⌈10/2⌉ = 5, norm;
    pre-2009 2.3: 11 players -> 6 titled, no norm. Untitled opponents first."""
    titles = [None] * 5 + ["GM"] * 5
    v = judge(field("=" * 10, 2650, titles), rules)
    assert v.achieved is expected(rules, True, False)
    assert check(v, "title-holders") is expected(rules, True, False)


# ----------------------------------------------------------------------------- other rules


@BOTH
def test_minimum_score_35_percent_only_in_2009(rules: TitleRules) -> None:
    """2009 1.49: at least 35 %; pre-2009: no minimum score (engine reading). 3/9 = 33 %
    -> -125 against 2800: 2675."""
    v = judge(field("000000111", 2800), rules)
    assert v.performance == 2675
    assert v.achieved is expected(rules, False, True)


@BOTH
def test_thirteen_game_cap_only_in_2009(rules: TitleRules) -> None:
    """2009 1.49: more than 13 rounds count as 13 games; pre-2009 has no cap. 14 rounds at
    Ra 2500, 9/14 = 64 % -> 102 -> 2602 (a norm in both; 8½ -> 2580 is not)."""
    v = judge(field("1" * 9 + "0" * 5), rules)
    assert v.achieved
    assert v.credited_games == expected(rules, 13, 14)


@BOTH
def test_one_federation_cap_two_thirds_vs_none_for_host(rules: TitleRules) -> None:
    """2009 1.44a: at most ⌊2·9/3⌋ = 6 from one federation; pre-2009 2.2 sets no such cap
    for a candidate of the host nation. 7 FRA + 2 ESP, all draws against 2650."""
    v = judge([(2650, "GM", f, "=") for f in ["FRA"] * 7 + ["ESP"] * 2], rules)
    assert v.achieved is expected(rules, False, True)


@BOTH
def test_zonal_exemption_only_in_2009(rules: TitleRules) -> None:
    """2009 1.43c exempts zonals from the federation rules; pre-2009 2.2 does not. Nine
    opponents from the candidate's own federation."""
    v = verdict([(2650, "GM", "GER", "=")] * 9, rules=rules, kinds=(EventKind.ZONAL,))
    assert v.achieved is expected(rules, True, False)
