"""FIDE Title Regulations 2009 (``fide-2009``), 1.43–1.44a: the opponents' federations.

1.43 at least two federations other than the candidate's; 1.43a–e exempt events; 1.44
minimums are rounded up, maximums down; 1.44a at most 3/5 of the opponents from the
candidate's federation and at most 2/3 from any one federation.

The candidate is from GER, the host federation. Every game is a draw against a GM rated
2650: 50 % -> dp 0 -> Rp 2650 ≥ 2600, Ra ≥ 2380, and no won game can be left out (1.42e).
Opponents the rule under test is about are met first, so that cutting the last rounds
(1.42f) can only make things worse.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.support.builders import FIDE_2009, Opp, check, verdict
from tracker.domain.tournaments import EventKind, System
from tracker.norms.search import Verdict


def draws(feds: Sequence[str], titles: Sequence[str | None] | None = None) -> list[Opp]:
    """A draw against a 2650 opponent from each federation (GMs unless ``titles``)."""
    ts = list(titles) if titles is not None else ["GM"] * len(feds)
    return [(2650, t, f, "=") for f, t in zip(feds, ts, strict=True)]


def article(v: Verdict, name: str) -> str:
    return next(c.article for c in v.checks if name in c.name)


def others_met(v: Verdict) -> bool:
    """Every check other than the federation ones holds."""
    return all(c.met for c in v.checks if "federation" not in c.name and "GER" not in c.name)


# ----------------------------------------------------------------------------- 1.43


@pytest.mark.parametrize(
    ("feds", "achieved"),
    [
        pytest.param(["GER"] * 5 + ["FRA"] * 4, False, id="one-foreign"),
        pytest.param(["GER"] * 5 + ["FRA"] * 3 + ["ESP"], True, id="two-foreign"),
        # engine reading (fid_counts_as_federation): FID counts as a federation in 2009
        pytest.param(["GER"] * 5 + ["FRA"] * 3 + ["FID"], True, id="fid-second-foreign"),
    ],
)
def test_1_43_two_federations_other_than_the_candidates(feds: list[str], achieved: bool) -> None:
    """1.43: opponents from at least two federations other than the candidate's."""
    v = verdict(draws(feds), rules=FIDE_2009)
    assert v.achieved is achieved
    assert check(v, "foreign federations") is achieved
    assert article(v, "foreign federations") == "1.43"
    assert others_met(v)


# ----------------------------------------------------------------------------- 1.43a–e

ALL_GER = ["GER"] * 9


@pytest.mark.parametrize(
    ("kinds", "swiss_exempt", "system", "exemption"),
    [
        pytest.param((EventKind.NATIONAL_CHAMPIONSHIP_FINAL,), False, System.ROUND_ROBIN, "1.43a"),
        pytest.param((EventKind.NATIONAL_TEAM_CHAMPIONSHIP,), False, System.SWISS, "1.43b"),
        pytest.param((EventKind.ZONAL,), False, System.ROUND_ROBIN, "1.43c"),
        pytest.param((EventKind.QC_APPROVED_EXEMPTION,), False, System.SWISS, "1.43d"),
        pytest.param((), True, System.SWISS, "1.43e"),
    ],
)
def test_1_43a_to_e_exempt_events_lift_the_federation_rules(
    kinds: Sequence[EventKind], swiss_exempt: bool, system: System, exemption: str
) -> None:
    """1.43a–e: national championship finals, national team championships, zonals, events
    approved by the QC Chairman and strong Swiss events (1.43e) are exempt. Nine opponents
    from the candidate's own federation then make a norm: no foreign federation is needed
    and (engine reading, ``exemptions_lift_caps``) the 3/5 and 2/3 caps of 1.44a are lifted
    too."""
    v = verdict(
        draws(ALL_GER), rules=FIDE_2009, kinds=kinds, swiss_exempt=swiss_exempt, system=system
    )
    assert v.achieved
    assert check(v, "federations")
    assert article(v, "federations") == exemption
    assert not any("GER" in c.name or "one federation" in c.name for c in v.checks)


@pytest.mark.parametrize(
    ("swiss_exempt", "system"),
    [
        pytest.param(False, System.SWISS, id="ordinary-swiss"),
        pytest.param(True, System.ROUND_ROBIN, id="swiss-exemption-on-a-round-robin"),
    ],
)
def test_1_43_without_exemption_nine_compatriots_are_no_norm(
    swiss_exempt: bool, system: System
) -> None:
    """1.43/1.44a: the same all-GER record without an exemption fails; 1.43e is for Swiss
    tournaments only."""
    v = verdict(draws(ALL_GER), rules=FIDE_2009, swiss_exempt=swiss_exempt, system=system)
    assert not v.achieved
    assert not check(v, "foreign federations")
    assert not check(v, "opponents from GER")  # 9 > ⌊27/5⌋ = 5
    assert not check(v, "one federation")  # 9 > ⌊18/3⌋ = 6


# ----------------------------------------------------------------------------- 1.44 / 1.44a


@pytest.mark.parametrize(
    ("games", "own", "ok"),
    [
        (9, 5, True),  # 3·9/5 = 5.4 -> 5
        (9, 6, False),
        (10, 6, True),  # 3·10/5 = 6
        (10, 7, False),
        (11, 6, True),  # 3·11/5 = 6.6 -> 6 (rounded down, not to 7)
        (11, 7, False),
        (13, 7, True),  # 3·13/5 = 7.8 -> 7
        (13, 8, False),
    ],
)
def test_1_44a_at_most_three_fifths_from_own_federation_rounded_down(
    games: int, own: int, ok: bool
) -> None:
    """1.44a with 1.44: at most ⌊3n/5⌋ opponents from the candidate's federation."""
    rest = ["FRA", "ESP"] * games
    feds = ["GER"] * own + rest[: games - own]
    v = verdict(draws(feds), rules=FIDE_2009)
    assert v.achieved is ok
    assert check(v, "opponents from GER") is ok
    assert next(c.needed for c in v.checks if "GER" in c.name) == f"≤ {3 * games // 5}"


@pytest.mark.parametrize(
    ("games", "most", "ok"),
    [
        (9, 6, True),  # 2·9/3 = 6
        (9, 7, False),
        (10, 6, True),  # 2·10/3 = 6.67 -> 6 (rounded down, not to 7)
        (10, 7, False),
        (11, 7, True),  # 2·11/3 = 7.33 -> 7
        (11, 8, False),
        (12, 8, True),  # 2·12/3 = 8
        (12, 9, False),
    ],
)
def test_1_44a_at_most_two_thirds_from_one_federation_rounded_down(
    games: int, most: int, ok: bool
) -> None:
    """1.44a with 1.44: at most ⌊2n/3⌋ opponents from any one federation (here FRA, with
    the rest from ESP and NED)."""
    rest = ["ESP", "NED"] * games
    feds = ["FRA"] * most + rest[: games - most]
    v = verdict(draws(feds), rules=FIDE_2009)
    assert v.achieved is ok
    assert check(v, "one federation") is ok


@pytest.mark.parametrize(
    ("games", "holders", "ok"),
    [
        (9, 5, True),  # 9/2 = 4.5 -> 5 (rounded up)
        (9, 4, False),
        (11, 6, True),  # 11/2 = 5.5 -> 6
        (11, 5, False),
    ],
)
def test_1_44_minimum_title_holders_rounded_up(games: int, holders: int, ok: bool) -> None:
    """1.44 with 1.45a: "at least 50 %" of n opponents is ⌈n/2⌉. The untitled opponents
    come first so that a cut of the last rounds only removes title-holders."""
    titles = [None] * (games - holders) + ["GM"] * holders
    feds = ["FRA", "ESP", "NED"] * games
    v = verdict(draws(feds[:games], titles), rules=FIDE_2009)
    assert v.achieved is ok
    assert check(v, "title-holders") is ok


@pytest.mark.parametrize(
    ("games", "gms", "ok"),
    [
        (10, 4, True),  # 10/3 = 3.33 -> 4 (rounded up)
        (10, 3, False),
        (13, 5, True),  # 13/3 = 4.33 -> 5
        (13, 4, False),
    ],
)
def test_1_44_minimum_gms_rounded_up(games: int, gms: int, ok: bool) -> None:
    """1.44 with 1.45b: "at least 1/3" of n opponents is ⌈n/3⌉. The IMs come first so that
    a cut of the last rounds only removes GMs."""
    titles = ["IM"] * (games - gms) + ["GM"] * gms
    feds = ["FRA", "ESP", "NED"] * games
    v = verdict(draws(feds[:games], titles), rules=FIDE_2009)
    assert v.achieved is ok
    assert check(v, "GM title mix") is ok
