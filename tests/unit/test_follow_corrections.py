"""``tracker follow --accept-removals`` sends the correction events (issue 15, item 7): an
arbiter's export that drops or changes facts the tracker holds, taken as the arbiter's
decision, is followed by what takes each fact back (``pairing_removed``, ``bye_removed``,
``round_reopened``, ``player_removed``, ``player_corrected``) and what the file says now.
What a subscriber then holds is what ``tracker replay`` of that export gives."""

from __future__ import annotations

import dataclasses

import pytest

from follow.runner import Options
from follow.sources import UrlSource
from tests.support.follow import (
    _blank_byes,
    _blank_result,
    _is_bye,
    _swap,
    boards,
    cut,
    live,
    seed,
    serving,
)
from tests.support.follow import follower as make_follower
from tests.support.in_force import in_force
from tracker import contract as ev
from tracker.contract import OUTPUT_ADAPTER
from tracker.engine.transition import apply
from tracker.formats.trf import TrfFile, TrfPlayer, format_trf, to_events
from tracker.host.replay import Replay, read_events, render
from tracker.ingest.ledger import Fact, Ledger
from tracker.ingest.snapshots import Snapshot, follow_snapshot, read_snapshot

SEED = "swiss-open-9r-2012.trf"


def alerts_of_replay(text: str) -> list[ev.OutputEvent]:
    run = Replay()
    lines: list[str] = []
    for item in read_events(text, "now.trf"):
        lines.extend(render(run, item, run.feed(item), "jsonl", 10, set()))
    return [OUTPUT_ADAPTER.validate_json(line) for line in lines]


def alerts_of(events: list[ev.InputEvent]) -> list[ev.OutputEvent]:
    state = None
    out: list[ev.OutputEvent] = []
    for e in events:
        state, emitted = apply(state, e)
        out.extend(emitted)
    return out


def followed(texts: list[str]) -> tuple[Ledger, list[ev.InputEvent], list[str], list[Snapshot]]:
    """The ledger, the events sent and the reports after following the exports with
    removals accepted, and the snapshots taken."""
    ledger = Ledger()
    last: Snapshot | None = None
    sent: list[ev.InputEvent] = []
    said: list[str] = []
    taken: list[Snapshot] = []
    for text in texts:
        snapshot = read_snapshot(text)
        step = follow_snapshot(ledger, last, snapshot, accept_removals=True)
        said += [str(r) for r in step.reports]
        if step.taken:
            assert step.settled is not None
            ledger, last = step.settled.ledger, snapshot
            sent += [f.event for f in step.settled.send]
            taken.append(snapshot)
    return ledger, sent, said, taken


def with_ghost(trf: TrfFile) -> TrfFile:
    """The file with one more player, registered by mistake: never paired (a blank line of
    cells, absences in the rounds played)."""
    ghost = TrfPlayer(rank=len(trf.players) + 1, name="Ghost, Gaspar", federation="GER")
    players = (*trf.players, ghost)
    header = dataclasses.replace(trf.header, player_count=len(players))
    return dataclasses.replace(trf, header=header, players=players)


def _corrected_rating(trf: TrfFile, rank: int) -> TrfFile:
    players = tuple(
        dataclasses.replace(p, rating=(p.rating or 2000) + 100) if p.rank == rank else p
        for p in trf.players
    )
    return dataclasses.replace(trf, players=players)


LOSSES = {
    "result taken back (round 2 no longer closed)": ("pairing_removed", "round_reopened"),
    "player deleted": ("bye_removed", "player_removed"),
    "boards re-paired": ("pairing_removed", "pairing"),
    "byes blanked": ("bye_removed",),
    "rating corrected": ("player_corrected",),
}


@pytest.mark.parametrize("loss", sorted(LOSSES))
def test_an_accepted_loss_is_sent_as_its_correction(loss: str) -> None:
    """The situations of ``test_a_snapshot_that_loses_facts_is_held`` (and a rating put
    right), with ``--accept-removals``: the follower sends the correction events, the
    tracker's facts are the export's, and the alerts in force are those of a replay of the
    export."""
    final = seed(SEED)
    ghostly = with_ghost(final)
    snapshots = live(ghostly)
    k = 1 + 3 * 2  # round 3 paired
    (a, b) = boards(final, 2)[0]
    if loss.startswith("result"):
        bad = _blank_result(cut(ghostly, 3, 0), 2, a, b)
    elif loss == "player deleted":
        bad = cut(final, 3, 0)
    elif loss == "boards re-paired":
        bad = _swap(cut(ghostly, 3, 0), 3, boards(final, 3)[0], boards(final, 3)[1])
    elif loss == "byes blanked":
        rank = next(p.rank for p in final.players if any(_is_bye(x) for x in p.cells[:3]))
        bad = _blank_byes(cut(ghostly, 3, 0), rank)
    else:
        bad = _corrected_rating(cut(ghostly, 3, 0), 7)
    before = len(followed(snapshots[: k + 1])[1])
    ledger, sent, said, taken = followed([*snapshots[: k + 1], format_trf(bad)])
    assert len(taken) == k + 2, said
    kinds = {e.type for e in sent[before:]}
    assert set(LOSSES[loss]) <= kinds, (kinds, said)
    assert not [r for r in said if r.startswith(("refused", "not expressible"))], said
    assert set(ledger.facts) == set(taken[-1].facts)
    assert in_force(alerts_of(sent)) == in_force(alerts_of_replay(format_trf(bad)))
    # a follower restarted reads back what it sent: the same ledger
    again = Ledger.of([Fact(e, "trf") for e in sent])
    assert again.facts == ledger.facts
    assert again.state == ledger.state


def test_the_ledger_is_finished_with_the_last_planned_round_and_never_without_planned_rounds() -> (
    None
):
    """``tracker follow --until-finished`` stops on :attr:`Ledger.finished`."""
    final = seed(SEED)  # XXR 9

    def ledger_of(events: list[ev.InputEvent]) -> Ledger:
        return Ledger.of([Fact(e, "trf") for e in events])

    eight = ledger_of(to_events(cut(final, 8)))
    assert (eight.announced, eight.finished) == (8, False)
    nine = ledger_of(to_events(final))
    assert (nine.announced, nine.finished) == (9, True)
    registered, *facts = to_events(final)
    unknown = registered.model_copy(update={"planned_rounds": None})
    unplanned = ledger_of([unknown, *facts])
    assert unplanned.state is not None
    assert unplanned.state.tournament.planned_rounds is None
    assert (unplanned.announced, unplanned.finished) == (9, False)


async def test_a_player_registered_by_mistake_is_taken_off_and_the_event_followed_to_the_end() -> (
    None
):
    """An extra line in the start list, never paired (absent in every round played); the
    arbiter deletes it after round 3. Followed with ``--accept-removals`` to the end, the
    alerts in force are those of the final export."""
    final = seed(SEED)
    ghostly = live(with_ghost(final))
    rest = live(final)
    k = 1 + 3 * 3  # round 3 finished
    with serving() as server:
        run = make_follower(
            UrlSource(server.url("/t.trf")), options=Options(interval=0.0, accept_removals=True)
        )
        for text in [*ghostly[: k + 1], *rest[k + 1 :]]:
            server.set("/t.trf", text)
            await run.follower.poll()
    alerts = [OUTPUT_ADAPTER.validate_json(line) for line in run.lines()]
    assert in_force(alerts) == in_force(alerts_of_replay(format_trf(final)))
    assert not run.reports("held")
    assert not run.reports("not expressible")
    assert not run.reports("refused")
    ghost = len(final.players) + 1
    assert any(f"removals accepted: player {ghost} " in line for line in run.said)
