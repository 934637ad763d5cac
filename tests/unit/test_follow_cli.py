"""``tracker follow`` as a command: the README's uses on the seeds, its errors, and a real
follower process killed and restarted mid-round (embedded, with a state file)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main
from tests.support.follow import (
    ROOT,
    SEEDS,
    boards,
    cut,
    live,
    replay_lines,
    seed,
    serving,
    wait_for_polls,
)
from tracker.formats.trf import format_trf

FOLLOW = SEEDS / "follow"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", ["swiss-open-9r-2012.trf", "gm-roundrobin-2011.trf"])
def test_following_a_finished_file_once_prints_what_replay_prints(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = str(SEEDS / name)
    code, out, err = run(capsys, "follow", path, "--once")
    assert code == 0
    assert err.endswith(" event(s)\n")
    _, want, _ = run(capsys, "replay", path)
    assert out == want


BROADCAST = ["follow", "--pgn", str(FOLLOW / "costa-brava-2011.pgn"), "--once"]
"""The README's broadcast followed alone, once; the start list and the event facts follow."""
FACTS = [
    "--name",
    "Costa Brava Invitational 2011",
    "--start-date",
    "2011-10-14",
    "--time-control",
    "90 min/40 moves + 30 min + 30 sec/move",
    "--format",
    "jsonl",
]
"""The event facts of the README's command that the tests below share."""


@pytest.mark.parametrize(
    "players", ["costa-brava-2011-players.txt", "costa-brava-2011-players.xml"]
)
def test_the_readme_broadcast_alone_with_fides_rating_list(
    capsys: pytest.CaptureFixture[str], players: str
) -> None:
    code, out, err = run(
        capsys,
        *BROADCAST,
        "--players",
        str(FOLLOW / players),
        *FACTS,
        "--end-date",
        "2011-10-21",
        "--federation",
        "ESP",
        "--tournament-id",
        "gm-roundrobin-2011",
        "--round-dates",
        "2011-10-14,2011-10-15,2011-10-16,2011-10-17,2011-10-18,2011-10-18,2011-10-19,"
        "2011-10-20,2011-10-21",
        "--system",
        "round_robin",
    )
    assert code == 0, err
    assert out.splitlines() == replay_lines((SEEDS / "gm-roundrobin-2011.trf").read_text())


def test_a_broadcast_alone_whose_start_list_names_no_system_guesses_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """FIDE's rating list says nothing of the system, nor does the broadcast: without
    ``--system`` it is unknown (issue 19), and the GM norm the round robin gives comes with
    that assumption as its condition, never secured."""
    players = str(FOLLOW / "costa-brava-2011-players.txt")
    code, out, err = run(capsys, *BROADCAST, "--players", players, *FACTS, "--rounds", "9")
    assert code == 0, err
    norms = [a for line in out.splitlines() if (a := json.loads(line))["type"] == "norm_achieved"]
    assert norms
    for norm in norms:
        assert not norm["secured_early"]
        (condition,) = norm["conditions"]
        assert condition["text"].startswith("system unknown: a broadcast followed alone")
        assert "--system" in condition["text"]


def test_a_trf_start_list_without_a_start_date_takes_it_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A start list is its players: a TRF that dates nothing (no 042, no 132) still gives
    them, and --start-date and --round-dates the rest. The broadcast then gives what
    replaying the whole file gives."""
    whole = (SEEDS / "gm-roundrobin-2011.trf").read_text()
    undated = [x for x in whole.splitlines() if not x.startswith(("042", "132"))]
    players = tmp_path / "players.trf"
    players.write_text("\n".join(undated) + "\n")
    code, out, err = run(
        capsys,
        "follow",
        "--pgn",
        str(FOLLOW / "costa-brava-2011.pgn"),
        "--players",
        str(players),
        "--start-date",
        "2011-10-14",
        "--round-dates",
        "2011-10-14,2011-10-15,2011-10-16,2011-10-17,2011-10-18,2011-10-18,2011-10-19,"
        "2011-10-20,2011-10-21",
        "--once",
        "--format",
        "jsonl",
    )
    assert code == 0, err
    assert out.splitlines() == replay_lines(whole)


def test_the_readme_arbiters_snapshot(capsys: pytest.CaptureFixture[str]) -> None:
    """seeds/follow/rheinland-open-2012-round6.trf: the export during round 6."""
    path = FOLLOW / "rheinland-open-2012-round6.trf"
    final = seed("swiss-open-9r-2012.trf")
    assert path.read_text("utf-8") == format_trf(cut(final, 6, len(boards(final, 6)) // 2))
    code, out, _ = run(capsys, "follow", str(path), "--once", "--format", "jsonl")
    assert code == 0
    finished = [json.loads(x)["round"] for x in out.splitlines() if '"round_finished"' in x]
    assert finished == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "follow: give the arbiter's file, or --pgn with --players"),
        (["--pgn", "x.pgn"], "--players: a broadcast followed alone needs a start list"),
        (
            ["--pgn", "x.pgn", "--players", str(FOLLOW / "costa-brava-2011-players.txt")],
            "--tournament-id or --name: a broadcast followed alone needs it",
        ),
        (
            [
                "--pgn",
                "x.pgn",
                "--players",
                str(FOLLOW / "costa-brava-2011-players.txt"),
                "--name",
                "X",
            ],
            "--start-date: a broadcast followed alone needs it",
        ),
    ],
)
def test_missing_arguments_are_named(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, "follow", *argv)
    assert code == 2
    assert err == f"tracker: error: {message}\n"


def test_a_broadcast_without_the_pgn_extra_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """python-chess (GPL-3.0) is the optional ``pgn`` extra: without it ``--pgn`` says which
    extra to install instead of failing on an import."""
    import tracker.formats.pgn

    monkeypatch.setattr(tracker.formats.pgn, "pgn_available", lambda: False)
    players = str(FOLLOW / "costa-brava-2011-players.txt")
    code, _, err = run(capsys, "follow", "--pgn", "x.pgn", "--players", players)
    assert code == 2
    assert err == (
        "tracker: error: --pgn: reading a broadcast PGN needs python-chess, the pgn extra: "
        "pip install -e '.[pgn]'\n"
    )


def test_once_on_a_file_that_cannot_be_taken_says_why_and_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = format_trf(cut(seed("swiss-open-9r-2012.trf"), 0))  # the start list
    path = tmp_path / "export.trf"
    path.write_text(text[: text.index("001   30")])  # the exporter was at player 30
    code, out, err = run(capsys, "follow", str(path), "--once")
    assert code == 1
    assert out == ""
    assert "held: cannot be taken: record 062 counts 40 players but the file lists 29" in err


def _follow(url: str, state: Path, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli",
            "follow",
            url,
            "--state",
            str(state),
            "--interval",
            "0.05",
            "--format",
            "jsonl",
        ],
        stdout=log.open("ab"),
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def test_a_follower_process_killed_mid_round_and_restarted(tmp_path: Path) -> None:
    final = seed("swiss-11r-secured-2013.trf")
    snapshots = live(final)
    kill_after = 1 + 3 * 5 + 1  # round 6, half its results
    state, out = tmp_path / "state.jsonl", tmp_path / "alerts.jsonl"
    with serving() as server:
        server.set("/t.trf", snapshots[0])
        proc = _follow(server.url("/t.trf"), state, out)
        try:
            for i, text in enumerate(snapshots):
                since = server.requests("/t.trf")
                server.set("/t.trf", text)
                polls = 2
                if i == kill_after + 1:
                    proc.send_signal(signal.SIGKILL)  # the new export arrives as it dies
                    proc.wait(30)
                    since = server.requests("/t.trf")
                    proc = _follow(server.url("/t.trf"), state, out)
                    polls = 3  # one may be the dead follower's, answered after since
                wait_for_polls(server, "/t.trf", since, polls)
        finally:
            proc.kill()
            proc.wait(30)
    lines = [line for line in out.read_text().splitlines() if line]
    assert lines == replay_lines(format_trf(final))
    sent = [json.loads(line)["event"] for line in state.read_text().splitlines()]
    assert len(sent) == len({json.dumps(e, sort_keys=True) for e in sent})


def test_once_with_a_broker_that_cannot_be_reached_fails(
    capsys: pytest.CaptureFixture[str], unused_port: int
) -> None:
    pytest.importorskip("aiokafka")
    path = str(FOLLOW / "rheinland-open-2012-round6.trf")
    code, out, err = run(
        capsys, "follow", path, "--once", "--broker", f"kafka://127.0.0.1:{unused_port}"
    )
    assert code == 2  # as every Kafka command that cannot reach its broker
    assert out == ""
    assert f"follow: info: the destination failed (kafka://127.0.0.1:{unused_port}:" in err
    assert "trying again" not in err  # --once: there is no next try


@pytest.fixture
def unused_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_the_folder_demo_of_the_manual_runs_as_written() -> None:
    """docs/follow.md's arbiter's folder, run as written (issue 20: it never showed rounds
    6-9 arriving, and used a fixed folder): rounds 1-5 from the export of round 6, then
    rounds 6-9 once the next export is copied over it, each round once, in order."""
    manual = (ROOT / "docs" / "follow.md").read_text(encoding="utf-8")
    block = manual.split("**The arbiter's folder.**")[1].split("```sh\n")[1].split("```")[0]
    assert "/tmp/" not in block
    out = subprocess.run(
        ["bash", "-e", "-c", block], cwd=ROOT, capture_output=True, text=True, timeout=300
    ).stdout
    once, followed = out.split("# a norm event", 2)[1:]
    finished = [int(n) for n in re.findall(r": round (\d) finished", followed)]
    assert [int(n) for n in re.findall(r": round (\d) finished", once)] == [1, 2, 3, 4, 5]
    assert finished == list(range(1, 10))
    assert "norm watch after round 9" in followed
