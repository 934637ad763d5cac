"""Write the readings of the regulations into ``docs/readings.md`` from the docstrings that
hold them, so that each reading is written once, beside the code that implements it.

A reading is a paragraph of a docstring (of a module, class, function, method, or the
attribute docstring right after an assignment) that starts ``Reading [SECTION RANK]
HEADING:`` and runs to the next blank line::

    Reading [unclear 20] 1.46a (2009): "the maximum number of unrated opponents is ...

``SECTION`` names the generated block of ``docs/readings.md`` it belongs to (the marker
``<!-- readings SECTION: ... -->``), ``RANK`` orders the bullets of a section, and
``HEADING`` (the article(s) and edition, or what the reading is about) becomes the bullet's
bold heading. reST roles and double backticks are written as Markdown code.

This lives in ``scripts/``, outside ``tracker/``: it reads files, and the core holds no I/O.
It parses the source with :mod:`ast` rather than importing it, so attribute docstrings (which
Python drops at run time) are read too, and nothing of the tracker runs.

    .venv/bin/python scripts/readings.py           # rewrite docs/readings.md
    .venv/bin/python scripts/readings.py --check   # exit 1 if it is not up to date
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "readings.md"
SOURCES = ("tracker", "follow", "cli", "streams")
"""The packages whose docstrings hold readings."""
COMMAND = ".venv/bin/python scripts/readings.py"
WIDTH = 96
MARKER = re.compile(r"[-+*%]|\d+[.)]")

READING = re.compile(
    r"Reading \[(?P<section>[\w-]+) (?P<rank>\d+)\] (?P<heading>.+?): (?P<text>.+)", re.S
)
BLOCK = re.compile(
    r"(?P<open><!-- readings (?P<section>[\w-]+): [^>]*-->\n)(?P<body>.*?)"
    r"(?P<close><!-- /readings -->)",
    re.S,
)


@dataclass(frozen=True, order=True)
class Reading:
    """One reading: its place in the document, its heading and text, and where it lives."""

    section: str
    rank: int
    heading: str
    text: str
    where: str

    def bullet(self) -> str:
        """The Markdown bullet ``docs/readings.md`` shows."""
        dash = " " if self.text.startswith("(") else " — "
        return wrap(f"**{self.heading}**{dash}{self.text} (`{self.where}`)")


def wrap(text: str) -> str:
    """``text`` as a Markdown bullet of lines up to :data:`WIDTH` wide, no line starting with
    a word Markdown would read as a list marker (``+ 1``).

    >>> print(wrap("a " * 47 + "+ 1"))
    * a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a
      a + 1
    """
    lines: list[list[str]] = [["*"]]
    for word in text.split():
        line = lines[-1]
        if len(" ".join(line)) + 1 + len(word) > WIDTH and len(line) > 1:
            carried = [line.pop()] if MARKER.fullmatch(word) and len(line) > 2 else []
            lines.append([" ", *carried])
        lines[-1].append(word)
    return "\n".join(" ".join(line) for line in lines)


def markdown(text: str) -> str:
    """reST inline markup as Markdown: ``:attr:`x``` and ````x```` become ```x```.

    >>> markdown("see :attr:`swiss_exemption` and ``FID``")
    'see `swiss_exemption` and `FID`'
    """
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def docstrings(tree: ast.Module, module: str) -> list[tuple[str, str, int]]:
    """Every docstring of a module, its classes and their functions as ``(qualified name,
    text, line)``, attribute docstrings (a string right after an assignment in a module or
    class body) included; functions nested in functions are not read."""
    out: list[tuple[str, str, int]] = []

    def body(nodes: list[ast.stmt], prefix: str) -> None:
        previous: ast.stmt | None = None
        for node in nodes:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{node.name}"
                doc = ast.get_docstring(node)
                if doc:
                    out.append((name, doc, node.lineno))
                if isinstance(node, ast.ClassDef):
                    body(node.body, f"{name}.")
            elif (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
                and isinstance(previous, (ast.Assign, ast.AnnAssign))
            ):
                target = (
                    previous.target if isinstance(previous, ast.AnnAssign) else previous.targets[0]
                )
                if isinstance(target, ast.Name):
                    out.append(
                        (f"{prefix}{target.id}", inspect.cleandoc(node.value.value), node.lineno)
                    )
            previous = node

    doc = ast.get_docstring(tree)
    if doc:
        out.append((module, doc, 1))
    body(tree.body, f"{module}.")
    return out


def collect(root: Path = ROOT) -> list[Reading]:
    """Every reading of the :data:`SOURCES`, by section and rank; a malformed or repeated one is an
    error naming its file and line."""
    found: dict[tuple[str, int], Reading] = {}
    paths = (path for package in SOURCES for path in (root / package).rglob("*.py"))
    for path in sorted(paths):
        rel = path.relative_to(root)
        module = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"), str(rel))
        for name, doc, line in docstrings(tree, module):
            for paragraph in re.split(r"\n\s*\n", doc):
                flat = " ".join(paragraph.split())
                if not flat.startswith("Reading ["):
                    continue
                match = READING.fullmatch(flat)
                if match is None:
                    raise SystemExit(
                        f"{rel}:{line}: {name}: a reading starts 'Reading [SECTION RANK] HEADING: '"
                    )
                key = (match["section"], int(match["rank"]))
                if key in found:
                    raise SystemExit(
                        f"{rel}:{line}: {name}: reading {key} is also {found[key].where}"
                    )
                found[key] = Reading(
                    key[0], key[1], match["heading"], markdown(match["text"]), name
                )
    return sorted(found.values())


def render(document: str, readings: list[Reading]) -> str:
    """``document`` with each generated block holding its section's readings; a section
    without a block, or a block without readings, is an error."""
    by_section: dict[str, list[Reading]] = {}
    for reading in readings:
        by_section.setdefault(reading.section, []).append(reading)
    blocks = {m["section"] for m in BLOCK.finditer(document)}
    if missing := sorted(set(by_section) - blocks):
        raise SystemExit(f"{DOC.name} has no block for the readings of {missing}")
    if empty := sorted(blocks - set(by_section)):
        raise SystemExit(f"no reading in the source for the blocks {empty} of {DOC.name}")

    def fill(match: re.Match[str]) -> str:
        bullets = "\n".join(r.bullet() for r in by_section[match["section"]])
        return f"{match['open']}{bullets}\n{match['close']}"

    return BLOCK.sub(fill, document)


def main(argv: list[str] | None = None, doc: Path = DOC) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not up to date")
    args = parser.parse_args(argv)
    current = doc.read_text(encoding="utf-8")
    wanted = render(current, collect())
    if current == wanted:
        return 0
    if args.check:
        print(
            f"{doc.name} is not what the docstrings give: run {COMMAND}",
            file=sys.stderr,
        )
        return 1
    doc.write_text(wanted, encoding="utf-8")
    print(f"wrote {doc.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
