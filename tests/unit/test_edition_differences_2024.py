"""The same record judged by ``fide-2009`` and ``fide-2024`` where the editions disagree
(reference §4), with the verdict of each, and the edition in force on each side of
1 January 2024.

2009 articles are those of the Russian text (1.41a …); 2024 ones those of the 2024 text
(1.4.1a …). dp from table 1.4.9 (= 8.1.1). Other differences are tested beside their
article: ratings at the game date (test_articles_2024_ratings), 30 rated games for titles by
rating and the 1.5.6 flag (test_articles_2024_award), the Swiss exemption in every round
(test_articles_2024_federations).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from tests.support.builders import FIDE_2009, FIDE_2009R2022, FIDE_2024, Opp, check, player, verdict
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System, Tournament
from tracker.norms.search import Cell, Context, Verdict, evaluate
from tracker.rules import TitleRules, title_rules_in_force

FEDS = ("FRA", "ESP", "NED")
WOMAN = player(1, 2300, None, "GER", sex="w")
BOTH = pytest.mark.parametrize("rules", [FIDE_2009, FIDE_2024], ids=lambda r: r.name)


def expected(rules: TitleRules, old: object, new: object) -> object:
    """The 2009 verdict, then the 2024 one."""
    return old if rules is FIDE_2009 else new


def field(
    results: str, rating: int = 2500, titles: Sequence[str | None] | None = None
) -> list[Opp]:
    ts = list(titles) if titles is not None else ["GM"] * len(results)
    return [(rating, t, FEDS[i % 3], r) for i, (t, r) in enumerate(zip(ts, results, strict=True))]


def judge(opponents: list[Opp], rules: TitleRules, title: str = "GM", **kw: object) -> Verdict:
    candidate = WOMAN if title in ("WGM", "WIM") else None
    return verdict(opponents, title=title, rules=rules, candidate=candidate, **kw)


# ----------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("on", "rules"),
    [
        (date(2023, 12, 31), FIDE_2009R2022),
        (date(2024, 1, 1), FIDE_2024),
        (date(2026, 5, 1), FIDE_2024),
    ],
)
def test_edition_in_force_changes_on_1_january_2024(on: date, rules: TitleRules) -> None:
    """The 2024 regulations are "applied from 1 January 2024"."""
    assert title_rules_in_force(on) is rules


# ----------------------------------------------------------------------------- titles


@BOTH
def test_fm_counts_toward_a_wgm_norm_only_in_2009(rules: TitleRules) -> None:
    """9 games, draws against 2450: 3 FMs and WFMs. 2009 1.45d: FM = 1 WGM, 3 ≥ 3: norm.
    2024 1.4.5d: WGMs, IMs or GMs only: 0 < 3, no norm."""
    v = judge(field("=" * 9, 2450, [None] * 4 + ["WFM"] * 2 + ["FM"] * 3), rules, "WGM")
    assert v.achieved is expected(rules, True, False)
    assert check(v, "WGM title mix") is expected(rules, True, False)


@BOTH
@pytest.mark.parametrize(
    ("title", "mo", "rating"),
    [
        pytest.param("IM", ["GM", "GM"], 2500, id="IM-2GM"),  # 2009: 1.5 + 1.5 = 3
        pytest.param("WGM", ["GM", "GM"], 2450, id="WGM-2GM"),  # 2009: 1.5 + 1.5 = 3
        pytest.param("WIM", ["GM", "WIM"], 2300, id="WIM-GM+WIM"),  # 2009: 2 + 1 = 3
        pytest.param("WIM", ["WGM", "IM"], 2300, id="WIM-WGM+IM"),  # 2009: 1.5 + 1.5 = 3
    ],
)
def test_weighted_gm_equivalences_only_in_2009(
    rules: TitleRules, title: str, mo: list[str], rating: int
) -> None:
    """9 draws; 3 qualifying opponents needed. 2009 weighs the higher titles (1.45c–e); 2024
    counts each qualifying opponent once (1.4.5c–e): 2 < 3."""
    titles = [None] * 4 + ["WFM"] * (5 - len(mo)) + mo
    v = judge(field("=" * 9, rating, titles), rules, title)
    assert v.achieved is expected(rules, True, False)


@BOTH
@pytest.mark.parametrize(("gms", "old", "new"), [(2, False, True), (3, True, True)])
def test_double_round_robin_counts(rules: TitleRules, gms: int, old: bool, new: bool) -> None:
    """A 6-player double round robin, 10 draws against 2650. 2009 1.45f: each opponent once,
    ⌈10/3⌉ = 4 different GMs over 10 games, or 3 over the first 9 rounds (1.42f cut).
    2024 1.4.5: half of 4, rounded up: 2 different GMs, and every round counts (1.4.1e)."""
    me = player(1, 2450, None, "GER")
    titles = ["GM"] * gms + ["IM"] * (5 - gms)
    others = {rank: player(rank, 2650, t, FEDS[rank % 3]) for rank, t in enumerate(titles, 2)}
    cells = [Cell(r, (r - 1) % 5 + 2, Code.DRAW) for r in range(1, 11)]
    t = Tournament("drr", date(2024, 3, 1), 10, System.DOUBLE_ROUND_ROBIN, host_federation="GER")
    v = evaluate(me, cells, Title.GM, Context(t, {1: me, **others}, False, frozenset()), rules)
    assert v.achieved is expected(rules, old, new)
    if v.achieved:
        assert v.games == expected(rules, 9 if gms == 3 else 10, 10)


# ----------------------------------------------------------------------------- ratings


@BOTH
def test_unrated_opponents_count_1200_in_2009_and_1400_in_2024(rules: TitleRules) -> None:
    """Eight GMs at 2614 and two unrated opponents; 7/10 = 70 % -> 149. The lower unrated
    is raised to the floor 2200 (1.46c / 1.4.6c), the other counts 1200 (1.46d) or 1400
    (1.4.6d): 2009 (8·2614 + 2200 + 1200)/10 = 2431.2 -> 2431, 2580: no norm;
    2024 (20912 + 2200 + 1400)/10 = 2451.2 -> 2451, 2600: norm. Losses first, then the
    draws against the unrated, then the wins."""
    unrated: list[Opp] = [(None, None, "FRA", "="), (None, None, "ESP", "=")]
    opponents = [*field("00", 2614), *unrated, *field("111111", 2614)]
    v = judge(opponents, rules)
    assert v.average == expected(rules, 2431, 2451)
    assert v.achieved is expected(rules, False, True)


@BOTH
def test_unrated_title_holder(rules: TitleRules) -> None:
    """An unrated GM: 2300 by 2009's 1.46e, 1400 (raised to the floor 2200) in 2024."""
    v = judge([(None, "GM", "FRA", "="), *field("=" * 8)], rules)
    assert v.counted[0].rating == expected(rules, 2300, 1400)
    assert v.average == expected(rules, 2478, 2467)  # (20000 + 2300 or 2200)/9


@BOTH
def test_maximum_of_unrated_opponents_only_in_2009(rules: TitleRules) -> None:
    """Three unrated of 9 opponents break 2009's 1.46a (⌊10/5⌋ = 2); 2024 has no such rule.
    Six GMs at 2700 with 6 wins, three unrated drawn: 7½/9 = 83 % -> 273.
    2009: (16200 + 2200 + 2·1200)/9 = 2311 < 2380; 2024: (16200 + 2200 + 2800)/9 = 2355.6
    -> 2356 < 2380: neither is a norm, but only 2009 fails the unrated count."""
    unrated: list[Opp] = [(None, None, f, "=") for f in FEDS]
    v = judge([*unrated, *field("111111", 2700)], rules)
    assert v.average == expected(rules, 2311, 2356)
    unrated_checks = [c.met for c in v.checks if "unrated" in c.name]
    assert unrated_checks == expected(rules, [False], [])


# ----------------------------------------------------------------------------- games


@BOTH
def test_round_robin_early_finish(rules: TitleRules) -> None:
    """11-round round robin: 6/9 (2625) after round 9, then two losses (6/11 -> 2536).
    2009 1.42f: the last rounds may be ignored, the norm stands over 9 games; 2024 1.4.1e:
    predetermined pairings use every round, no norm."""
    v = judge(field("111111000" + "00"), rules, system=System.ROUND_ROBIN)
    assert v.achieved is expected(rules, True, False)
    assert v.rounds_considered == expected(rules, 9, 11)


@BOTH
def test_round_robin_win_dropped_only_if_the_complete_mix_allows_a_norm(
    rules: TitleRules,
) -> None:
    """10-round round robin, 3 GMs and 7 IMs; 7 points against nine 2390s and a win against
    a 2200 IM (Ra 2371 with it). Without that win: 9 games, 3 GMs, Ra 2390, 2610. 2009
    1.42e: a norm; 2024 1.4.1f: the complete event needs ⌈10/3⌉ = 4 GMs, so no win may be
    left out: no norm."""
    strong = field("111111=0=", 2390, ["GM"] * 3 + ["IM"] * 6)
    opponents = [*strong[:2], (2200, "IM", "FRA", "1"), *strong[2:]]
    v = judge(opponents, rules, system=System.ROUND_ROBIN)
    assert v.achieved is expected(rules, True, False)


@BOTH
def test_eight_games_and_a_pairing_allocated_bye(rules: TitleRules) -> None:
    """9 rounds, 6/8 (2693) and a pairing-allocated bye: 2024 1.4.1c, a 9-game norm; 2009
    needs 9 games (1.41a)."""
    v = judge(field("11111100"), rules, byes={5: "U"})
    assert v.achieved is expected(rules, False, True)
    assert v.credited_games == expected(rules, 0, 9)


@BOTH
def test_club_championship_of_seven_rounds(rules: TitleRules) -> None:
    """A 7-round European Club Cup, 5/7 (2658): 7 games suffice for team or club
    championships in 2024 (1.4.1b); 2009's 1.41b names team championships only."""
    v = judge(field("11110=="), rules, kinds=(EventKind.EUROPEAN_CLUB_CUP,))
    assert v.achieved is expected(rules, False, True)


@BOTH
def test_more_than_thirteen_rounds_at_a_championship(rules: TitleRules) -> None:
    """A 14-round continental championship, 9/14 (64 % -> 102 -> 2602; 8½ -> 2580 is not
    enough): 2009 1.49 exempts it from the 13-game cap (14 games); 2024 1.7 does not (13)."""
    v = judge(field("1" * 9 + "0" * 5), rules, kinds=(EventKind.WORLD_OR_CONTINENTAL_CHAMPIONSHIP,))
    assert v.credited_games == expected(rules, 14, 13)


# ----------------------------------------------------------------------------- federations


@BOTH
def test_fid_as_a_foreign_federation(rules: TitleRules) -> None:
    """5 GER, 3 FRA and 1 FID opponent, all drawn against 2650: FID is a second foreign
    federation under the 2009 reading, never one in 2024 (1.4.2a)."""
    feds = ["GER"] * 5 + ["FRA"] * 3 + ["FID"]
    v = judge([(2650, "GM", f, "=") for f in feds], rules)
    assert v.achieved is expected(rules, True, False)


@BOTH
@pytest.mark.parametrize(
    ("kind", "old", "new"),
    [
        (EventKind.QC_APPROVED_EXEMPTION, True, False),  # 1.43d has no 2024 counterpart
        (EventKind.NATIONAL_TEAM_CHAMPIONSHIP, True, False),  # 1.4.3b: only the host's players
    ],
)
def test_exemptions_that_changed(rules: TitleRules, kind: EventKind, old: bool, new: bool) -> None:
    """A guest (AUT) meeting nine Germans, drawing with 2650s."""
    guest = player(1, 2450, None, "AUT")
    opponents: list[Opp] = [(2650, "GM", "GER", "=")] * 9
    v = verdict(opponents, rules=rules, kinds=(kind,), candidate=guest)
    assert v.achieved is expected(rules, old, new)
