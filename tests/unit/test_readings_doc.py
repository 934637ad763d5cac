"""``docs/readings.md`` shows the readings of the regulations as the docstrings that hold them
say (``scripts/readings.py``), so that each reading is written once."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.paths import ROOT


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readings_gen", ROOT / "scripts" / "readings.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


gen = generator()


def test_docs_readings_is_what_the_docstrings_give() -> None:
    current = gen.DOC.read_text(encoding="utf-8")
    assert gen.render(current, gen.collect()) == current, (
        f"docs/readings.md differs from the readings in the docstrings: run {gen.COMMAND}"
    )
    assert gen.main(["--check"]) == 0


def test_every_section_of_the_docs_has_readings() -> None:
    sections = {r.section for r in gen.collect()}
    assert sections == {m["section"] for m in gen.BLOCK.finditer(gen.DOC.read_text())}


def source_tree(tmp_path: Path, source: str) -> Path:
    (tmp_path / "tracker").mkdir()
    (tmp_path / "tracker" / "rules.py").write_text(source, encoding="utf-8")
    return tmp_path


def test_readings_are_read_from_attribute_and_function_docstrings_in_rank_order(
    tmp_path: Path,
) -> None:
    root = source_tree(
        tmp_path,
        '''
class Edition:
    floor: int = 1200
    """1.46d: the floor.

    Reading [a 20] 1.46d (2009): read as
    :attr:`floor`, ``1200``.
    """

    def games(self) -> int:
        """Reading [a 10] Byes: a bye is no game."""
        return 9
''',
    )
    found = gen.collect(root)
    assert [(r.rank, r.heading, r.text, r.where) for r in found] == [
        (10, "Byes", "a bye is no game.", "tracker.rules.Edition.games"),
        (20, "1.46d (2009)", "read as `floor`, `1200`.", "tracker.rules.Edition.floor"),
    ]
    document = "x\n<!-- readings a: generated -->\nstale\n<!-- /readings -->\ny\n"
    assert gen.render(document, found) == (
        "x\n<!-- readings a: generated -->\n"
        "* **Byes** — a bye is no game. (`tracker.rules.Edition.games`)\n"
        "* **1.46d (2009)** — read as `floor`, `1200`. (`tracker.rules.Edition.floor`)\n"
        "<!-- /readings -->\ny\n"
    )


def test_a_malformed_or_repeated_reading_names_its_place(tmp_path: Path) -> None:
    root = source_tree(tmp_path, 'X = 1\n"""Reading [a 1] no heading"""\n')
    with pytest.raises(SystemExit, match=r"tracker/rules.py:2: tracker.rules.X"):
        gen.collect(root)
    (root / "tracker" / "rules.py").write_text(
        'def f():\n    """Reading [a 1] A: one."""\n\n\ndef g():\n    """Reading [a 1] B: two."""\n'
    )
    with pytest.raises(SystemExit, match=r"reading \('a', 1\) is also tracker.rules.f"):
        gen.collect(root)


def test_check_fails_on_a_stale_page_and_the_command_rewrites_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    current = gen.DOC.read_text(encoding="utf-8")
    stale = tmp_path / "readings.md"
    stale.write_text(current.replace("* **1.46c1 (2009)** — ", "* **1.46c1 (2009)** — edited "))
    assert gen.main(["--check"], doc=stale) == 1
    assert "run .venv/bin/python scripts/readings.py" in capsys.readouterr().err
    assert gen.main([], doc=stale) == 0
    assert stale.read_text(encoding="utf-8") == current
