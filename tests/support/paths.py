"""Where the tests find the checkout's files."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout."""
SEEDS = ROOT / "seeds"
"""The sample tournaments the project authors (``seeds/``)."""
DATA = ROOT / "tests" / "data"
"""The tests' own files: the regulations' printed tables, real and authored exports."""
REAL = DATA / "real"
"""Real exports and files authored after them (``tests/data/real/SOURCES.md``)."""


def shared_real_trf() -> Path | None:
    """``shared/real-trf/``: real exports the project keeps beside its checkout, not in it
    (their licences; CI lays ``shared/`` beside the clone, a worktree has it two folders
    up); ``None`` when neither place has it."""
    for base in (ROOT.parent, ROOT.parent.parent):
        folder = base / "shared" / "real-trf"
        if folder.is_dir():
            return folder
    return None
