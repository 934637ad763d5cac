"""Issue 19, items 3, 5 and 6: a round-robin norm secured when certain, titles by rating as
each edition defines them, and NON never a federation.

``tests/data/guesses/rr10-2009.trf`` (authored, checked by hand): a 10-player round robin of
October 2009 (``fide-2009``), Berger pairings by start rank. IM Jordan, James (USA, 2450,
rank 10) meets 1 (2650), 6 (2500), 2 (2600), 7 (2470), 3 (2580), 8 (2430), 4 (2540), 9 (2400)
and in round 9 5 (2380): 22550 / 9, Ra 2506; four GMs, nine title-holders, USA twice. After
round 7 he has 5½/7, after round 8 6/8: 8 games are no norm (1.41a), but 0 in round 9 gives
6/9 (67 %, dp +125): Rp 2631, a GM norm whatever round 9 brings. After round 7 the worst
case is 5½/9 (61 %, dp +80): Rp 2586, no norm.
"""

from __future__ import annotations

import itertools
from datetime import date

import pytest

from tests.support.builders import climber_events, replayed
from tests.support.paths import DATA
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.domain.tournaments import System
from tracker.engine.evaluation import context
from tracker.engine.secured import certain_norm
from tracker.engine.state import TournamentState
from tracker.engine.transition import apply
from tracker.engine.watch import Stage, watch_after
from tracker.host.replay import read_events, replay
from tracker.norms.search import find_norm
from tracker.render.report import check_lines
from tracker.render.views import player_card

RR10 = (DATA / "guesses" / "rr10-2009.trf").read_text(encoding="utf-8")


def test_the_secured_alert_comes_after_round_8_with_the_proof() -> None:
    found = list(replay(read_events(RR10, "rr10-2009.trf")))
    norms = [a for a in found if isinstance(a, ev.NormAchieved)]
    assert [(a.player.rank, a.title, a.round) for a in norms] == [(10, "GM", 8)]
    (norm,) = norms
    assert norm.secured_early
    assert not norm.conditions
    assert norm.secured_because.startswith("certain after round 8: with 0 points in each")
    # the game is named, its round is not assumed
    assert "remaining game (Ellis, Edward;" in norm.secured_because
    assert "the player plays the last round" in norm.secured_because
    proof = norm.evidence
    assert (proof.games, proof.score, proof.average_rating, proof.performance) == (9, 6, 2506, 2631)
    assert (proof.counted[-1].round, proof.counted[-1].result) == (9, "0")


def _state_after(number: int) -> tuple[TournamentState, list[ev.InputEvent]]:
    """The state with rounds 1 … ``number`` played, and the events of the later rounds."""
    events = [s.event for s in read_events(RR10, "rr10-2009.trf")]
    later = [e for e in events if getattr(e, "round", 0) > number]
    state, _ = replayed([e for e in events if e not in later])
    return state, later


@pytest.mark.parametrize("number", [6, 7, 8])
def test_certain_means_every_continuation_gives_the_norm(number: int) -> None:
    """The exhaustive-continuation property: where :func:`certain_norm` claims the norm
    after a round, every result of the player's remaining games (1, ½, 0 each; the other
    games as played) gives it after the last round; where it does not (after round 7),
    some continuation does not."""
    state, later = _state_after(number)
    cells = state.all_cells(number)
    sure = certain_norm(state, 10, Title.GM, number, cells[10], context(state, number, cells))
    mine = [e for e in later if isinstance(e, ev.GameResult) and 10 in (e.white, e.black)]
    given = []
    for results in itertools.product(("1-0", "1/2-1/2", "0-1"), repeat=len(mine)):
        final = state
        changed = dict(zip(map(id, mine), results, strict=True))
        for e in later:
            if id(e) in changed:
                e = e.model_copy(update={"result": changed[id(e)]})
            final, _ = apply(final, e)
        last = final.tournament.planned_rounds
        assert last is not None
        verdict = find_norm(
            final.players[10],
            final.all_cells(last)[10],
            Title.GM,
            context(final, last),
            final.title_rules,
        )
        given.append(verdict is not None)
    assert (sure is not None) == (number == 8)
    if sure is not None:
        assert all(given)
    else:
        assert not all(given)


def test_check_the_watch_and_the_card_say_the_certain_norm_after_round_8() -> None:
    """One notion of secured: after round 8 ``check`` shows the norm with its worst case
    (6/9, Rp 2631, round 9 counted as lost), the norm watch has it secured with the alert's
    reason, and the player card has the alert in force; after round 7 none of them does."""
    state, _ = _state_after(8)
    lines, status = check_lines(state, 10, Title.GM, 8)
    assert status == 0
    assert any(line.startswith("GM norm for ") and "ACHIEVED" in line for line in lines), lines
    watch = watch_after(state, 8)
    entry = watch.entry(10, Title.GM)
    assert entry.stage is Stage.SECURED
    assert entry.reason.startswith("certain after round 8: with 0 points in each")
    assert f"norm watch after round 8: secured — {entry.reason}" in lines
    (card,) = [n for n in player_card(state, 10).norms if n.title == "GM"]
    assert (card.stage, card.in_force) == ("secured", True)
    assert card.evidence is not None
    assert card.alert_evidence == card.evidence
    assert (card.evidence.score, card.evidence.performance) == (6, 2631)
    before, _ = _state_after(7)
    lines, _ = check_lines(before, 10, Title.GM, 7)
    assert any(line.startswith("GM norm for ") and "not achieved" in line for line in lines)
    assert watch_after(before, 7).entry(10, Title.GM).stage is Stage.IN_CONTENTION


# ----------------------------------------------------------------------- 1.3 titles by rating


def test_2009_1_3_a_live_fm_level_is_not_a_title_level_reached() -> None:
    """2009 1.3: FM needs a *published* rating of 2300; 1.52a allows unpublished ratings
    only for GM, IM, WGM, WIM. A live 2300 in a 2011 event gives no FM title level; the
    round summary says it was reached live and needs a published list."""
    _, found = replayed(climber_events(date(2011, 5, 1), 2290, 3))
    assert not [a for a in found if isinstance(a, ev.TitleRatingReached)]
    last = [a for a in found if isinstance(a, ev.RoundFinished)][-1]
    (climber,) = [s for s in last.standings if s.player.rank == 1]
    assert climber.live_rating is not None
    assert climber.live_rating >= 2300
    assert "FM level 2300 reached live in round" in climber.note
    assert "needs it on a published rating list (1.3)" in climber.note


def test_2024_1_3_an_interim_rating_gives_the_fm_level() -> None:
    """2024 1.3: "a published or interim rating at some time"."""
    _, found = replayed(climber_events(date(2025, 5, 1), 2290, 3, rated_games=40))
    levels = [a.title for a in found if isinstance(a, ev.TitleRatingReached)]
    assert levels == ["FM"]


# ----------------------------------------------------------------------- NON (1.42a, 1.4.2a)


def _non_swiss(edition: str | None) -> list[ev.OutputEvent]:
    """A 9-round Swiss hosted by GER: the GER player (rank 1, 2450) meets nine GER GMs
    rated 2500 and wins 7, draws 2 (8/9, Rp far above 2600); no foreign opponent. The
    field's other players are 10 FRA and 10 ESP rated GMs and one rated NON player: 20
    foreign players of 2 federations, so no Swiss exemption (1.43e / 1.4.3d needs 3
    federations); NON is no federation (1.42a / 1.4.2a)."""
    tid = "non"
    start = date(2025, 5, 1) if edition == "fide-2024" else date(2011, 5, 1)
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid, start_date=start, planned_rounds=9, host_federation="GER"
        )
    ]
    field = [("GER", "IM", 2450)] + [("GER", "GM", 2500)] * 9
    field += [("FRA", "GM", 2500)] * 10 + [("ESP", "GM", 2500)] * 10 + [("NON", None, 2300)]
    for rank, (fed, title, rating) in enumerate(field, 1):
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid,
                rank=rank,
                name=f"P{rank}",
                federation=fed,
                title=title,
                rating=rating,
            )
        )
    for r in range(1, 10):
        result = "1-0" if r <= 7 else "1/2-1/2"
        out.append(ev.GameResult(tournament_id=tid, round=r, white=1, black=r + 1, result=result))
        others = [p for p in range(2, 32) if p != r + 1]
        for white, black in zip(others[0::2], others[1::2], strict=False):
            out.append(
                ev.GameResult(tournament_id=tid, round=r, white=white, black=black, result="1-0")
            )
        out.append(ev.RoundClosed(tournament_id=tid, round=r))
    return out


@pytest.mark.parametrize("edition", [None, "fide-2024"])
def test_non_is_never_a_federation_for_the_exemption_or_the_mix(edition: str | None) -> None:
    state, found = replayed(_non_swiss(edition))
    assert not [a for a in found if isinstance(a, ev.NormAchieved)]
    ctx = context(state, 9)
    assert not ctx.swiss_exempt
    assert not ctx.swiss_exempt_possible
    rules = state.title_rules
    assert not rules.is_foreign("NON", "GER")
    assert rules.is_foreign("FRA", "GER")


def _forfeit_case(rest: tuple[tuple[int, int, str], ...] = ()) -> TournamentState:
    """A 12-player round robin of 2008 (pre-2009 rules): the candidate (rank 1, FM, GER) won
    rounds 1-9 against GMs rated 2380, six of them from GER, the host's federation and the
    candidate's; ``rest``: (round, opponent, result) of later rounds."""
    tid = "forfeits"
    field = [("GER",) * 6, ("FRA",) * 3, ("ESP", "FRA")]
    feds = [f for group in field for f in group]
    events: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            start_date=date(2008, 3, 1),
            system=System.ROUND_ROBIN,
            host_federation="GER",
            planned_rounds=11,
        ),
        ev.PlayerRegistered(
            tournament_id=tid, rank=1, name="Candidate", rating=2400, title="FM", federation="GER"
        ),
        *(
            ev.PlayerRegistered(
                tournament_id=tid, rank=r, name=f"O{r}", rating=2380, title="GM", federation=f
            )
            for r, f in enumerate(feds, 2)
        ),
    ]
    games = [(r, o, "1-0") for r, o in enumerate([2, 3, 4, 5, 6, 7, 8, 9, 11], 1)]
    for r, o, result in [*games, *rest]:
        events.append(ev.GameResult(tournament_id=tid, round=r, white=1, black=o, result=result))
        events.append(ev.RoundClosed(tournament_id=tid, round=r))
    state, _ = replayed(events)
    return state


def _norm_after(state: TournamentState, number: int) -> bool:
    cells = state.all_cells(number)
    ctx = context(state, number, cells)
    return find_norm(state.players[1], cells[1], Title.IM, ctx, state.title_rules) is not None


def test_a_last_round_forfeit_the_mix_needed_is_not_assumed_counted() -> None:
    """1.42c (pre-2009 2.1): a last-round forfeit win counts, as a loss, only where the games
    played are too few without it. 9/9 with six opponents of the candidate's federation gives
    the IM norm with a tenth game (6 of 10) but not without it (6 of 9): if both remaining
    opponents forfeit, the last round's forfeit is not counted and there is no norm, so the
    norm is not certain after round 9 (it was claimed certain, treating that game as lost)."""
    state = _forfeit_case()
    cells = state.all_cells(9)
    assert certain_norm(state, 1, Title.IM, 9, cells[1], context(state, 9, cells)) is None
    both_forfeited = _forfeit_case(((10, 10, "+-"), (11, 12, "+-")))
    assert not _norm_after(both_forfeited, 11)
    for first, last in (("0-1", "0-1"), ("+-", "0-1"), ("0-1", "+-")):
        assert _norm_after(_forfeit_case(((10, 10, first), (11, 12, last))), 11), (first, last)
