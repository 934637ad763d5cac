"""Progress on stderr for long files (``tracker replay --progress``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import GM_RR_TRF, run
from tracker.formats.trf import parse_trf
from tracker.host.replay import read_events


def test_replay_progress_off_a_terminal_prints_every_tenth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    total = len(read_events(Path(GM_RR_TRF).read_text(encoding="utf-8"), "x.trf"))
    code, out, err = run(capsys, "replay", GM_RR_TRF, "--format", "jsonl", "--progress")
    assert code == 0
    assert out
    lines = err.splitlines()
    assert 10 <= len(lines) <= 11
    assert lines[0].startswith(f"{GM_RR_TRF}: 1/{total} events (0 %)")
    assert lines[-1] == f"{GM_RR_TRF}: {total}/{total} events (100 %), round 9"


def test_replay_shows_no_progress_unless_asked_off_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "replay", GM_RR_TRF, "--format", "jsonl")[2] == ""
    assert run(capsys, "replay", GM_RR_TRF, "--no-progress")[2] == ""


def test_trf_events_name_their_line_and_cell() -> None:
    text = Path(GM_RR_TRF).read_text(encoding="utf-8")
    lines = {p.rank: p.line for p in parse_trf(text).players}
    events = read_events(text, "rr.trf")
    player = next(s for s in events if s.event.type == "player_registered")
    assert player.where == f"rr.trf:{lines[player.event.rank]}"  # type: ignore[union-attr]
    result = next(s for s in events if s.event.type == "game_result")
    white = result.event.white  # type: ignore[union-attr]
    assert result.where == f"rr.trf:{lines[white]}, round 1 (columns 92-101)"
