"""The embedded store of ``tracker titles``: one SQLite file (``titles.sqlite3``) in a folder
the user names, holding facts only -- each player's norms and ratings
(:class:`~tracker.titles.facts.PlayerFacts`), and the IT1 certificates of norms -- never a
judgement, which is made again from the facts whenever it is asked for.

It sits in ``cli/`` because the one command that uses it does (the worker keeps the same
facts in a Faust table): a module of I/O beside its command, outside the pure core, with no
package of its own for a single user.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from tracker import contract as ev
from tracker.host.titles import Batch
from tracker.render.certificate import NormCertificate
from tracker.rules import TitleRules
from tracker.titles.facts import (
    ApplicationAlert,
    NormWithdrawn,
    PlayerFacts,
    TitleFact,
    changes,
)

FILE = "titles.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    fide_id INTEGER PRIMARY KEY, federation TEXT, player TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS norms (
    fide_id INTEGER NOT NULL, key TEXT NOT NULL, tournament_id TEXT, norm TEXT NOT NULL,
    PRIMARY KEY (fide_id, key)
);
CREATE TABLE IF NOT EXISTS ratings (
    fide_id INTEGER NOT NULL, key TEXT NOT NULL, tournament_id TEXT, rating TEXT NOT NULL,
    PRIMARY KEY (fide_id, key)
);
CREATE TABLE IF NOT EXISTS certificates (
    fide_id INTEGER NOT NULL, key TEXT NOT NULL, tournament_id TEXT, certificate TEXT NOT NULL,
    PRIMARY KEY (fide_id, key)
);
CREATE INDEX IF NOT EXISTS players_by_federation ON players (federation);
"""

CHUNK = 500
"""FIDE ids looked up in one query."""


class StoreError(OSError):
    """The store's folder or file cannot be used; the message says which and why."""


class TitleStore:
    def __init__(self, folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(folder / FILE)
            self.db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"--store {folder}: cannot use it: {exc}") from None
        self.folder = folder

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ reading

    def players(self, fide_ids: Iterable[int]) -> dict[int, PlayerFacts]:
        """The facts of these players (those the store knows)."""
        wanted = sorted(set(fide_ids))
        found: dict[int, PlayerFacts] = {}
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start : start + CHUNK]
            marks = ",".join("?" * len(chunk))
            refs = self._rows(
                f"SELECT fide_id, player FROM players WHERE fide_id IN ({marks})", chunk
            )
            norms = self._rows(f"SELECT fide_id, norm FROM norms WHERE fide_id IN ({marks})", chunk)
            ratings = self._rows(
                f"SELECT fide_id, rating FROM ratings WHERE fide_id IN ({marks})", chunk
            )
            people = {int(f): ev.PlayerRef.model_validate_json(raw) for f, raw in refs}
            held: dict[int, dict[str, ev.TitleNorm]] = defaultdict(dict)
            for f, raw in norms:
                n = ev.TitleNorm.model_validate_json(raw)
                held[int(f)][n.key] = n
            reached: dict[int, dict[str, ev.TitleRating]] = defaultdict(dict)
            for f, raw in ratings:
                r = ev.TitleRating.model_validate_json(raw)
                reached[int(f)][r.key] = r
            for f in set(people) | set(held) | set(reached):
                found[f] = PlayerFacts(
                    fide_id=f, player=people.get(f), norms=held[f], ratings=reached[f]
                )
        return found

    def player(self, fide_id: int) -> PlayerFacts | None:
        return self.players([fide_id]).get(fide_id)

    def with_norms(self, federations: frozenset[str] = frozenset()) -> list[PlayerFacts]:
        """Every player with a norm (of these federations, when given), by name."""
        query = "SELECT DISTINCT n.fide_id FROM norms n LEFT JOIN players p USING (fide_id)"
        args: list[str] = []
        if federations:
            query += f" WHERE p.federation IN ({','.join('?' * len(federations))})"
            args = sorted(federations)
        ids = [row[0] for row in self._rows(query, args)]
        found = self.players(ids)
        return sorted(found.values(), key=lambda p: (p.player.name if p.player else "", p.fide_id))

    def certificates(self, fide_id: int) -> dict[str, NormCertificate]:
        rows = self._rows("SELECT key, certificate FROM certificates WHERE fide_id = ?", [fide_id])
        return {key: NormCertificate.model_validate_json(raw) for key, raw in rows}

    def _rows(self, query: str, args: Sequence[object]) -> list[tuple[Any, ...]]:
        with closing(self.db.execute(query, args)) as cursor:
            rows: list[tuple[Any, ...]] = cursor.fetchall()
            return rows

    # ------------------------------------------------------------------ writing

    def add(self, batch: Batch, rules: TitleRules) -> list[ApplicationAlert]:
        """Take a file's facts in, in one transaction: the facts of the tournaments it
        replays in whole replace those the store had of them. The alerts are what changed
        for each player, judged under ``rules`` (one diff a player, as after the file)."""
        facts: dict[int, list[TitleFact]] = {}
        for fact in batch.facts:
            facts.setdefault(fact.fide_id, []).append(fact)
        replaced = self._of_tournaments(batch.tournaments)
        befores = self.players(set(facts) | set(replaced))
        out: list[ApplicationAlert] = []
        rows = _Rows()
        for fide_id in sorted(set(facts) | set(replaced)):
            before = befores.get(fide_id) or PlayerFacts(fide_id=fide_id)
            after = _without(before, batch.tournaments)
            for fact in facts.get(fide_id, ()):
                after = after.with_fact(fact)
            if after == before:
                continue
            rows.add(before, after)
            if before.norms or after.norms:
                mine = facts.get(fide_id)
                context = mine[-1] if mine else _gone(before, batch.tournaments)
                out.extend(changes(before, after, context, rules))
        with self.db:
            rows.write(self.db)
            self.db.executemany(
                "DELETE FROM certificates WHERE tournament_id = ?",
                [(tid,) for tid in batch.tournaments],
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO certificates VALUES (?, ?, ?, ?)",
                [
                    (f, key, c.tournament.tournament_id, c.model_dump_json())
                    for (f, key), c in batch.certificates.items()
                ],
            )
        return out

    def _of_tournaments(self, tournaments: Iterable[str]) -> set[int]:
        found: set[int] = set()
        for tid in tournaments:
            for table in ("norms", "ratings"):
                rows = self._rows(f"SELECT fide_id FROM {table} WHERE tournament_id = ?", [tid])
                found.update(int(r[0]) for r in rows)
        return found


class _Rows:
    """The rows a batch changes, written in one statement each (a rating list changes a row
    for every player on it)."""

    def __init__(self) -> None:
        self.players: list[tuple[int, str | None, str]] = []
        self.gone: dict[str, list[tuple[int, str]]] = {"norms": [], "ratings": []}
        self.new: dict[str, list[tuple[int, str, str | None, str]]] = {"norms": [], "ratings": []}

    def add(self, before: PlayerFacts, after: PlayerFacts) -> None:
        f = after.fide_id
        if after.player is not None and after.player != before.player:
            self.players.append((f, after.player.federation, after.player.model_dump_json()))
        for table, old, now in (
            ("norms", before.norms, after.norms),
            ("ratings", before.ratings, after.ratings),
        ):
            self.gone[table] += [(f, k) for k in old.keys() - now.keys()]
            self.new[table] += [
                (f, k, v.tournament_id, v.model_dump_json())
                for k, v in now.items()
                if old.get(k) != v
            ]

    def write(self, db: sqlite3.Connection) -> None:
        db.executemany("INSERT OR REPLACE INTO players VALUES (?, ?, ?)", self.players)
        for table in ("norms", "ratings"):
            db.executemany(f"DELETE FROM {table} WHERE fide_id = ? AND key = ?", self.gone[table])
            db.executemany(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?, ?)", self.new[table])


def _without(p: PlayerFacts, tournaments: set[str]) -> PlayerFacts:
    """The player's facts less those of ``tournaments`` (a file replaying them again)."""
    if not tournaments:
        return p
    return PlayerFacts.model_construct(
        fide_id=p.fide_id,
        player=p.player,
        norms={k: n for k, n in p.norms.items() if n.tournament_id not in tournaments},
        ratings={k: r for k, r in p.ratings.items() if r.tournament_id not in tournaments},
    )


def _gone(p: PlayerFacts, tournaments: set[str]) -> NormWithdrawn:
    """What the alerts of a player name when a file replaying a tournament again leaves
    nothing of theirs in it."""
    held = [n.tournament_id for n in p.norms.values()] + [
        r.tournament_id for r in p.ratings.values()
    ]
    tid = min(t for t in held if t is not None and t in tournaments)
    assert p.player is not None
    return NormWithdrawn(fide_id=p.fide_id, player=p.player, tournament_id=tid, key="")


__all__ = ["FILE", "StoreError", "TitleStore"]
