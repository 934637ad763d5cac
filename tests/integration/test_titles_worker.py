"""Title applications through the real worker: the three tournaments of ``seeds/titles/``
published in turn make the player's GM application complete after the third, with one
``title_application_complete`` on the federations' topic, the application ``tracker titles``
gives from the same files, also with the worker killed and restarted between the second and
the third; ``tracker alerts --federation`` carries it (the live alert stream too:
``tests/browser/test_live_page.py``)."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from cli.main import main
from streams.publish import load
from tests.support.pipeline import Pipeline, by_id, rounds_finished
from tests.support.titles import CANDIDATE, seed_events
from tracker import contract as ev

FILES = [Path(__file__).parents[2] / "seeds" / "titles" / f"{n}.jsonl" for n in seed_events()]


def applications(pipeline: Pipeline) -> list[ev.OutputEvent]:
    return [
        ev.OUTPUT_ADAPTER.validate_json(line)
        for line in by_id(pipeline.read_alerts(applications=True)).values()
        if json.loads(line)["type"].startswith("title_application_")
    ]


def embedded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> ev.TitleApplication:
    """The application ``tracker titles add`` judges from the same three files (today's
    rules, as the worker's)."""
    out = ""
    for f in FILES:
        assert (
            main(["titles", "add", str(f), "--store", str(tmp_path / "s"), "--format", "jsonl"])
            == 0
        )
        out = capsys.readouterr().out
    (done,) = [ev.OUTPUT_ADAPTER.validate_json(line) for line in out.splitlines()]
    assert isinstance(done, ev.TitleApplicationComplete)
    return done.application


def test_three_events_through_the_worker_complete_the_gm_application_once(
    pipeline: Pipeline, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first two events on one worker (a progress alert after each), which is then
    killed (SIGKILL); the next worker takes over (its titles table comes back from the
    changelog, or from the title facts read back) and the third event completes the
    application, once (by id). One test for both, to keep CI short."""
    want = embedded(tmp_path, capsys)
    worker = pipeline.start_worker("w1")
    for number, f in enumerate(FILES, 1):
        pipeline.publish(load(f))
        tid = f.stem
        pipeline.wait_alerts(lambda s, tid=tid: rounds_finished(s, {tid}, 9), f"{tid} finished")
        if number < 3:
            pipeline.until(
                lambda n=number: len(applications(pipeline)) >= n, f"progress after event {number}"
            )
            assert all(a.type == "title_application_progress" for a in applications(pipeline))
        if number == 2:
            worker.kill(signal.SIGKILL)
            pipeline.start_worker("w2")
    pipeline.until(
        lambda: any(a.type == "title_application_complete" for a in applications(pipeline)),
        "the complete application",
    )
    found = applications(pipeline)
    complete = [a for a in found if isinstance(a, ev.TitleApplicationComplete)]
    assert len(complete) == 1
    assert complete[0].application == want
    assert complete[0].application.fide_id == CANDIDATE
    assert complete[0].tournament_id == "titles-3-2025-09"
    lines = pipeline.cli(
        "alerts",
        "--timeout",
        "20",
        "--federation",
        "GER",
        "--type",
        "title_application_complete",
        "--format",
        "jsonl",
    ).stdout.splitlines()
    assert [json.loads(line)["alert_id"] for line in lines] == [complete[0].alert_id]
