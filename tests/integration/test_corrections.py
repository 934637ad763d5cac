"""The corrections of every fact kind through the real worker on the test broker (issue 15,
item 7, "Done when").

Each mistake of ``tests/unit/test_corrections.py`` goes into its own round robin (rounds open or
closed), is corrected after the last round and the arbiter's feed is sent again; all sixteen
are published together. The worker is killed while it works through the corrections, and
once more after them: the next one must rebuild each tournament with its corrections from
the stored facts (or the input) to get a later correction right. What a subscriber reading
the output topics holds (repeats dropped, each revocation applied, topic by topic) equals
what ``tracker replay`` of the right feed gives; and the worker's alerts are exactly the
transition's for the whole feed (the refused facts dead-lettered), id for id.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

from streams.records import AUDIENCE_OF
from tests.support.corrections import cases, feed, rr
from tests.support.in_force import Subject, Subscriber, view
from tests.support.pipeline import (
    Pipeline,
    by_id,
    replay_jsonl,
    write_jsonl,
)
from tracker import contract as ev
from tracker.contract import OUTPUT_ADAPTER


def held(lines: list[str], apart: bool) -> dict[Subject, object]:
    """What a subscriber holds after reading the alerts (JSON lines): in one stream, or
    (``apart``) one output topic at a time, as the worker's topics deliver them."""
    alerts = [OUTPUT_ADAPTER.validate_json(line) for line in lines]
    if not apart:
        return Subscriber().take(alerts).view()
    force: dict[Subject, ev.OutputEvent] = {}
    for audience in sorted(set(AUDIENCE_OF.values())):
        mine = [a for a in alerts if AUDIENCE_OF[a.type] == audience]
        force.update(Subscriber(apart=True).take(mine).in_force)
    return view(force)


def by_tournament(seen: dict[str, str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in seen.values():
        out.setdefault(json.loads(line)["tournament_id"], []).append(line)
    return out


def test_each_correction_gives_the_alerts_of_the_right_feed(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    right: dict[str, dict[Subject, object]] = {}
    mistaken: list[ev.InputEvent] = []
    corrected: list[ev.InputEvent] = []
    later: list[ev.InputEvent] = []
    for close in (False, True):
        for i, name in enumerate(sorted(cases())):
            tid = f"fix{i}{'c' if close else 'o'}"
            mistake, fix = cases(tid)[name]
            events = rr(close, tid)
            right[tid] = held(replay_jsonl(write_jsonl(tmp_path / f"{tid}.jsonl", events)), False)
            mistaken += mistake(events)
            corrected += [*fix, *events]
            # after a restart: the correction again (a repeat) and a result corrected, which
            # a worker gets right only if it rebuilt the tournament with its corrections
            last = next(
                e
                for e in reversed(events)
                if isinstance(e, ev.GameResult) and e.result != "1/2-1/2"
            )
            draw = ev.ResultCorrected(**{**last.model_dump(exclude={"type"}), "result": "1/2-1/2"})
            later += [*fix, draw, ev.ResultCorrected(**last.model_dump(exclude={"type"}))]
    # what the worker must send: the transition's alerts, the refused facts left out (the
    # worker dead-letters them; ``tracker replay`` stops at the first)
    want: dict[str, str] = {}
    before: set[str] = set()  # the alerts of the mistaken feeds
    after: set[str] = set()  # and of the corrections after the restart
    for tid in right:
        _, alerts, _ = feed([e for e in [*mistaken, *corrected, *later] if e.tournament_id == tid])
        want.update(by_id([a.model_dump_json() for a in alerts]))
        _, alerts, _ = feed([e for e in mistaken if e.tournament_id == tid])
        before |= {a.alert_id for a in alerts}
        _, alerts, _ = feed([e for e in [*mistaken, *corrected] if e.tournament_id == tid])
        _, whole, _ = feed([e for e in [*mistaken, *corrected, *later] if e.tournament_id == tid])
        after |= {a.alert_id for a in whole} - {a.alert_id for a in alerts}
    assert after, "the corrections after the restart change nothing"

    first = pipeline.start_worker("w1")
    pipeline.publish(mistaken)
    pipeline.wait_alerts(lambda seen: before <= set(seen), "the alerts of the mistaken feeds")
    pipeline.publish(corrected)
    first.kill(signal.SIGKILL)  # perhaps while it works through the corrections
    second = pipeline.start_worker("w2")
    pipeline.wait_ready(second)
    pipeline.wait_alerts(
        lambda seen: (
            all(held(lines, True) == right[t] for t, lines in by_tournament(seen).items())
            and set(by_tournament(seen)) == set(right)
        ),
        "every tournament as the right feed gives it",
    )
    # let w2 commit its offsets (every second), so that w3 usually rebuilds from the stored
    # facts; on Tansu a restarted worker now and then finds no commit and handles its
    # partitions again from offset 0 (tests/integration/test_pipeline.py reports how often):
    # the corrections are then read again from the input, and the alerts must be the same
    time.sleep(3)
    second.kill(signal.SIGKILL)
    third = pipeline.start_worker("w3")
    pipeline.publish(later)
    seen = pipeline.wait_alerts(lambda seen: set(want) <= set(seen), f"{len(want)} alerts")
    assert set(seen) == set(want), f"{len(set(seen) - set(want))} unexpected alerts"
    assert seen == want
    # a rebuild is logged once done: when the watchdog handles the input, after its alerts
    pipeline.until(lambda: bool(third.rebuilds()), "w3 to take a partition over")
    for tid, lines in by_tournament(seen).items():
        assert held(lines, apart=True) == right[tid], tid
