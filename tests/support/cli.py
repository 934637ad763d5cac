"""The ``tracker`` command run in-process, and the seed it is most often run on."""

from __future__ import annotations

import pytest

from cli.main import main
from tests.support.paths import SEEDS

GM_RR_TRF = str(SEEDS / "gm-roundrobin-2011.trf")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
