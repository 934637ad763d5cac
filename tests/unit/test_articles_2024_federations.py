"""FIDE Title Regulations 2024 (``fide-2024``), 1.4.3 and 1.4.4: the opponents' federations.

1.4.3 at least two federations other than the applicant's (``FID`` is never one, 1.4.2a);
exempt: a) the final stage of a national championship, b) national team championships for
players of the registering federation, c) zonals and sub-zonals, d) Swiss events with, in
every round, at least 20 FIDE-rated players not from the host federation, from at least 3
federations, 10 of them GM, IM, WGM or WIM, counting only players who miss at most one round
(pairing-allocated byes excepted). 1.4.4 at most 3/5 from the applicant's federation and 2/3
from one federation; maximums rounded down.

The candidate is from GER, the host. Every game is a draw against a GM rated 2650 (50 % ->
0 -> 2650), so no won game can be left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from tests.support.builders import FIDE_2009, FIDE_2024, Opp, check, player, replayed, verdict
from tests.support.scenarios import fid_swiss
from tracker import contract as ev
from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System, Tournament
from tracker.engine.evaluation import verdict_for
from tracker.engine.event_flags import exemption_holds, swiss_exemption_by_round
from tracker.norms.search import Cell, Verdict
from tracker.rules import TitleRules


def draws(feds: Sequence[str]) -> list[Opp]:
    return [(2650, "GM", f, "=") for f in feds]


def article(v: Verdict, name: str) -> str:
    return next(c.article for c in v.checks if name in c.name)


# ----------------------------------------------------------------------------- 1.4.3


@pytest.mark.parametrize(
    ("feds", "achieved"),
    [
        pytest.param(["GER"] * 5 + ["FRA"] * 4, False, id="one-foreign"),
        pytest.param(["GER"] * 5 + ["FRA"] * 3 + ["ESP"], True, id="two-foreign"),
        pytest.param(["GER"] * 5 + ["FRA"] * 3 + ["FID"], False, id="fid-is-not-foreign"),
    ],
)
def test_1_4_3_two_federations_other_than_the_applicants(feds: list[str], achieved: bool) -> None:
    v = verdict(draws(feds), rules=FIDE_2024)
    assert v.achieved is achieved
    assert check(v, "foreign federations") is achieved
    assert article(v, "foreign federations") == "1.4.3"


ALL_GER = ["GER"] * 9


@pytest.mark.parametrize(
    ("kinds", "swiss_exempt", "system", "exemption"),
    [
        pytest.param((EventKind.NATIONAL_CHAMPIONSHIP_FINAL,), False, System.ROUND_ROBIN, "1.4.3a"),
        pytest.param((EventKind.NATIONAL_TEAM_CHAMPIONSHIP,), False, System.SWISS, "1.4.3b"),
        pytest.param((EventKind.ZONAL,), False, System.ROUND_ROBIN, "1.4.3c"),
        pytest.param((), True, System.SWISS, "1.4.3d"),
    ],
)
def test_1_4_3a_to_d_exempt_events(
    kinds: Sequence[EventKind], swiss_exempt: bool, system: System, exemption: str
) -> None:
    """Nine compatriots make a norm in an exempt event: no foreign federation is needed and
    the caps of 1.4.4 are lifted too (as in 2009)."""
    v = verdict(
        draws(ALL_GER), rules=FIDE_2024, kinds=kinds, swiss_exempt=swiss_exempt, system=system
    )
    assert v.achieved
    assert article(v, "federations") == exemption


def test_1_4_3b_national_team_championship_only_for_the_registering_federation() -> None:
    """A guest (AUT) in the German team championship meeting nine Germans: not exempt, and
    9 opponents from one federation break 1.4.4 (⌊2·9/3⌋ = 6)."""
    guest = player(1, 2450, None, "AUT")
    v = verdict(
        draws(ALL_GER),
        rules=FIDE_2024,
        kinds=(EventKind.NATIONAL_TEAM_CHAMPIONSHIP,),
        candidate=guest,
    )
    assert not v.achieved
    assert not check(v, "one federation")


def test_1_4_3_no_exemption_by_the_qc_chairmans_consent() -> None:
    """2009's 1.43d (other events exempted by the QC Chairman) is not in the 2024 text."""
    kinds = (EventKind.QC_APPROVED_EXEMPTION,)
    assert verdict(draws(ALL_GER), rules=FIDE_2009, kinds=kinds).achieved
    assert not verdict(draws(ALL_GER), rules=FIDE_2024, kinds=kinds).achieved


# ----------------------------------------------------------------------------- 1.4.3d

HOST = "GER"
SWISS = Tournament(id="s", start_date=date(2024, 5, 1), planned_rounds=3, host_federation=HOST)


def foreigners(count: int = 20) -> dict[int, Player]:
    """``count`` rated foreign players from AUT, FRA, ESP in turn; the first 10 are GMs."""
    feds = ("AUT", "FRA", "ESP")
    return {
        rank: player(rank, 2300, "GM" if rank <= 10 else None, feds[rank % 3])
        for rank in range(1, count + 1)
    }


def played(rounds: Sequence[int], missing: dict[int, str] | None = None) -> list[Cell]:
    """A game in each round (against a host player, rank 99), or the bye code of
    ``missing`` (``U``, ``H``, ``Z`` …, or ``-`` for a forfeit loss)."""
    out = []
    for r in rounds:
        code = (missing or {}).get(r)
        if code is None:
            out.append(Cell(r, 99, Code.DRAW))
        elif code == "-":
            out.append(Cell(r, 99, Code.FORFEIT_LOSS))
        elif code != "absent":
            out.append(Cell(r, None, Code.parse(code)))
    return out


def by_round(
    players: dict[int, Player], cells: dict[int, list[Cell]], rules: TitleRules = FIDE_2024
) -> tuple[bool, ...]:
    return swiss_exemption_by_round(SWISS, players, cells, 3, rules)


def test_1_4_3d_twenty_foreign_players_in_every_round() -> None:
    players = foreigners()
    cells = {rank: played([1, 2, 3]) for rank in players}
    assert by_round(players, cells) == (True, True, True)
    assert exemption_holds(by_round(players, cells), FIDE_2024)


def test_1_4_3d_a_player_missing_one_round_counts_in_the_others() -> None:
    """Player 20 misses round 2 (a half-point bye): 19 in round 2, so the exemption fails
    in that round and, needing every round, in the event. 2009 counts everyone paired."""
    players = foreigners()
    cells = {rank: played([1, 2, 3]) for rank in players}
    cells[20] = played([1, 2, 3], {2: "H"})
    assert by_round(players, cells) == (True, False, True)
    assert not exemption_holds(by_round(players, cells), FIDE_2024)
    assert by_round(players, cells, FIDE_2009) == (True, True, True)
    assert exemption_holds(by_round(players, cells, FIDE_2009), FIDE_2009)


def test_1_4_3d_a_player_missing_two_rounds_counts_nowhere() -> None:
    """With 21 foreigners, player 21 misses rounds 2 and 3 (absent, then a forfeit loss):
    not counted even in round 1, where the other 20 still suffice."""
    players = foreigners(21)
    cells = {rank: played([1, 2, 3]) for rank in players}
    cells[21] = played([1, 2, 3], {2: "absent", 3: "-"})
    assert by_round(players, cells) == (True, True, True)
    cells[20] = played([1, 2, 3], {3: "Z"})
    assert by_round(players, cells) == (True, True, False)


def test_1_4_3d_a_pairing_allocated_bye_is_not_a_missed_round() -> None:
    players = foreigners()
    cells = {rank: played([1, 2, 3]) for rank in players}
    cells[20] = played([1, 2, 3], {2: "U"})
    assert by_round(players, cells) == (True, True, True)


def test_1_4_3d_ten_title_holders_and_three_federations() -> None:
    """Player 1 (a GM) loses the title: 9 GMs. Then all from AUT and FRA: 2 federations."""
    players = foreigners()
    cells = {rank: played([1, 2, 3]) for rank in players}
    untitled = {**players, 1: player(1, 2300, "FM", "FRA")}
    assert by_round(untitled, cells) == (False, False, False)
    two_feds = {r: player(r, 2300, p.title.value if p.title else None, "AUT" if r % 2 else "FRA")
                for r, p in players.items()}  # fmt: skip
    assert by_round(two_feds, cells) == (False, False, False)


def test_1_4_3d_only_for_swiss_events() -> None:
    players = foreigners()
    cells = {rank: played([1, 2, 3]) for rank in players}
    rr = Tournament(
        id="r",
        start_date=SWISS.start_date,
        planned_rounds=3,
        system=System.ROUND_ROBIN,
        host_federation=HOST,
    )
    assert swiss_exemption_by_round(rr, players, cells, 3, FIDE_2024) == ()


def test_1_4_3d_fid_players_are_not_foreign() -> None:
    """1.4.2a: FID players are accepted, but are never players "not from the host
    federation" of another federation. 7 rated GMs from FRA and ESP and 14 rated GMs under
    the FIDE flag: 21 players, 3 codes, 21 GMs under the 2009 reading (FID a federation code
    like any other), 7 players from 2 federations in 2024."""
    players = {
        rank: player(rank, 2500, "GM", "FRA" if rank <= 4 else "ESP" if rank <= 7 else "FID")
        for rank in range(1, 22)
    }
    cells = {rank: played([1, 2, 3]) for rank in players}
    assert by_round(players, cells) == (False, False, False)
    assert by_round(players, cells, FIDE_2009) == (True, True, True)


def test_1_4_3d_fid_players_make_no_exemption_and_no_norm() -> None:
    """Under 2024 the 14 FID players do not make the 1.4.3d exemption, so 1.4.4 applies and
    six opponents from GER out of nine are too many; the 2009 reading, by name, counts them
    (exempt, and the exemption lifts the caps: the norm)."""
    state, alerts = replayed(fid_swiss(None))
    assert state.title_rules is FIDE_2024
    assert not [a for a in alerts if isinstance(a, ev.NormAchieved) and a.player.rank == 1]
    v = verdict_for(state, 1, Title.GM, 9)
    assert (v.average, v.performance) == (2600, 2680)
    assert [c.article for c in v.checks if not c.met] == ["1.4.4"]
    _, alerts = replayed(fid_swiss("fide-2009"))
    (norm,) = [
        a
        for a in alerts
        if isinstance(a, ev.NormAchieved) and a.player.rank == 1 and a.title == "GM"
    ]
    assert norm.flags is not None
    assert norm.flags.swiss_exemption


# ----------------------------------------------------------------------------- 1.4.4


@pytest.mark.parametrize(
    ("games", "own", "ok"), [(9, 5, True), (9, 6, False), (11, 6, True), (11, 7, False)]
)
def test_1_4_4_at_most_three_fifths_from_the_applicants_federation(
    games: int, own: int, ok: bool
) -> None:
    rest = ["FRA", "ESP"] * games
    v = verdict(draws(["GER"] * own + rest[: games - own]), rules=FIDE_2024)
    assert v.achieved is ok
    assert check(v, "opponents from GER") is ok
    assert article(v, "opponents from GER") == "1.4.4"


@pytest.mark.parametrize(
    ("games", "most", "ok"), [(9, 6, True), (9, 7, False), (10, 6, True), (10, 7, False)]
)
def test_1_4_4_at_most_two_thirds_from_one_federation(games: int, most: int, ok: bool) -> None:
    rest = ["ESP", "NED"] * games
    v = verdict(draws(["FRA"] * most + rest[: games - most]), rules=FIDE_2024)
    assert v.achieved is ok
    assert check(v, "one federation") is ok
