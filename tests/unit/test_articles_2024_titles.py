"""FIDE Title Regulations 2024 (``fide-2024``), 1.4.5: the opponents' titles.

1.4.5a at least 50 % title-holders, CM and WCM excluded; 1.4.5b–e at least a third of the
opponents, and at least 3, hold a qualifying title: GM (GM norm); IM or GM (IM); WGM, IM or
GM (WGM); WIM, WGM, IM or GM (WIM), each counted once (no 2009 weights, FMs count for
nothing); in a double round robin of at least six players half of that number, rounded up,
of different players.

Every game is a draw (50 % -> dp 0) against opponents rated above the title's performance
level; WFMs pad the title-holders (they count for 1.4.5a but for no norm's mix).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from tests.support.builders import FIDE_2024, Opp, check, player, verdict
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System, Tournament
from tracker.norms.search import Cell, Context, Verdict, evaluate
from tracker.rules import TitleRules

FEDS = ("FRA", "ESP", "NED")
RATING = {"GM": 2650, "IM": 2500, "WGM": 2450, "WIM": 2300}
WOMAN = player(1, 2300, None, "GER", sex="w")


def judge(title: str, titles: Sequence[str | None]) -> Verdict:
    opponents: list[Opp] = [(RATING[title], t, FEDS[i % 3], "=") for i, t in enumerate(titles)]
    candidate = WOMAN if title in ("WGM", "WIM") else None
    return verdict(opponents, title=title, rules=FIDE_2024, candidate=candidate)


def mix(v: Verdict, title: str) -> tuple[str, str, str]:
    found = next(c for c in v.checks if c.name == f"{title} title mix")
    return found.article, found.needed, found.actual


# ----------------------------------------------------------------------------- 1.4.5a


@pytest.mark.parametrize(
    ("titles", "ok"),
    [
        pytest.param(["GM"] * 3 + ["FM"] * 2 + [None] * 4, True, id="3GM+2FM"),
        pytest.param(["GM"] * 3 + ["FM", "CM"] + [None] * 4, False, id="CM-not-a-holder"),
        pytest.param(["GM"] * 3 + ["FM", "WCM"] + [None] * 4, False, id="WCM-not-a-holder"),
        pytest.param(["GM"] * 3 + ["FM", "WFM"] + [None] * 4, True, id="WFM-is-a-holder"),
    ],
)
def test_1_4_5a_half_of_the_opponents_are_title_holders(titles: list[str | None], ok: bool) -> None:
    v = judge("GM", titles)
    assert v.achieved is ok
    assert check(v, "title-holders") is ok
    assert next(c.article for c in v.checks if c.name == "title-holders") == "1.4.5a"


# ----------------------------------------------------------------------------- 1.4.5b–e


@pytest.mark.parametrize(
    ("title", "mo", "ok"),
    [
        # 1.4.5b: GMs only
        ("GM", ["GM"] * 3, True),
        ("GM", ["GM", "GM", "IM"], False),
        # 1.4.5c: IMs or GMs, a GM counts 1 (2009: 1.5)
        ("IM", ["GM", "IM", "IM"], True),
        ("IM", ["GM", "GM"], False),
        ("IM", ["IM", "IM", "FM"], False),
        # 1.4.5d: WGMs, IMs or GMs; FMs no longer count (2009: FM = 1 WGM)
        ("WGM", ["GM", "IM", "WGM"], True),
        ("WGM", ["FM"] * 3, False),
        ("WGM", ["GM", "GM"], False),
        ("WGM", ["WGM", "WGM", "WIM"], False),
        # 1.4.5e: WIMs, WGMs, IMs or GMs, each 1 (2009: GM 2, WGM/IM/FM 1.5)
        ("WIM", ["WIM", "WGM", "IM"], True),
        ("WIM", ["GM", "WIM"], False),
        ("WIM", ["FM", "FM", "FM"], False),
    ],
)
def test_1_4_5b_to_e_qualifying_titles_each_count_once(title: str, mo: list[str], ok: bool) -> None:
    """9 games need 3 qualifying opponents. Untitled players first, then WFMs up to the 5
    title-holders of 1.4.5a, then the qualifying ones, so a cut only loses qualifiers."""
    titles = [None] * 4 + ["WFM"] * max(0, 5 - len(mo)) + mo
    v = judge(title, titles[-9:])
    assert v.achieved is ok
    article, needed, _ = mix(v, title)
    assert article == {"GM": "1.4.5b", "IM": "1.4.5c", "WGM": "1.4.5d", "WIM": "1.4.5e"}[title]
    assert needed.startswith("3 ")


@pytest.mark.parametrize(("gms", "ok"), [(4, True), (3, False)])
def test_1_4_5b_a_third_rounded_up(gms: int, ok: bool) -> None:
    """12 games: ⌈12/3⌉ = 4 GMs. IMs first."""
    v = judge("GM", ["IM"] * (12 - gms) + ["GM"] * gms)
    assert v.achieved is ok


# ----------------------------------------------------------------------------- double RR


def double_round_robin(titles: Sequence[str | None], rules: TitleRules = FIDE_2024) -> Verdict:
    """The candidate meets each opponent in round ``i`` and again in round ``i + k``,
    drawing every game against players rated 2650."""
    me = player(1, 2450, None, "GER")
    others = {rank: player(rank, 2650, t, FEDS[rank % 3]) for rank, t in enumerate(titles, 2)}
    k = len(titles)
    cells = [Cell(rnd, (rnd - 1) % k + 2, Code.DRAW) for rnd in range(1, 2 * k + 1)]
    t = Tournament(
        id="drr",
        start_date=date(2024, 3, 1),
        planned_rounds=2 * k,
        system=System.DOUBLE_ROUND_ROBIN,
        host_federation="GER",
    )
    ctx = Context(t, {me.rank: me, **others}, False, frozenset())
    return evaluate(me, cells, Title.GM, ctx, rules)


@pytest.mark.parametrize(("gms", "ok"), [(2, True), (1, False)])
def test_1_4_5_double_round_robin_half_the_titled_opponents_rounded_up(gms: int, ok: bool) -> None:
    """A 6-player double round robin, 10 games: max(3, ⌈10/3⌉) = 4 GMs, halved: 2 different
    GMs. Two GMs met twice suffice; one GM met twice (2 games) is one player."""
    v = double_round_robin(["GM"] * gms + ["IM"] * (5 - gms))
    assert v.achieved is ok
    assert v.games == 10  # predetermined pairings: every round counts (1.4.1e)
    assert mix(v, "GM")[1:] == ("2 GM-equivalents (GM=1)", str(gms))


def test_1_4_5_double_round_robin_of_five_players_gives_no_norm() -> None:
    """At least six players: with five, each plays 8 games, below the 9 of 1.4.1a (and the
    8-game rule 1.4.1c is for 9-round events)."""
    v = double_round_robin(["GM"] * 4)
    assert not v.achieved
    assert v.games == 8
    assert not check(v, "games")
