"""How far a webhook relay has got in each partition, and what it says of it in a commit.

A relay delivers several tournaments at once, so the alerts of one partition are done out
of order: while one tournament's alert is retried, alerts of other tournaments further on in
the same partition are answered 2xx. The committed offset cannot pass the alert still being
retried. So that a restart does not post those others again, each commit's metadata names
the offsets beyond the committed one that are done (:func:`format_done`), and a restarted
relay skips them (:func:`parse_done`, :meth:`Offsets.resume`).

The metadata says which offsets are *not* done yet (few: the tournaments in flight), up to a
horizon, relative to the committed offset::

    d1 <horizon> <not done>        e.g. "d1 9 3-4"

Offsets after the committed one up to the horizon, except those listed, are done (the
committed offset itself is, by definition, the first one not done). A text
that would be longer than :data:`METADATA_MAX` gets a nearer horizon, so it claims fewer
offsets done, never more: what lies beyond is delivered again after a restart.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

METADATA_MAX = 1000
"""Characters of a commit's metadata at most (the broker's ``offset.metadata.max.bytes``
is 4,096 by default)."""
VERSION = "d1"


def _ranges(values: Iterable[int]) -> str:
    """>>> _ranges([0, 3, 4, 5, 9])
    '0,3-5,9'
    """
    out = []
    # consecutive values have the same difference to their place in the sorted list
    for _, run in itertools.groupby(enumerate(sorted(values)), lambda p: p[1] - p[0]):
        first, *rest = (v for _, v in run)
        out.append(f"{first}-{rest[-1]}" if rest else str(first))
    return ",".join(out)


def format_done(committed: int, horizon: int, open_: Iterable[int]) -> str:
    """The metadata of a commit at ``committed``: every offset after it up to ``horizon``
    (excluded) is done but those in ``open_``. Past :data:`METADATA_MAX` characters the
    horizon comes nearer, down to the first offset left out of the list.

    >>> format_done(100, 109, [100, 103, 104])
    'd1 9 3-4'
    >>> format_done(100, 100, [])
    ''
    >>> len(format_done(0, 10_000, range(0, 10_000, 2))) <= METADATA_MAX
    True
    """
    if horizon <= committed + 1:
        return ""  # nothing beyond the committed offset is done
    waiting = sorted(o - committed for o in open_ if committed < o < horizon)
    reach = horizon - committed
    text = f"{VERSION} {reach} {_ranges(waiting)}"
    if len(text) <= METADATA_MAX:
        return text
    # keep the longest prefix of the list that fits; the horizon is the first offset left out
    lo, hi = 0, len(waiting)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(f"{VERSION} {waiting[mid]} {_ranges(waiting[:mid])}") <= METADATA_MAX:
            lo = mid
        else:
            hi = mid - 1
    return f"{VERSION} {waiting[lo]} {_ranges(waiting[:lo])}"


@dataclasses.dataclass(frozen=True)
class Skips:
    """The offsets a restarted relay finds already done (by the metadata of its commit)."""

    committed: int = 0
    horizon: int = 0
    waiting: frozenset[int] = frozenset()
    """Offsets below the horizon not done."""

    def __contains__(self, offset: object) -> bool:
        return (
            isinstance(offset, int)
            and self.committed < offset < self.horizon
            and offset not in self.waiting
        )


def parse_done(committed: int, metadata: str | None) -> Skips:
    """What the metadata of a commit at ``committed`` says is done; a text this version did
    not write (or none) says nothing is.

    >>> s = parse_done(100, "d1 9 3-4")
    >>> [o for o in range(98, 112) if o in s]
    [101, 102, 105, 106, 107, 108]
    >>> parse_done(100, "") == parse_done(100, "other") == Skips(100, 100)
    True
    """
    nothing = Skips(committed, committed)
    parts = (metadata or "").split(" ")
    if len(parts) != 3 or parts[0] != VERSION:
        return nothing
    try:
        reach = int(parts[1])
        waiting: set[int] = set()
        for item in filter(None, parts[2].split(",")):
            first, _, last = item.partition("-")
            waiting.update(range(int(first), int(last or first) + 1))
    except ValueError:
        return nothing
    if reach < 0:
        return nothing
    return Skips(committed, committed + reach, frozenset(committed + w for w in waiting))


@dataclasses.dataclass
class Offsets:
    """The offsets of each partition taken and not yet done, so that a commit never passes
    an alert still being delivered, and says which offsets beyond it are done.

    >>> o = Offsets()
    >>> for offset in (0, 1, 2):
    ...     o.take("p", offset)
    >>> o.done("p", 1)
    >>> o.due()  # 0 is still in flight, 1 is done
    {'p': (0, 'd1 3 2')}
    >>> o.committed_to(o.due()); o.due()
    {}
    >>> o.done("p", 0)
    >>> o.due()  # 0 and 1 are done: commit up to 2 (2 is in flight)
    {'p': (2, '')}
    """

    pending: dict[Hashable, set[int]] = dataclasses.field(default_factory=dict)
    next: dict[Hashable, int] = dataclasses.field(default_factory=dict)
    """Per partition, one past the highest offset taken."""
    committed: dict[Hashable, tuple[int, str]] = dataclasses.field(default_factory=dict)
    """Per partition, the offset and metadata committed last (at first, where it started)."""
    skips: dict[Hashable, Skips] = dataclasses.field(default_factory=dict)
    """Per partition, the offsets a commit of an earlier run says are done."""

    def resume(self, partition: Hashable, skips: Skips) -> None:
        """Start ``partition`` at ``skips.committed``, with what the commit said is done."""
        self.skips[partition] = skips
        self.committed[partition] = (skips.committed, "")

    def skipped(self, partition: Hashable, offset: int) -> bool:
        """Whether an earlier run had already done this offset (take it, and done it)."""
        skips = self.skips.get(partition)
        return skips is not None and offset in skips

    def take(self, partition: Hashable, offset: int) -> None:
        self.committed.setdefault(partition, (offset, ""))  # where the reading started
        self.pending.setdefault(partition, set()).add(offset)
        self.next[partition] = max(self.next.get(partition, 0), offset + 1)

    def done(self, partition: Hashable, offset: int) -> None:
        self.pending.get(partition, set()).discard(offset)

    def due(self) -> dict[Any, tuple[int, str]]:
        """Per partition, the offset to commit now (the first not done, or the next to read)
        and the metadata naming what is done beyond it, where either changed."""
        out = {}
        for partition, end in self.next.items():
            waiting = self.pending.get(partition)
            upto = min(waiting) if waiting else end
            last = self.committed.get(partition, (-1, ""))
            if upto < last[0]:
                continue  # never back
            skips = self.skips.get(partition)
            if skips is not None and skips.horizon > end:
                # what the earlier run did beyond what this one has read yet still holds
                waiting = (waiting or set()) | {o for o in skips.waiting if o >= end}
                end = skips.horizon
            commit = (upto, format_done(upto, end, waiting or ()))
            if commit != last:
                out[partition] = commit
        return out

    def committed_to(self, offsets: Mapping[Any, tuple[int, str]]) -> None:
        self.committed.update(offsets)

    @property
    def busy(self) -> int:
        """Offsets taken and not done."""
        return sum(len(p) for p in self.pending.values())


__all__ = ["METADATA_MAX", "Offsets", "Skips", "format_done", "parse_done"]
