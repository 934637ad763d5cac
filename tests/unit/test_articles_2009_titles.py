"""FIDE Title Regulations 2009 (``fide-2009``), 1.45: the opponents' titles.

1.45a at least 50 % title-holders, CM and WCM not counting; 1.45b GM norm: a third of the
opponents and at least 3 GMs; 1.45c IM norm with GM = 1.5 IM; 1.45d WGM norm with
GM = 1.5, IM = FM = 1 WGM; 1.45e WIM norm with GM = 2, WGM = IM = FM = 1.5 WIM; 1.45f in a
double round robin each opponent counts once.

Every game is a draw (50 % -> dp 0, so Rp = Ra and no won game can be left out) against
opponents rated well above the title's performance level; federations FRA, ESP, NED in
turn. WFM opponents are used as padding: they are title-holders (1.45a) but count for no
norm's title mix.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from tests.support.builders import FIDE_2009, Opp, check, player, verdict
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System, Tournament
from tracker.norms.search import Cell, Context, Verdict, evaluate

FEDS = ("FRA", "ESP", "NED")
RATING = {"GM": 2650, "IM": 2500, "WGM": 2450, "WIM": 2300}
"""Opponents' rating per norm: above 2600 / 2450 / 2400 / 2250, so Rp = Ra suffices."""
WOMAN = player(1, 2300, None, "GER", sex="w")


def draws(title: str, titles: Sequence[str | None]) -> list[Opp]:
    return [(RATING[title], t, FEDS[i % 3], "=") for i, t in enumerate(titles)]


def judge(title: str, titles: Sequence[str | None]) -> Verdict:
    candidate = WOMAN if title in ("WGM", "WIM") else None
    return verdict(draws(title, titles), title=title, rules=FIDE_2009, candidate=candidate)


def mix_actual(v: Verdict, title: str) -> str:
    return next(c.actual for c in v.checks if c.name == f"{title} title mix")


# ----------------------------------------------------------------------------- 1.45a


@pytest.mark.parametrize(
    ("titles", "ok"),
    [
        pytest.param(["GM"] * 3 + ["FM"] * 2 + [None] * 4, True, id="3GM+2FM"),
        pytest.param(["GM"] * 3 + ["FM"] + [None] * 5, False, id="3GM+1FM"),
        pytest.param(["GM"] * 3 + ["FM", "CM"] + [None] * 4, False, id="CM-not-a-holder"),
        pytest.param(["GM"] * 3 + ["FM", "WCM"] + [None] * 4, False, id="WCM-not-a-holder"),
        pytest.param(["GM"] * 3 + ["FM", "WFM"] + [None] * 4, True, id="WFM-is-a-holder"),
        pytest.param(["GM"] * 3 + ["WIM", "WGM"] + [None] * 4, True, id="WIM+WGM-holders"),
        pytest.param(["GM"] * 3 + ["IM"] + ["CM"] * 5, False, id="5CM-still-4"),
    ],
)
def test_1_45a_half_of_the_opponents_hold_a_title_cm_wcm_excluded(
    titles: list[str | None], ok: bool
) -> None:
    """1.45a: 9 opponents need ⌈9/2⌉ = 5 title-holders of 0.31 other than CM and WCM."""
    v = judge("GM", titles)
    assert v.achieved is ok
    assert check(v, "title-holders") is ok
    assert check(v, "GM title mix")


# ----------------------------------------------------------------------------- 1.45b


@pytest.mark.parametrize(
    ("titles", "ok"),
    [
        pytest.param(["GM"] * 3 + ["IM"] * 6, True, id="9g-3GM"),
        pytest.param(["GM"] * 2 + ["IM"] * 7, False, id="9g-2GM"),
        # 12 games: a third is 4 GMs. IMs first: a cut of the last rounds only loses GMs.
        pytest.param(["IM"] * 8 + ["GM"] * 4, True, id="12g-4GM"),
        pytest.param(["IM"] * 9 + ["GM"] * 3, False, id="12g-3GM"),
        # 13 games: 13/3 = 4.33 -> 5
        pytest.param(["IM"] * 8 + ["GM"] * 5, True, id="13g-5GM"),
        pytest.param(["IM"] * 9 + ["GM"] * 4, False, id="13g-4GM"),
        # WGM and IM opponents are not GMs
        pytest.param(["GM"] * 2 + ["WGM"] * 3 + ["IM"] * 4, False, id="WGM-not-GM"),
    ],
)
def test_1_45b_gm_norm_needs_a_third_and_at_least_three_gms(titles: list[str], ok: bool) -> None:
    v = judge("GM", titles)
    assert v.achieved is ok
    assert check(v, "GM title mix") is ok


# ----------------------------------------------------------------------------- 1.45c


@pytest.mark.parametrize(
    ("mo", "games", "ok", "value"),
    [
        (["GM", "GM"], 9, True, "3"),  # 2 × 1.5 = 3 ≥ 3
        (["GM", "IM"], 9, False, "2.5"),  # 1.5 + 1 = 2.5 < 3
        (["GM", "IM", "IM"], 9, True, "3.5"),
        (["IM"] * 3, 9, True, "3"),
        (["IM"] * 2, 9, False, "2"),
        (["IM", "IM", "FM", "WGM"], 9, False, "2"),  # FM and WGM are not IM-equivalents
        (["GM", "GM", "IM"], 12, True, "4"),  # 12 games need ⌈12/3⌉ = 4: 1.5 + 1.5 + 1
        (["GM"] * 3, 12, True, "4.5"),
        (["GM", "IM", "IM"], 12, False, "3.5"),
    ],
)
def test_1_45c_im_norm_counts_a_gm_as_one_and_a_half_ims(
    mo: list[str], games: int, ok: bool, value: str
) -> None:
    """1.45c: IM norm, a third of the opponents (at least 3) IMs, a GM counting 1.5. WFMs
    fill up the title-holders; untitled players come first."""
    holders = max(len(mo), -(-games // 2))
    titles = [None] * (games - holders) + ["WFM"] * (holders - len(mo)) + mo
    v = judge("IM", titles)
    assert v.achieved is ok
    assert check(v, "IM title mix") is ok
    assert mix_actual(v, "IM") == value


# ----------------------------------------------------------------------------- 1.45d


@pytest.mark.parametrize(
    ("mo", "ok", "value"),
    [
        (["GM", "GM"], True, "3"),  # 1.5 + 1.5
        (["GM", "FM"], False, "2.5"),  # 1.5 + 1
        (["GM", "FM", "IM"], True, "3.5"),
        (["FM"] * 3, True, "3"),  # FM = 1 WGM
        (["IM"] * 3, True, "3"),  # IM = 1 WGM
        (["WGM"] * 3, True, "3"),
        (["WGM", "WGM", "WIM"], False, "2"),  # WIM does not count
        (["FM", "FM", "WFM"], False, "2"),  # nor does WFM
    ],
)
def test_1_45d_wgm_norm_counts_gm_one_and_a_half_im_and_fm_one(
    mo: list[str], ok: bool, value: str
) -> None:
    """1.45d: WGM norm over 9 games needs 3 WGM-equivalents: GM = 1.5, IM = FM = 1."""
    titles = [None] * 4 + ["WFM"] * max(0, 5 - len(mo)) + mo
    titles = titles[-9:]
    v = judge("WGM", titles)
    assert v.achieved is ok
    assert check(v, "WGM title mix") is ok
    assert mix_actual(v, "WGM") == value


# ----------------------------------------------------------------------------- 1.45e


@pytest.mark.parametrize(
    ("mo", "ok", "value"),
    [
        (["GM", "WIM"], True, "3"),  # 2 + 1
        (["GM"], False, "2"),
        (["GM", "WGM"], True, "3.5"),  # 2 + 1.5
        (["FM", "FM"], True, "3"),  # 1.5 + 1.5
        (["IM", "IM"], True, "3"),
        (["WGM", "WGM"], True, "3"),
        (["FM", "WIM"], False, "2.5"),  # 1.5 + 1
        (["WGM", "WIM"], False, "2.5"),
        (["WIM"] * 3, True, "3"),
        (["WIM", "WIM", "WFM"], False, "2"),  # WFM does not count
    ],
)
def test_1_45e_wim_norm_counts_gm_two_and_wgm_im_fm_one_and_a_half(
    mo: list[str], ok: bool, value: str
) -> None:
    """1.45e: WIM norm over 9 games needs 3 WIM-equivalents: GM = 2, WGM = IM = FM = 1.5."""
    titles = [None] * 4 + ["WFM"] * max(0, 5 - len(mo)) + mo
    titles = titles[-9:]
    v = judge("WIM", titles)
    assert v.achieved is ok
    assert check(v, "WIM title mix") is ok
    assert mix_actual(v, "WIM") == value


# ----------------------------------------------------------------------------- 1.45f


def double_round_robin(opponents: Sequence[tuple[int, str | None, str]], title: str) -> Verdict:
    """A 6-player double round robin: the candidate meets each of the 5 opponents in round
    ``i`` and again in round ``i + 5``, drawing every game (10 games, 50 %)."""
    me = player(1, 2450, None, "GER")
    others = {rank: player(rank, r, t, f) for rank, (r, t, f) in enumerate(opponents, 2)}
    k = len(opponents)
    cells = [Cell(rnd, (rnd - 1) % k + 2, Code.DRAW) for rnd in range(1, 2 * k + 1)]
    t = Tournament(
        id="drr",
        start_date=date(2011, 3, 1),
        planned_rounds=2 * k,
        system=System.DOUBLE_ROUND_ROBIN,
        host_federation="GER",
    )
    ctx = Context(t, {me.rank: me, **others}, False, frozenset())
    return evaluate(me, cells, Title(title), ctx, FIDE_2009)


@pytest.mark.parametrize(
    ("gms", "achieved", "games"),
    [
        # 10 games need ⌈10/3⌉ = 4 GMs: 4 different GMs, each met twice
        (4, True, 10),
        # 3 different GMs (6 games against GMs) are too few for 10 games, but round 10 may
        # be cut (1.42f): the first 9 rounds need ⌈9/3⌉ = 3 and make the norm
        (3, True, 9),
        # 2 different GMs (4 games against GMs) are too few for 9 or 10 games
        (2, False, 10),
    ],
)
def test_1_45f_double_round_robin_counts_each_opponent_once(
    gms: int, achieved: bool, games: int
) -> None:
    """1.45f: for 1.45b–e an opponent met twice gives their title once. The opponents are
    GMs and IMs (all title-holders) rated 2650."""
    titles = ["GM"] * gms + ["IM"] * (5 - gms)
    v = double_round_robin([(2650, t, FEDS[i % 3]) for i, t in enumerate(titles)], "GM")
    assert v.achieved is achieved
    assert v.games == games
    assert check(v, "GM title mix") is achieved
    assert mix_actual(v, "GM") == str(gms)


def test_1_45f_title_holders_of_1_45a_are_counted_per_game() -> None:
    """1.45f names only 1.45b–e: for the 50 % of 1.45a the games count. 4 GMs and one
    untitled player, each met twice: 8 of 10 games against title-holders ≥ 5, and 4
    different GMs ≥ ⌈10/3⌉ = 4, so the norm holds."""
    titles = ["GM"] * 4 + [None]
    v = double_round_robin([(2650, t, FEDS[i % 3]) for i, t in enumerate(titles)], "GM")
    assert check(v, "GM title mix")
    assert check(v, "title-holders")
    assert v.achieved
