"""The Kafka subcommands are registered on ``tracker`` and parse as documented."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli.main import OPTIONAL_COMMANDS, build_parser, main
from cli.streams import cmd_alerts, cmd_publish, cmd_schema, cmd_worker, register
from tests.support.paths import ROOT


def test_subcommands_are_registered() -> None:
    parser = build_parser()
    args = parser.parse_args(["worker", "--broker", "kafka://h:1"])
    assert args.func is cmd_worker
    assert args.broker == "kafka://h:1"
    args = parser.parse_args(["publish", "t.trf", "--pace", "0.5"])
    assert args.func is cmd_publish
    assert args.pace == 0.5
    assert args.broker is None
    args = parser.parse_args(["alerts", "--follow", "--format", "jsonl", "--timeout", "3"])
    assert args.func is cmd_alerts
    assert args.follow
    assert args.timeout == 3.0
    args = parser.parse_args(["schema", "--out", "x"])
    assert args.func is cmd_schema
    assert args.out == "x"


def test_the_core_knows_the_commands_the_streams_extra_adds() -> None:
    """``tracker`` lists them by name when the extra is missing (cli.main), so the names
    must be those :func:`register` adds; and every option of theirs has a help text."""
    sub = argparse.ArgumentParser().add_subparsers()
    register(sub)
    assert tuple(sub.choices) == OPTIONAL_COMMANDS["streams"]
    for name, parser in sub.choices.items():
        assert all(a.help for a in parser._actions), name


def test_schema_command_writes_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.split()
    assert len(printed) == 4  # input, alert, dead letter, webhook dead letter
    for name in printed:
        assert json.loads(Path(name).read_text())["$schema"]


def test_publish_reports_an_unreadable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "game_result"}\n')
    assert main(["publish", str(bad), "--broker", "kafka://127.0.0.1:1"]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err


def test_alerts_fails_cleanly_without_a_broker(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["alerts", "--broker", "kafka://127.0.0.1:1", "--timeout", "2"])
    assert code == 2
    assert "127.0.0.1:1" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [
        ["publish", "seeds/gm-roundrobin-2011.jsonl"],
        ["alerts", "--timeout", "5"],
        ["dead-letters", "--timeout", "5"],
        ["worker"],
    ],
    ids=lambda c: c[0],
)
def test_kafka_commands_without_a_broker_say_so_in_one_line(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", *command, "--broker", "kafka://127.0.0.1:1"],
        capture_output=True,
        text=True,
        env={**os.environ, "TRACKER_BROKER_WAIT": "1"},
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("tracker: error:")]
    assert len(errors) == 1, done.stderr
    assert "no Kafka broker answered at 127.0.0.1:1" in errors[0]
    assert "scripts/pipeline.sh" in errors[0]
    assert len(done.stderr.splitlines()) <= 2, done.stderr  # the worker says what it waits for
    assert "Unclosed" not in done.stderr
    assert "Traceback" not in done.stderr


async def test_alerts_that_came_together_are_shown_together() -> None:
    """``tracker alerts --format text`` puts what came together in round order (issue 20):
    a backlog read at once is one burst; what comes after a pause is the next."""
    from streams.subscriber import bursts

    async def source() -> Any:
        for item in ("a", "b"):
            yield item
        await asyncio.sleep(0.3)
        yield "c"

    got = [batch async for batch in bursts(source(), 0.1)]
    assert got == [["a", "b"], ["c"]]


def test_the_worker_says_where_its_live_page_is() -> None:
    """``tracker worker --web-port`` did not print the live page's address (issue 20); the
    browser test reads it in a running worker's output."""
    from cli.streams import _web_address
    from streams.settings import Settings

    here = _web_address(Settings(web_port=6066))
    assert here.startswith("the live page at http://127.0.0.1:6066/live ")
    assert "http://127.0.0.1:6066/openapi.json" in here
    named = Settings(web_port=8080, web_bind="0.0.0.0", web_host="worker-1.example")
    assert "http://worker-1.example:8080/live" in _web_address(named)
    assert "http://127.0.0.1:8080/live" in _web_address(Settings(web_port=8080, web_bind="0.0.0.0"))
