"""Issue 19, item 1: the event's system from everything the file says, and no norm that rests
on a guess of it.

The files (``tests/data/guesses/``, authored; checked by hand): a 12-player round robin of
May 2025 (``fide-2024``), 092 ``Individual: Round-Robin``, 132 with 11 dates, pairing
numbers drawn (the pairings follow the Berger table for the drawn numbers, not for the start
ranks). IM Jaeger, Jonas (GER, 2470, rank 10) meets ranks 1, 2, 3, 4, 5, 7, 8, 9 and 11 in
rounds 1-9 (2650 + 2620 + 2600 + 2580 + 2560 + 2530 + 2510 + 2480 + 2420 = 22950: Ra 2550;
five GMs; GER twice) and scores 0 1 ½ 1 ½ 1 ½ 1 ½ = 6/9 (67 %: dp +125, Rp 2675); then
loses to 12 (2400) and 6 (2545): 6/11, 55 % (dp +36), Ra 27895/11 = 2536, Rp 2572: no norm.
Read as a Swiss, rounds 1-9 give a GM norm secured before the last round; in a round robin
every scheduled round counts (2024 1.4.1e).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main
from tests.support.paths import DATA
from tracker import contract as ev
from tracker.domain.tournaments import System
from tracker.engine.transition import apply
from tracker.formats.pairing_system import berger_pairs, named_system, read_system
from tracker.formats.trf import parse_trf
from tracker.host.replay import read_events, replay, with_overrides
from tracker.ingest.ledger import Fact, Ledger
from tracker.ingest.snapshots import Snapshot, follow_snapshot, read_snapshot

FILES = DATA / "guesses"
ROUND_9 = (FILES / "rr12-2025-after-round-9.trf").read_text(encoding="utf-8")
COMPLETE = (FILES / "rr12-2025.trf").read_text(encoding="utf-8")
ROUND_3 = (FILES / "rr12-2025-after-round-3.trf").read_text(encoding="utf-8")


def without(text: str, *codes: str) -> str:
    """The text with the header records ``codes`` dropped."""
    return "".join(line for line in text.splitlines(True) if line[:3] not in codes)


def alerts(text: str, system: System | None = None) -> list[ev.OutputEvent]:
    return list(replay(with_overrides(read_events(text, "x.trf"), system=system)))


def norms(found: list[ev.OutputEvent]) -> list[ev.NormAchieved]:
    return [a for a in found if isinstance(a, ev.NormAchieved)]


@pytest.mark.parametrize(
    ("text", "system"),
    [
        ("Individual: Round-Robin", System.ROUND_ROBIN),
        ("Round robin", System.ROUND_ROBIN),
        ("RR", System.ROUND_ROBIN),
        ("Berger", System.ROUND_ROBIN),
        ("Double round robin", System.DOUBLE_ROUND_ROBIN),
        ("Individual: Swiss-System", System.SWISS),
        ("Swiss system", System.SWISS),
        ("Individual: Swiss Dutch (Swiss Master 5.7 build 8)", System.SWISS),
        ("FIDE_DUTCH_2026_BAKU", System.SWISS),  # TRF26 192
        ("FIDE_TEAM_BAKU", System.SWISS),  # TRF26 192: the FIDE team Swiss
        ("BERGER_DOUBLEROUNDROBIN", System.DOUBLE_ROUND_ROBIN),
        ("Team Swiss System", System.SWISS),
        ("Швейцарская система", System.SWISS),
        ("Scheveningen", "a Scheveningen event"),
        ("Team Round Robin", "a team event that is not a Swiss"),
        ("Individual: Rapid", None),
    ],
)
def test_the_words_exporters_write_for_the_system(text: str, system: object) -> None:
    assert named_system(text) == system


def test_berger_table_for_twelve_players() -> None:
    """C.05 Annex 1, 12 players: round 1 is 1-12, 2-11, …, 6-7; every pair meets once in 11
    rounds."""
    assert berger_pairs(12, 1) == {(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)}
    every = [p for k in range(1, 12) for p in berger_pairs(12, k)]
    assert len(every) == len(set(every)) == 66


def test_evidence_that_disagrees_or_is_missing_leaves_the_system_unknown() -> None:
    ranks = list(range(1, 13))
    assert read_system(ranks, [], 11, [("092", "Round robin")]).system is System.ROUND_ROBIN
    assert read_system(ranks, [], 9, [("092", "Round robin")]).system is System.UNKNOWN
    both = [("092", "Round robin"), ("192", "FIDE_DUTCH_2026_BAKU")]
    assert read_system(ranks, [], 11, both).system is System.UNKNOWN
    assert read_system(ranks, [], 11, []).system is System.UNKNOWN  # 11 rounds fit both
    assert read_system(ranks, [], 7, []).system is System.SWISS  # too few for a round robin
    coded = read_system(ranks, [], 7, [("192", "FIDE_SCHILLER_4x3")])  # a code not known
    assert coded.system is System.UNKNOWN
    assert "names a system this reader does not know" in coded.evidence
    team = [("092", "Team Swiss System"), ("192", "FIDE_TEAM_BAKU")]
    assert read_system(ranks, [], 7, team).system is System.SWISS
    berger = [berger_pairs(12, k) for k in (1, 2, 3)]
    reading = read_system(ranks, berger, None, [])
    assert reading.system is System.ROUND_ROBIN
    assert "follow the Berger table (C.05) for 12 players" in reading.evidence


def test_the_export_after_round_9_is_read_as_the_round_robin_it_is() -> None:
    reading = parse_trf(ROUND_9).system_reading
    assert reading.system is System.ROUND_ROBIN
    assert reading.evidence == "092 'Individual: Round-Robin', 12 players and 11 planned rounds"
    assert parse_trf(without(ROUND_9, "092")).system is System.UNKNOWN


def test_no_gm_norm_after_round_9_of_the_round_robin_nor_at_its_end() -> None:
    """2024 1.4.1e: with predetermined pairings every scheduled round counts: nothing after
    round 9 (no norm, no secured norm), and the complete event gives 6/11, no norm."""
    assert norms(alerts(ROUND_9)) == []
    assert norms(alerts(COMPLETE)) == []


def test_read_as_a_swiss_the_same_games_give_the_false_secured_norm() -> None:
    """What the issue saw: the export read as a Swiss secures a GM norm after round 9."""
    (norm,) = norms(alerts(ROUND_9, System.SWISS))
    assert (norm.player.rank, norm.title, norm.round, norm.secured_early) == (10, "GM", 9, True)
    assert (norm.evidence.average_rating, norm.evidence.performance) == (2550, 2675)


def test_an_unknown_system_gives_the_norm_only_with_its_assumption_named() -> None:
    """No 092: 12 players and 11 rounds fit a Swiss as well as a round robin. The norm
    comes with a condition naming the assumption (1.4.1e), never secured, not even after
    the last round; ``--system`` settles it."""
    (norm,) = norms(alerts(without(ROUND_9, "092")))
    assert not norm.secured_early
    assert not norm.secured_because
    (condition,) = norm.conditions
    assert condition.article == "1.4.1e"
    assert condition.text.startswith("system unknown: no record names the system")
    assert "--system" in condition.text
    assert norms(alerts(without(ROUND_9, "092"), System.ROUND_ROBIN)) == []


def test_check_says_the_assumption_of_an_unknown_system(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``check`` shows the norm with the condition its alert carries, and none once
    ``--system`` names the system."""
    path = tmp_path / "no-092.trf"
    path.write_text(without(ROUND_9, "092"), encoding="utf-8")
    assert main(["check", str(path), "--player", "10", "--title", "GM"]) == 0
    out = capsys.readouterr().out
    assert "GM norm for IM Jaeger, Jonas (GER): ACHIEVED" in out
    assert "depends on 1.4.1e: system unknown: no record names the system" in out
    assert main(["check", str(path), "--player", "10", "--title", "GM", "--system", "swiss"]) == 0
    assert "depends on" not in capsys.readouterr().out


def test_the_certificate_is_refused_while_the_system_is_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "no-092.trf"
    path.write_text(without(ROUND_9, "092"), encoding="utf-8")
    assert main(["certificate", str(path), "--player", "10", "--title", "GM"]) == 2
    err = capsys.readouterr().err
    assert "1.4.1e: system unknown" in err
    assert main(["certificate", str(path), "--player", "10", "--system", "swiss"]) == 0


def follow(*texts: str) -> tuple[list[ev.InputEvent], list[ev.OutputEvent]]:
    """The exports followed one after the other as ``tracker follow`` does (the ledger of
    what was sent, each snapshot against the last good one), every event sent applied by
    the core as the worker applies it."""
    ledger, last = Ledger.of([]), None
    state = None
    sent: list[ev.InputEvent] = []
    out: list[ev.OutputEvent] = []
    for text in texts:
        snap: Snapshot = read_snapshot(text)
        step = follow_snapshot(ledger, last, snap)
        assert step.taken, step.reports
        assert step.settled is not None
        assert not [r for r in step.reports if r.kind == "not expressible"], step.reports
        for fact in step.settled.send:
            sent.append(fact.event)
            state, emitted = apply(state, fact.event)
            out.extend(emitted)
        ledger, last = step.settled.ledger, snap
    return sent, out


def test_the_three_exports_followed_give_no_norm() -> None:
    _, out = follow(ROUND_3, ROUND_9, COMPLETE)
    assert norms(out) == []
    finished = [a for a in out if isinstance(a, ev.RoundFinished)]
    assert [a.round for a in finished] == list(range(1, 12))


def test_a_later_export_corrects_the_guess_and_the_norm_is_revoked() -> None:
    """The first exports name no system (unknown): after round 9 the GM norm is announced
    with its assumption. The next export names it (092 Round-Robin): ``system_corrected`` is
    sent, and the norm is revoked as corrections revoke; the complete event gives none."""
    sent, out = follow(without(ROUND_3, "092"), without(ROUND_9, "092"), ROUND_9, COMPLETE)
    fixes = [e for e in sent if isinstance(e, ev.SystemCorrected)]
    assert [(e.system, e.planned_rounds) for e in fixes] == [(System.ROUND_ROBIN, 11)]
    assert fixes[0].event_type == "Individual: Round-Robin"  # the 092 it was read from
    (norm,) = norms(out)
    assert norm.conditions
    assert not norm.secured_early
    revoked = [a for a in out if isinstance(a, ev.NormRevoked)]
    assert [(a.player.rank, a.title) for a in revoked] == [(10, "GM")]
    assert "the event's system was corrected to round robin" in revoked[0].reason
    assert out.index(revoked[0]) > out.index(norm)


def test_a_system_correction_puts_the_092_words_right_too() -> None:
    """The registration takes the corrected system, its rounds and the 092 words (the
    certificate's event type), which the first export did not have."""
    first = read_events(without(ROUND_9, "092"), "x.trf")[0].event
    state, _ = apply(None, first)
    assert (state.tournament.system, state.tournament.event_type) == (System.UNKNOWN, None)
    fix = ev.SystemCorrected(
        tournament_id=state.tournament.id,
        system=System.ROUND_ROBIN,
        planned_rounds=11,
        event_type="Individual: Round-Robin",
    )
    state, _ = apply(state, fix)
    t = state.tournament
    assert (t.system, t.planned_rounds, t.event_type) == (
        System.ROUND_ROBIN,
        11,
        "Individual: Round-Robin",
    )


def test_a_follower_restarted_after_a_system_correction_holds_the_corrected_registration() -> None:
    """The ledger rebuilt from the events sent (a restart: the state file, or the input topic
    read back) holds the registration as ``system_corrected`` left it: the next export is
    the same registration, not a change the tracker cannot express."""
    first, second = without(ROUND_9, "092"), ROUND_9
    sent, _ = follow(first, second)
    assert any(isinstance(e, ev.SystemCorrected) for e in sent)
    ledger = Ledger.of([Fact(e, "trf") for e in sent])
    step = follow_snapshot(ledger, read_snapshot(second), read_snapshot(COMPLETE))
    assert step.settled is not None
    assert step.settled.reports == ()
    assert not [f for f in step.settled.send if f.event.type.startswith("tournament")]
    assert not [f for f in step.settled.send if isinstance(f.event, ev.SystemCorrected)]
