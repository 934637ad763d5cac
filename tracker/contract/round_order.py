"""Alerts read from several topics, put back in the order a reader follows.

The worker writes a round's summary (``round_finished``) and its alerts to different topics
(rounds, norms, titles, ignorable games); a reader of all of them gets each topic's records
in order but the topics interleaved as the consumer fetched them: a whole backlog can come
topic by topic, a round-3 norm inside the round-1 block. :func:`in_round_order` sorts what
was read together: tournament by tournament (in the order each first appears), round by
round, each round's summary before its alerts, the rest as they came.

>>> heads = [("t", 1, "norm_prospect"), ("t", 3, "norm_achieved"), ("t", 1, "round_finished"),
...          ("t", 3, "round_finished"), ("u", 1, "round_finished"), ("t", 2, "round_finished")]
>>> in_round_order(heads, lambda h: h)  # doctest: +NORMALIZE_WHITESPACE
[('t', 1, 'round_finished'), ('t', 1, 'norm_prospect'), ('t', 2, 'round_finished'),
 ('t', 3, 'round_finished'), ('t', 3, 'norm_achieved'), ('u', 1, 'round_finished')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

SUMMARY = "round_finished"
"""The type that opens a round's block."""


def in_round_order(items: Iterable[T], head: Callable[[T], tuple[str, int, str]]) -> list[T]:
    """``items`` sorted for a reader; ``head`` gives an item's tournament id, round and
    alert type. Stable: items of the same tournament, round and kind keep their order."""
    listed = list(items)
    first: dict[str, int] = {}
    keys = []
    for i, item in enumerate(listed):
        tid, number, kind = head(item)
        first.setdefault(tid, len(first))
        keys.append((first[tid], number, kind != SUMMARY, i))
    return [listed[k[-1]] for k in sorted(keys)]


__all__ = ["in_round_order"]
