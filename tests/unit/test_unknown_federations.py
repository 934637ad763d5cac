"""A blank federation is an unknown federation (README, "Readings"): the federation rules of
a norm (1.43/1.44a of 2009, 1.4.3/1.4.4 of 2024, 2.2 before 2009) are evaluated for every
federation the players of unknown federation could have. A requirement that holds either
way is met, one that fails either way fails, and one that depends is not met and says on
whom it depends; the norm is then not announced.

As in test_articles_2009_federations: the candidate (GER, the host) draws every game against
a 2650 GM, 50 % -> Rp 2650, so only the federation rules decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from tests.support.builders import FIDE_2009, FIDE_2024, Opp, achieved, player, record, verdict
from tracker.domain.titles import Title
from tracker.engine.event_flags import exemption_holds, swiss_exemption_by_round
from tracker.norms.search import Check, Verdict, evaluate, find_norm

from .test_articles_2024_federations import SWISS, foreigners, played


def draws(feds: Sequence[str | None]) -> list[Opp]:
    return [(2650, "GM", f, "=") for f in feds]


def fed_checks(v: Verdict) -> list[Check]:
    return [c for c in v.checks if "federation" in c.name or "opponents from" in c.name]


def others_met(v: Verdict) -> bool:
    return all(c.met for c in v.checks if c not in fed_checks(v))


def test_1_43_1_44a_met_whatever_the_unknown_federation() -> None:
    """Two foreign federations without the unknown opponent; 4 GER + 1 unknown ≤ 5 (3/5 of
    9, 1.44a) and at most 4 + 1 from one federation ≤ 6 (2/3): met in every case."""
    feds = ["GER"] * 4 + ["FRA"] * 2 + ["ESP"] * 2 + [None]
    v = verdict(draws(feds), rules=FIDE_2009)
    assert v.achieved
    assert achieved(draws(feds), rules=FIDE_2009)
    assert all(c.met and not c.depends_on for c in fed_checks(v))
    foreign = next(c for c in fed_checks(v) if c.name == "foreign federations")
    assert foreign.actual == "2 to 3 (unknown federation: Player 10 (10))"


def test_1_43_depends_on_unknown_opponents_no_norm_announced() -> None:
    """4 GER, 1 FRA and 4 opponents of unknown federation: 1 foreign federation if they are
    German (or French), up to 5 if each is from another; and 4 to 8 Germans against the cap
    of 5 (1.44a). Both depend on them: not achieved, and the evidence says so."""
    feds = ["GER"] * 4 + ["FRA"] + [None] * 4
    assert not achieved(draws(feds), rules=FIDE_2009)
    v = verdict(draws(feds), rules=FIDE_2009)
    assert not v.achieved
    assert v.possible
    assert others_met(v)
    by_name = {c.name.split(" (")[0]: c for c in fed_checks(v)}
    foreign = by_name["foreign federations"]
    assert not foreign.met
    assert foreign.name == "foreign federations (depends on 4 opponents of unknown federation)"
    assert foreign.actual.startswith("1 to 5 (unknown federation: Player 7 (7), Player 8 (8)")
    own = by_name["opponents from GER"]
    assert (own.met, own.needed, own.actual) == (False, "≤ 5", "4 to 8")
    assert own.depends_on == "4 opponents of unknown federation"


def test_1_44a_fails_whatever_the_unknown_federation() -> None:
    """6 GER: more than 3/5 of 9 even if the 3 unknown are foreign: fails, no "depends"."""
    feds = ["GER"] * 6 + [None] * 3
    v = verdict(draws(feds), rules=FIDE_2009)
    own = next(c for c in v.checks if c.name == "opponents from GER")
    assert not own.met
    assert not own.depends_on
    assert not v.possible


def test_1_44a_one_federation_cap_depends_on_the_largest_group() -> None:
    """2 GER, 5 FRA, 2 unknown: if both are French, 7 > 6 from one federation (2/3 of 9)."""
    feds = ["GER"] * 2 + ["FRA"] * 5 + [None] * 2
    v = verdict(draws(feds), rules=FIDE_2009)
    one = next(c for c in v.checks if c.name.startswith("opponents from one federation"))
    assert (one.met, one.actual, one.depends_on) == (
        False,
        "5 to 7",
        "2 opponents of unknown federation",
    )
    assert not v.achieved
    assert v.possible


def test_1_4_3_candidate_of_unknown_federation() -> None:
    """2024: the candidate's own federation is unknown. Nine federations: whatever it is,
    8 are foreign and at most 1 of 9 is a compatriot: met. Five Germans and four French:
    two foreign federations only if the candidate is neither: depends on it."""
    candidate = player(1, 2450, None, None)
    nine = ["AUT", "BEL", "CRO", "DEN", "ESP", "FRA", "GRE", "HUN", "ITA"]
    v = verdict(draws(nine), rules=FIDE_2024, candidate=candidate)
    assert v.achieved
    two = verdict(draws(["GER"] * 5 + ["FRA"] * 4), rules=FIDE_2024, candidate=candidate)
    assert not two.achieved
    assert two.possible
    foreign = next(c for c in two.checks if c.name.startswith("foreign federations"))
    assert (foreign.actual, foreign.depends_on) == (
        "1 to 2",
        "the player's own federation (unknown)",
    )


def test_1_4_3d_exemption_that_depends_on_unknown_players() -> None:
    """2024 1.4.3d: 19 rated foreigners and 2 of unknown federation in every round. Counted
    as Germans (the host), 19 < 20: no exemption; counted as foreigners, 21: exemption. The
    candidate's nine German opponents then meet the federation rules only with it."""
    players = foreigners(19)
    players[20] = player(20, 2300, None, None)
    players[21] = player(21, 2300, None, None)
    cells = {rank: played([1, 2, 3]) for rank in players}
    sure = swiss_exemption_by_round(SWISS, players, cells, 3, FIDE_2024)
    possible = swiss_exemption_by_round(SWISS, players, cells, 3, FIDE_2024, optimistic=True)
    assert not exemption_holds(sure, FIDE_2024)
    assert exemption_holds(possible, FIDE_2024)

    assert not achieved(draws(["GER"] * 9), rules=FIDE_2024, swiss_exempt_possible=True)
    v = verdict(draws(["GER"] * 9), rules=FIDE_2024, swiss_exempt_possible=True)
    assert not v.achieved
    assert v.possible
    own = next(c for c in v.checks if c.name.startswith("opponents from GER"))
    assert "the exemption 1.4.3d" in own.depends_on
    exempt = verdict(draws(["GER"] * 9), rules=FIDE_2024, swiss_exempt=True)
    assert exempt.achieved


def test_unknown_federation_changes_no_standing_or_live_rating() -> None:
    """Standings and live ratings (B.02 8.3) do not read federations: a player with a blank
    federation has the same score and live rating as with one."""
    from tests.support.builders import tournament_events
    from tracker import contract as ev
    from tracker.host.replay import Sourced, replay

    def standings(fed: str | None) -> list[tuple[int, str, int | None]]:
        names = [("A", 2400, None, fed), ("B", 2300, None, "FRA"), ("C", 2200, None, "ESP")]
        games = [(1, 1, 2, "1-0"), (2, 3, 1, "1/2-1/2"), (3, 2, 3, "0-1")]
        events = tournament_events("u", names, games, planned_rounds=3)
        out = list(replay(Sourced(e, "x") for e in events))
        last = [a for a in out if isinstance(a, ev.RoundFinished)][-1]
        return [(s.player.rank, s.score, s.live_rating) for s in last.standings]

    assert standings(None) == standings("GER")


def test_opponent_of_unknown_federation_is_not_a_non_member_1_42a() -> None:
    """1.42a excludes opponents of non-member federations (``NON``); a blank federation is
    not read as one: the game counts (and the federation rules say what they depend on)."""
    me, cells, ctx = record(draws(["FRA", "ESP", "ITA"] * 2 + ["AUT", "BEL", None]))
    v = evaluate(me, cells, Title.GM, ctx, FIDE_2009)
    assert v.games == 9
    assert v.achieved
    assert find_norm(me, cells, Title.GM, ctx, FIDE_2009) is not None
