"""The pairing system of an event, from everything its file says, or why it cannot be told.

A norm depends on the system: in a round robin every scheduled round counts (2024 1.4.1e),
unrated players who score nothing against rated ones are left out (2009 1.42d, 2024 1.4.2b),
and a double round robin counts each opponent once (2009 1.45f); the Swiss exemption (2009
1.43e, 2024 1.4.3d) is for Swiss events only. Real exports seldom state the system as a
field: a round robin exported mid-event has pairs that have not met yet. So the system is
read from four kinds of evidence, and it is **unknown** where they are missing or disagree:

* the words of ``092`` (type of tournament, free text) and TRF26's ``192`` (encoded type):
  ``Round robin``, ``Round-Robin``, ``RR``, ``Berger``, ``Double round robin``, ``Swiss``,
  ``Swiss-System``, ``Dutch`` (and the Russian and German words exporters write);
  ``Scheveningen``, ``knockout`` and a team round robin name systems the rules here do not
  model, and a team event that is not a Swiss is unknown;
* the field against the planned rounds: a round robin of ``n`` players takes ``n − 1``
  rounds (``n`` for an odd number), a double round robin twice that; fewer rounds than a
  round robin needs leave only a Swiss;
* the pairings: every pair met once (a round robin) or twice (a double one); a pair met
  twice (no Swiss, C.04: two players do not meet twice); the rounds played so far following
  the Berger table of FIDE's round-robin pairings (C.05 Annex 1) for the start ranks.

>>> read_system([1, 2, 3, 4], [], 3, [("092", "Individual: Round-Robin")]).system
<System.ROUND_ROBIN: 'round_robin'>
>>> r = read_system(list(range(1, 13)), [], 9, [("092", "Round robin")])
>>> r.system, r.evidence  # doctest: +NORMALIZE_WHITESPACE
(<System.UNKNOWN: 'unknown'>, "system unknown: 092 'Round robin' names a round robin, but 12
 players play 11 rounds in one, not the 9 planned")
>>> read_system(list(range(1, 41)), [], 9, []).evidence  # doctest: +ELLIPSIS
'no record names the system; 40 players and 9 planned rounds are too few ...: a Swiss'
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence

from tracker.domain.tournaments import System, round_robin_rounds

Pair = tuple[int, int]
"""Two start ranks that met, the lower first."""

_WORDS: tuple[tuple[str, System | str], ...] = (
    (r"\bscheveningen\b", "a Scheveningen event"),
    (r"\bknock ?out\b|\bko\b", "a knockout event"),
    (r"\bdouble\s*(round\s*robin|rr|berger)\b|\bdrr\b|\bdoppelrunden", System.DOUBLE_ROUND_ROBIN),
    (
        r"\bround\s*robin\b|\brr\b|\bberger\b|\brundenturnier\b|кругов|\ball\s*play\s*all\b",
        System.ROUND_ROBIN,
    ),
    (
        r"\bswiss\b|\bschweizer\b|\bsuisse\b|\bsuizo\b|\bdutch\b|\bdubov\b|\bburstein\b"
        r"|\blim\b|швейцар|^fide team\b",
        System.SWISS,
    ),
)
"""What a word of ``092``/``192`` names, checked in this order (``double round robin`` before
``round robin``). A text is folded first: ``-`` and ``_`` read as blanks. TRF26's codes
for 192 (``FIDE_DUTCH_2025``, ``BERGER_ROUNDROBIN_G2``, ``FIDE_DOUBLEROUNDROBIN``, the team
Swiss's ``FIDE_TEAM_…``) read with the same words."""

_TEAM = re.compile(r"\bteam\b|\bmannschaft|команд", re.IGNORECASE)


@dataclasses.dataclass(frozen=True, slots=True)
class SystemReading:
    """The system read, and how (or why it is unknown), in words for the alerts."""

    system: System
    evidence: str


def named_system(text: str) -> System | str | None:
    """What the words of one record name: a :class:`System`, a sentence naming a system the
    rules here do not model, or ``None`` for no word about the system.

    >>> named_system("Individual: Swiss-System"), named_system("FIDE_DUTCH_2026_BAKU")
    (<System.SWISS: 'swiss'>, <System.SWISS: 'swiss'>)
    >>> named_system("Double Round-Robin"), named_system("Rapid")
    (<System.DOUBLE_ROUND_ROBIN: 'double_round_robin'>, None)
    >>> named_system("Team Round Robin"), named_system("Team Swiss System")
    ('a team event that is not a Swiss', <System.SWISS: 'swiss'>)
    >>> named_system("FIDE_TEAM_BAKU"), named_system("BERGER_DOUBLEROUNDROBIN")
    (<System.SWISS: 'swiss'>, <System.DOUBLE_ROUND_ROBIN: 'double_round_robin'>)
    """
    folded = re.sub(r"[-_]", " ", text).lower()
    found: System | str | None = None
    for pattern, what in _WORDS:
        if re.search(pattern, folded):
            found = what
            break
    if _TEAM.search(folded) and found is not System.SWISS:
        # players of a team event meet whom the line-ups send: only a team Swiss is read
        return "a team event that is not a Swiss"
    return found


def _named(code: str, text: str) -> System | str | None:
    """:func:`named_system` of one record; ``192`` holds nothing but the system's code, so a
    code it does not know names a system the rules here do not model."""
    what = named_system(text)
    if what is None and code == "192":
        return "a system this reader does not know"
    return what


def berger_pairs(players: int, number: int) -> frozenset[Pair]:
    """The pairs of round ``number`` of FIDE's Berger table (C.05 Annex 1) for ``players``
    pairing numbers (an odd number plays with a bye, as number ``players + 1``), colours
    left aside; a double round robin repeats the table. In round ``r`` the numbers ``p, q``
    below the last with ``p + q ≡ r + 1 (mod n − 1)`` meet, and the one with
    ``2p ≡ r + 1`` meets the last.

    >>> sorted(berger_pairs(6, 1)), sorted(berger_pairs(6, 2))
    ([(1, 6), (2, 5), (3, 4)], [(1, 2), (3, 5), (4, 6)])
    >>> sorted(berger_pairs(5, 1))  # 6 is the bye
    [(2, 5), (3, 4)]
    """
    n = players + players % 2
    m = n - 1
    r = (number - 1) % m + 1
    pairs = set()
    for p in range(1, n):
        q = (r + 1 - p) % m or m  # the q in 1 … m with p + q ≡ r + 1
        if q == p:
            q = n
        if p < q <= players:
            pairs.add((p, q))
    return frozenset(pairs)


def read_system(
    ranks: Sequence[int],
    rounds: Sequence[frozenset[Pair]],
    planned: int | None,
    words: Sequence[tuple[str, str]],
) -> SystemReading:
    """The system of an event of the players ``ranks``, whose rounds so far paired ``rounds``
    (the games of each round, byes left out), with ``planned`` rounds when the file says
    (``XXR``, ``142``, ``132``), and ``words``: each record that speaks of the type of the
    event, as ``(code, text)``.

    Reading [issue-19 10] The system: read from 092 and 192 words, the field against the planned
    rounds and the pairings (Berger table of C.05 for the start ranks); words that disagree with
    each other or with the field (a round robin of 12 players with 9 rounds) leave it
    ``unknown``, as do no words with a field that fits both. An unknown system is judged as a
    Swiss without the Swiss exemption, and every norm carries that as a condition (article 1.42f
    / 1.4.1e), after the last round too; the certificate is refused until ``--system`` names it.
    Nothing contradicts a Swiss the words name (a pair met twice breaks C.04 but makes no other
    system). Scheveningen, knockout and team events other than a team Swiss are unknown, and so
    is a TRF26 192 code this reader does not know (192 holds nothing but the system's code;
    ``FIDE_TEAM_…`` is FIDE's team Swiss)."""
    n = len(ranks)
    said = [(code, text, what) for code, text in words if (what := _named(code, text))]
    meetings: Counter[Pair] = Counter(p for pairs in rounds for p in pairs)
    twice = [p for p, k in meetings.items() if k > 1]
    every_pair = n * (n - 1) // 2
    rr, drr = (round_robin_rounds(n, s) for s in (System.ROUND_ROBIN, System.DOUBLE_ROUND_ROBIN))
    field = f"{n} players and {planned} planned rounds" if planned else f"{n} players"

    named = {what for _, _, what in said}
    quoted = " and ".join(f"{code} {text.strip()!r}" for code, text, _ in said)
    if len(named) > 1:
        return _unknown(f"{quoted} name different systems")
    if named:
        (what,) = named
        if isinstance(what, str):
            return _unknown(f"{quoted} names {what}, which the norm rules here do not model")
        problem = _against(what, n, rr, drr, planned, meetings, twice)
        if problem:
            return _unknown(f"{quoted} names {_NAMES[what]}, but {problem}")
        return SystemReading(what, f"{quoted}, {field}")

    none = "no record names the system"
    if n >= 2 and len(meetings) == every_pair and not twice and planned in (None, rr):
        return SystemReading(System.ROUND_ROBIN, f"{none}; every pair of the {n} players met once")
    if n >= 2 and len(meetings) == every_pair and set(meetings.values()) == {2}:
        return SystemReading(
            System.DOUBLE_ROUND_ROBIN, f"{none}; every pair of the {n} players met twice"
        )
    played = [k for k, pairs in enumerate(rounds, 1) if pairs]
    if len(played) >= 2 and _follows_berger(ranks, rounds) and planned in (None, rr, drr):
        system = System.DOUBLE_ROUND_ROBIN if planned == drr else System.ROUND_ROBIN
        return SystemReading(
            system,
            f"{none}; the pairings follow the Berger table (C.05) for {n} players, and "
            f"{field} fit {_NAMES[system]}",
        )
    if planned is not None and planned < rr and not twice:
        return SystemReading(
            System.SWISS, f"{none}; {field} are too few rounds for a round robin: a Swiss"
        )
    if twice:
        return _unknown(f"{none}; a pair of players met twice, in {field}")
    if planned is None:
        return _unknown(f"{none}, nor how many rounds are planned ({n} players)")
    return _unknown(f"{none}; {field} fit a round robin as well as a Swiss")


_NAMES = {
    System.SWISS: "a Swiss",
    System.ROUND_ROBIN: "a round robin",
    System.DOUBLE_ROUND_ROBIN: "a double round robin",
}


def _unknown(why: str) -> SystemReading:
    return SystemReading(System.UNKNOWN, f"system unknown: {why}")


def _against(
    system: System,
    n: int,
    rr: int,
    drr: int,
    planned: int | None,
    meetings: Counter[Pair],
    twice: list[Pair],
) -> str | None:
    """What in the file contradicts the round robin its words name, or ``None``; nothing
    contradicts a Swiss the words name (a pair met twice breaks the Swiss rules, C.04, but
    makes no other system of it)."""
    if system is System.SWISS:
        return None
    rounds = rr if system is System.ROUND_ROBIN else drr
    if planned is not None and planned != rounds:
        return f"{n} players play {rounds} rounds in one, not the {planned} planned"
    most = 1 if system is System.ROUND_ROBIN else 2
    over = [p for p, k in meetings.items() if k > most]
    if over:
        a, b = over[0]
        return f"players {a} and {b} met {meetings[over[0]]} times"
    return None


def _follows_berger(ranks: Sequence[int], rounds: Sequence[frozenset[Pair]]) -> bool:
    """Whether every round paired so far is the Berger round of its number, the start
    ranks taken as pairing numbers (in their order)."""
    number = {rank: i for i, rank in enumerate(sorted(ranks), 1)}
    n = len(ranks)
    for k, pairs in enumerate(rounds, 1):
        if not pairs:
            continue
        mapped = {tuple(sorted((number[a], number[b]))) for a, b in pairs}
        if not mapped <= berger_pairs(n, k):
            return False
    return True


__all__ = ["SystemReading", "berger_pairs", "named_system", "read_system"]
