"""The bounds on one read of a followed source (:mod:`follow.sources`); a module of its own so
that ``tracker``'s parser shows the defaults without importing the follower."""

from __future__ import annotations

import dataclasses

MAX_BYTES = 32 * 1024 * 1024
"""The default bound on a snapshot, in bytes (on the wire and decompressed). A TRF of 4 000
players (the contract's largest field) over 15 rounds is about 1 MB (an ``001`` line is 89
characters and 10 per round); a broadcast PGN of a whole event with clock comments on every
move, 11 rounds of 200 boards at ~5 kB a game, about 11 MB. 32 MiB holds either with room;
``--max-bytes`` changes it."""

TIMEOUT = 30.0
"""The default bound, in seconds, on one whole request (connecting, the answer, every byte
of the body): a server that trickles its body or never ends it is given up on."""


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one read of a source may take."""

    max_bytes: int = MAX_BYTES
    timeout: float = TIMEOUT


DEFAULT = Limits()


__all__ = ["DEFAULT", "MAX_BYTES", "TIMEOUT", "Limits"]
