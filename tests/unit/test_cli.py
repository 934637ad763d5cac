"""The ``tracker`` command on the seed tournaments (expected outcomes in seeds/README.md)."""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from cli import main as tracker_cli
from cli.main import build_parser, main
from tests.support.cli import GM_RR_TRF, run
from tests.support.paths import ROOT
from tracker import contract as ev
from tracker.host.replay import from_jsonl, read_events, replay
from tracker.render.report import story

SEEDS = ROOT / "seeds"
GM_RR_JSONL = str(SEEDS / "gm-roundrobin-2011.jsonl")
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
PYTHON = str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable


# ----------------------------------------------------------------------------- replay


def test_replay_text_names_the_gm_norm_and_the_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", GM_RR_TRF)
    assert code == 0
    assert err == ""
    assert out.startswith("# Costa Brava Invitational 2011: edition fide-2009")
    norm_lines = [line for line in out.splitlines() if line.startswith("**") and "norm" in line]
    assert len(norm_lines) == 1
    (line,) = norm_lines
    assert "GM norm achieved" in line
    assert "Garrido Ruiz, Pablo" in line
    assert "6½/9" in line
    assert "Ra 2466" in line
    assert "Rp 2632" in line
    assert "Santoro" not in line
    for number in range(1, 10):
        assert f"gm-roundrobin-2011: round {number} finished" in out
    assert "round 9 finished (last round)" in out
    # the norm is told after the last round's standings
    assert out.index("round 9 finished") < out.index("GM norm achieved")
    # so is each player's entry into contention (grouped by title) and exit from it
    assert "   round 1: 6 players in contention for the GM norm: " in out
    assert "Garrido Ruiz, Pablo (6)" in out.split("round 1: 6 players in contention")[1]
    assert "   round 8: GM norm out of reach: IM Santoro, Matteo (ITA) — rating" in out
    # and after each round the norm watch says what the remaining games must bring (issue 20)
    block = out.split("norm watch after round 1 (closest first): 8 in contention\n")[1]
    assert (
        "     GM  in contention IM Garrido Ruiz, Pablo (ESP)          1  needs 5½/8 from the "
        "remaining games" in block.split("\n\n")[0]
    )
    assert "norm watch after round 9 (closest first): 1 achieved, 7 out of reach" in out
    assert "     GM  achieved      IM Garrido Ruiz, Pablo (ESP)         6½  the norm holds" in out


def jsonl_lines(out: str) -> list[dict[str, object]]:
    lines = out.splitlines()
    assert lines
    return [json.loads(line) for line in lines]


def test_replay_jsonl_is_one_alert_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", GM_RR_TRF, "--format", "jsonl")
    assert code == 0
    assert err == ""
    assert out.endswith("\n")
    objects = jsonl_lines(out)
    assert all(isinstance(o, dict) for o in objects)
    alerts = [from_jsonl(line) for line in out.splitlines()]
    prospects = {"norm_prospect", "norm_out_of_reach"}
    assert [a.type for a in alerts if a.type not in prospects] == ["round_finished"] * 9 + [
        "norm_achieved"
    ]
    # each line is exactly the wire form of the alert it parses to
    assert [a.model_dump_json() for a in alerts] == out.splitlines()
    # the winner enters contention after round 1 and leaves it with the norm, last of all
    contention = [
        (a.round, a.type, getattr(a, "status", None))
        for a in alerts
        if a.type in prospects and a.player.rank == 6  # type: ignore[union-attr]
    ]
    assert contention == [(1, "norm_prospect", "entered"), (9, "norm_prospect", "left")]
    # the near miss (6/9, needed 6½) is out of reach once 6½ cannot be reached
    (miss,) = [a for a in alerts if isinstance(a, ev.NormOutOfReach) and a.player.rank == 9]
    assert (miss.round, miss.title) == (8, "GM")
    norm = next(a for a in alerts if isinstance(a, ev.NormAchieved))
    assert isinstance(norm, ev.NormAchieved)
    assert (norm.player.rank, norm.player.name, norm.title) == (6, "Garrido Ruiz, Pablo", "GM")
    assert norm.evidence.performance == 2632
    assert all(a.tournament_id == "gm-roundrobin-2011" for a in alerts)


def test_replay_jsonl_of_the_trf_equals_that_of_the_jsonl_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, from_trf, _ = run(capsys, "replay", GM_RR_TRF, "--format", "jsonl")
    assert code == 0
    code, from_events, _ = run(capsys, "replay", GM_RR_JSONL, "--format", "jsonl")
    assert code == 0
    assert from_trf == from_events


def test_replay_with_a_forced_edition(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", GM_RR_TRF, "--format", "jsonl", "--edition", "fide-2009")
    assert code == 0
    assert {o["edition"] for o in jsonl_lines(out)} == {"fide-2009"}
    code, out, _ = run(capsys, "replay", GM_RR_TRF, "--edition", "fide-pre-2009")
    assert code == 0
    assert "[fide-pre-2009]" in out


def test_replay_and_check_say_which_editions_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    """The 2011 seed judged by the 2024 title regulations on request: the title edition is
    named with the reason, and so is the rating edition of the start date."""
    code, out, _ = run(capsys, "replay", GM_RR_TRF, "--edition", "fide-2024")
    assert code == 0
    first = out.splitlines()[0]
    assert "edition fide-2024 (FIDE Title Regulations B.01, applied from 1 January 2024)" in first
    assert first.endswith("chosen by name; live ratings by rating-2011, in force on the start date")
    code, out, _ = run(capsys, "check", GM_RR_TRF, "--player", "6", "--edition", "fide-2024")
    assert code == 0
    assert out.startswith("# edition fide-2024")
    assert "[fide-2024]" in out


def test_edition_option_lists_the_editions_and_their_dates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "fide-pre-2009 (before 2009-07-01), fide-2009 (from 2009-07-01)," in text
    assert "fide-2024 (from 2024-01-01)" in text


@pytest.mark.parametrize("rounds", ["0", "100"])
def test_rounds_outside_the_contracts_range_are_refused(
    capsys: pytest.CaptureFixture[str], rounds: str
) -> None:
    with pytest.raises(SystemExit):
        main(["replay", GM_RR_TRF, "--rounds", rounds])
    err = capsys.readouterr().err
    assert f"argument --rounds: {rounds} is not a number of rounds (1-99)" in err


def test_replay_top_limits_the_standings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", GM_RR_TRF, "--top", "3")
    assert code == 0
    assert "… 7 more players" in out


# ----------------------------------------------------------------------------- check


def test_check_prints_achieved_and_every_requirement_with_its_article(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "check", GM_RR_TRF, "--player", "6", "--title", "GM")
    assert code == 0
    assert err == ""
    assert "GM norm for IM Garrido Ruiz, Pablo (ESP): ACHIEVED" in out
    assert "6½/9 (72%), Ra 2466, Rp 2632" in out
    lines = out.splitlines()
    start = lines.index("requirements:")
    end = lines.index("", start)
    requirements = [line.split() for line in lines[start + 1 : end]]
    # then the player's entry in the norm watch (issue 20)
    assert lines[end + 1] == "norm watch after round 9: achieved — the norm holds"
    assert len(requirements) >= 9
    assert all(r[0] == "ok" for r in requirements)
    articles = [r[1] for r in requirements]
    assert all(a.startswith("1.4") for a in articles)
    for article, name in [
        ("1.41a", "games"),
        ("1.48a", "average rating"),
        ("1.48", "performance"),
        ("1.45a", "title-holders"),
        ("1.45b", "GM title mix"),
        ("1.43", "foreign federations"),
        ("1.44a", "opponents from ESP"),
        ("1.44a", "opponents from one federation"),
    ]:
        assert any(
            line.split()[1:2] == [article] and name in line for line in lines[start + 1 :]
        ), (article, name)
    # the nine games are listed
    assert sum(line.startswith("  ") and line.split()[0].isdigit() for line in lines) == 9


def test_check_by_fide_id_is_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    _, by_rank, _ = run(capsys, "check", GM_RR_TRF, "--player", "6", "--title", "GM")
    code, by_id, _ = run(capsys, "check", GM_RR_TRF, "--player", "90000006", "--title", "GM")
    assert code == 0
    assert by_id == by_rank


def test_check_of_the_near_miss_names_the_failing_requirement(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "check", GM_RR_TRF, "--player", "9", "--title", "GM")
    assert code == 0
    assert "GM norm for IM Santoro, Matteo (ITA): not achieved" in out
    assert "ACHIEVED" not in out
    failing = [line for line in out.splitlines() if line.strip().startswith("NO")]
    assert len(failing) == 1
    (line,) = failing
    assert "1.48" in line.split()
    assert "performance" in line
    assert "2600" in line
    assert "2598" in line


def test_check_after_an_earlier_round(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", GM_RR_TRF, "--player", "6", "--title", "GM", "--round", "5")
    assert code == 0
    assert "not achieved" in out
    assert "rounds 1-5:" in out


def test_check_without_a_title_covers_every_title_the_player_lacks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "check", GM_RR_JSONL, "--player", "8")
    assert code == 0
    assert "GM norm for FM Oberhuber, Lukas (AUT)" in out
    assert "IM norm for FM Oberhuber, Lukas (AUT)" in out


# ----------------------------------------------------------------------------- errors


def test_a_malformed_jsonl_line_is_reported_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = Path(GM_RR_JSONL).read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4][:40]  # cut line 5 short
    bad = tmp_path / "cut.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in (["replay", str(bad)], ["check", str(bad), "--player", "6"]):
        code, out, err = run(capsys, *command)
        assert code == 2
        assert out == ""
        assert err.startswith("tracker: error: cut.jsonl:5: malformed JSON")


def test_a_bad_field_in_a_jsonl_line_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = Path(GM_RR_JSONL).read_text(encoding="utf-8").splitlines()
    lines.insert(12, "# a comment line counts for the line numbers")
    number = next(i for i, line in enumerate(lines, 1) if '"game_result"' in line)
    lines[number - 1] = lines[number - 1].replace('"result":"', '"result":"3')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad), "--format", "jsonl")
    assert code == 2
    assert err.startswith(f"tracker: error: bad.jsonl:{number}: result: impossible result")


def test_an_unknown_player_in_the_events_is_reported_with_file_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = Path(GM_RR_JSONL).read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, 1) if '"pairing"' in line)
    event = json.loads(lines[number - 1])
    event["black"] = 42
    lines[number - 1] = json.dumps(event)
    bad = tmp_path / "unknown.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert err.startswith(
        f"tracker: error: unknown.jsonl:{number}: black: unknown player with start rank 42"
    )


@pytest.mark.parametrize("player", ["42", "12345678"])
def test_check_for_an_unknown_player_fails(capsys: pytest.CaptureFixture[str], player: str) -> None:
    code, out, err = run(capsys, "check", GM_RR_TRF, "--player", player, "--title", "GM")
    assert code == 2
    assert out == ""
    assert err == f"tracker: error: --player: no player with start rank or FIDE id {player}\n"


def test_check_finds_a_player_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 20: ``--player VALLEE`` was refused; a name is taken in any case, without its
    accents, each word the start of a word of the name; one that fits several players
    lists them and is refused."""
    by_rank = run(capsys, "check", GM_RR_TRF, "--player", "6", "--title", "GM")
    assert by_rank[0] == 0
    for name in ("GARRIDO", "garrido ruiz", "Garrido, P", "pablo garrido"):
        assert run(capsys, "check", GM_RR_TRF, "--player", name, "--title", "GM") == by_rank
    code, out, err = run(capsys, "check", GM_RR_TRF, "--player", "castel", "--title", "IM")
    assert code == 0
    assert "IM norm for FM Castellanos Vidal, Iker (ESP)" in out
    code, out, err = run(capsys, "check", GM_RR_TRF, "--player", "nobody")
    assert (code, out, err) == (2, "", "tracker: error: --player: no player named 'nobody'\n")


def test_check_refuses_a_name_that_fits_several_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "check", str(SEEDS / "swiss-11r-secured-2013.trf"), "--player", "d"
    )
    assert (code, out) == (2, "")
    assert "'d' names " in err
    assert "give one's start rank or FIDE id" in err
    assert "names 4 players" in err
    assert "14 IM Dumitrescu, Radu (ROU, 2462); 17 IM Petraitis, Darius (LTU, 2433)" in err


def test_check_without_a_player_prints_the_whole_norm_watch(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every player and title after the round, closest first, out of reach last."""
    code, out, err = run(capsys, "check", GM_RR_TRF, "--round", "6")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1] == "# Costa Brava Invitational 2011, after round 6 of 9"
    assert (
        lines[2] == "   norm watch after round 6 (closest first): 4 in contention, 4 out of reach"
    )
    stages = [line.split()[1] for line in lines[3:]]
    assert stages == ["in"] * 4 + ["out"] * 4
    assert lines[3].split()[:5] == ["GM", "in", "contention", "IM", "Garrido"]
    assert lines[3].endswith("needs 2/3 from the remaining games")
    code, _, err = run(capsys, "check", GM_RR_TRF, "--title", "GM")
    assert (code, err) == (
        2,
        "tracker: error: --title: goes with --player (without it, every title is listed)\n",
    )


def test_a_missing_file_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.trf"
    code, _, err = run(capsys, "replay", str(missing))
    assert code == 2
    assert err.startswith("tracker: error:")
    assert "nowhere.trf" in err


def test_a_broken_trf_is_reported_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "broken.trf"
    bad.write_text("012 Nothing else\n001 garbage\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert err.startswith("tracker: error: broken.trf")


def test_a_bad_option_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["replay", GM_RR_TRF, "--format", "xml"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


# ----------------------------------------------------------------------------- python -m


def test_python_m_tracker_help() -> None:
    done = subprocess.run(
        [PYTHON, "-m", "cli", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: tracker")
    assert "replay" in done.stdout
    assert "check" in done.stdout


def test_python_m_tracker_replays_a_seed() -> None:
    done = subprocess.run(
        [PYTHON, "-m", "cli", "replay", GM_RR_JSONL, "--format", "jsonl"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    types = [json.loads(line)["type"] for line in done.stdout.splitlines()]
    assert [t for t in types if t in ("norm_achieved", "round_finished")][-1] == "norm_achieved"


def test_check_before_the_last_round_lists_each_way_with_a_result_per_remaining_opponent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """After round 3 of the GM round robin, player 6 still has six games: every score that
    can give the norm (1.48) is printed with an example result against each of the six
    opponents, in the order of the remaining games, and the letters add up to the score."""
    code, out, _ = run(capsys, "check", GM_RR_TRF, "--player", "6", "--title", "GM", "--round", "3")
    assert code == 0
    lines = out.splitlines()
    start = lines.index("remaining games (6):")
    remaining = lines[start + 1 : start + 7]
    ways = [line for line in lines if re.match(r"^ +\d+½?/6: ", line)]
    assert ways
    assert ways[-1].split("/")[0].strip() == "6"
    for way in ways:
        score, examples = way.strip().split("/6: ")
        pairs = re.findall(r"([1=0]) ([^,]+, [^,]+)(?:, |$)", examples)
        assert len(pairs) == 6, way
        assert all(name in opponent for (_, name), opponent in zip(pairs, remaining, strict=True))
        halves = sum({"1": 2, "=": 1, "0": 0}[letter] for letter, _ in pairs)
        assert halves == 2 * int(score.rstrip("½")) + score.endswith("½"), way


# ----------------------------------------------------------------------------- the first hour


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert re.fullmatch(r"tracker \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)


@pytest.mark.parametrize("command", ["check", "certificate"])
@pytest.mark.parametrize("number", ["0", "-3", "99"])
def test_a_round_out_of_range_names_the_range(
    capsys: pytest.CaptureFixture[str], command: str, number: str
) -> None:
    """The GM round robin has 9 rounds, all finished: 0 is not the last round, -3 not a
    round at all, 99 not one of them."""
    code, out, err = run(capsys, command, GM_RR_TRF, "--player", "6", f"--round={number}")
    assert code == 2
    assert out == ""
    assert err == (
        f"tracker: error: --round {number}: out of range: rounds 1-9 of 9 have finished\n"
    )


def test_unreadable_input_is_a_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path, why in (
        (tmp_path, "is a folder, not a file"),
        (tmp_path / "nowhere.trf", "no such file or folder"),
    ):
        code, _, err = run(capsys, "check", str(path), "--player", "1")
        assert code == 2
        assert err == f"tracker: error: {path}: cannot read it: {why}\n"
        assert "Errno" not in err


def test_out_makes_its_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secured = str(SEEDS / "swiss-11r-secured-2013.trf")
    out = tmp_path / "out" / "cert.html"
    assert main(["certificate", secured, "--player", "14", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    capsys.readouterr()


def test_an_unwritable_out_is_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secured = str(SEEDS / "swiss-11r-secured-2013.trf")
    (tmp_path / "a-file").write_text("")
    for out, why in (
        (tmp_path / "a-file" / "c.pdf", "a part of the path is a file, not a folder"),
        (tmp_path, "is a folder, not a file"),
    ):
        code, _, err = run(capsys, "certificate", secured, "--player", "14", "--out", str(out))
        assert code == 2
        assert err.startswith(f"tracker: error: --out {out}: cannot write it: {why}")
        assert "Errno" not in err


def test_title_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    _, upper, _ = run(capsys, "check", GM_RR_TRF, "--player", "6", "--title", "GM")
    code, lower, err = run(capsys, "check", GM_RR_TRF, "--player", "6", "--title", "gm")
    assert (code, err) == (0, "")
    assert lower == upper
    with pytest.raises(SystemExit):
        main(["check", GM_RR_TRF, "--player", "6", "--title", "fm"])
    assert "--title: invalid choice: 'FM' (choose from" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("replay", ["--format"]),
        ("check", ["--title", "--round"]),
        ("certificate", ["--format", "--title", "--round", "--out"]),
    ],
)
def test_every_option_has_help(command: str, options: list[str]) -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    actions = {o: a for a in sub.choices[command]._actions for o in a.option_strings}
    for option in options:
        assert actions[option].help, option
    assert all(a.help for a in sub.choices[command]._actions), command


def test_a_command_of_a_missing_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the streams extra the plugin cannot be imported: its commands are listed and,
    with any arguments, say what to install (exit 2), instead of argparse's invalid choice."""
    missing = EntryPoint("streams", "no_such_module_here.cli:register", "tracker.commands")
    monkeypatch.setattr(tracker_cli, "entry_points", lambda group: [missing])
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "worker" in capsys.readouterr().out
    for argv in (
        ["worker", "--broker", "kafka://127.0.0.1:9092"],
        ["publish", "seeds/x.trf", "--pace", "2"],
        ["alerts", "--follow", "--format", "text"],
        ["schema", "--out", "out/schemas"],
        ["dead-letters", "--help"],
    ):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, "")
        assert err.startswith(f"tracker {argv[0]}: needs the streams extra (")
        assert "pip install -e '.[streams]'" in err


def test_a_closed_pipe_is_not_an_error() -> None:
    """``tracker replay … | head -1``: the reader leaves early; no "Broken pipe", not even at
    the interpreter's exit, and exit 0."""
    proc = subprocess.Popen(
        # ~200 kB, more than a pipe holds, so the writer meets the closed pipe
        [
            PYTHON,
            "-m",
            "cli",
            "replay",
            str(SEEDS / "swiss-11r-secured-2013.trf"),
            "--format",
            "jsonl",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    assert proc.stdout.readline().startswith(b"{")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert err == b""


def test_every_alert_line_names_its_round(capsys: pytest.CaptureFixture[str]) -> None:
    """``tracker alerts --format text`` follows several topics, so an alert may come after a
    later round's standings: each alert's line says its round. A half point is ``½``, never
    ``0½``."""
    for seed in sorted(SEEDS.glob("*.trf")):
        for alert in replay(read_events(seed.read_text(encoding="utf-8"), seed.name)):
            lines = list(story([alert], top=100))
            if isinstance(alert, ev.RoundFinished):
                assert f"round {alert.round} finished" in lines[1]
                scores = [line.split()[-3] for line in lines[3:] if line.strip()[0].isdigit()]
                assert not any(s.startswith("0½") for s in scores), scores
                continue
            for line in lines:
                assert f"round {alert.round}: " in line, line
                assert "0½" not in line, line


# ----------------------------------------------------------------------------- issue 20, item 4


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"", "empty.trf: empty file"),
        (b"  \n\r\n", "empty.trf: empty file"),
        (random.Random(7).randbytes(400), "empty.trf: not a TRF file"),
        (
            b'[Event "Rochefort Masters"]\n[Site "Rochefort FRA"]\n[Round "1.1"]\n\n1. e4 1-0\n',
            "a PGN is read by `tracker follow --pgn",
        ),
    ],
    ids=["empty", "blank", "random bytes", "pgn"],
)
def test_replay_says_what_it_was_given_instead_of_a_tournament_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, said: str
) -> None:
    """An empty file, random bytes or a PGN answered "no tournament id: neither record XNI
    nor record 012 gives one"."""
    path = tmp_path / "empty.trf"
    path.write_bytes(content)
    code, out, err = run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert said in err, err
    assert "no tournament id" not in err


def test_check_keeps_the_games_left_out_in_the_table_s_columns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The "games left out" row put the result in the rating column."""
    code, out, _ = run(capsys, "check", str(SEEDS / "dropped-win-2012.trf"), "--player", "14")
    assert code == 0
    lines = out.splitlines()
    counted = lines[lines.index("games counted:") + 1]
    left = lines[lines.index("games left out:") + 1]
    assert left.index("rating") == counted.index("rating")
    assert left.index("res") == counted.index("res")
    row = lines[lines.index("games left out:") + 2]
    assert row[: left.index("rating") + len("rating")].split()[-1] == "2241"  # the rating
    assert row[left.index("res") :].split()[0] == "1"  # the result under res
    assert "1.42e: won game left out" in row


def test_a_long_needed_text_keeps_has_in_its_column() -> None:
    """A "needed" text longer than its column pushed "has" out of the requirement table:
    it is wrapped within its column, and "has" stays on the row."""
    from tracker.render.report import requirement_lines

    short = ev.Requirement(article="1.4.1a", name="games", needed="≥ 9", actual="7", met=False)
    long = ev.Requirement(
        article="1.4.5",
        name="GM title mix",
        needed="3 GM-equivalents (GM=1; IM, WGM ½ each, at most 1 WIM)",
        actual="2",
        met=False,
    )
    (one,) = requirement_lines(short, "NO ")
    first, *more = requirement_lines(long, "NO ")
    assert first.index("has 2") == one.index("has 7")  # on the row, in its column
    assert first.endswith("has 2")
    column = one.index("≥ 9")
    assert more
    assert all(line[:column].strip() == "" for line in more)  # wrapped within the column
    told = [first[column : one.index("has")].strip()] + [line.strip() for line in more]
    assert " ".join(told) == long.needed


def test_standings_cut_a_long_name_before_the_federation() -> None:
    """The text standings cut the name and the federation together at 35 characters."""
    ref = ev.PlayerRef(
        rank=8,
        fide_id=None,
        name="Haub, Thorsten Michael Alexander Friedrich",
        federation="GER",
        title="IM",
        rating=2400,
    )
    finished = ev.RoundFinished(
        alert_id="a",
        tournament_id="t",
        round=1,
        edition="fide-2009",
        last_round=False,
        standings=(
            ev.Standing(player=ref, score=1, score_text="1", live_rating=2410, rating_change=10),
        ),
    )
    row = list(story([finished]))[-1]
    assert "IM Haub, Thorsten Michael A… (GER) " in row  # 34 characters
    assert row.split()[-3:] == ["1", "2410", "+10"]
