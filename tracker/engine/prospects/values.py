"""The values a prospect is made of: its status, the needs of a Swiss, the remaining games
and ways of a round robin, and the assumptions the bounds make (:data:`HORIZON`,
:data:`EXACT_SUBSETS`)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from fractions import Fraction

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.norms.explain import OpenMemo
from tracker.norms.search import Cell, Check, Context, NormGame, Requirements
from tracker.rules import TitleRules


def swiss_assumption(rules: TitleRules) -> str:
    """What a Swiss prospect assumes of the remaining opponents, with the edition's article
    for the floor (1.46c of 2009, 1.4.6b of 2024)."""
    return (
        "remaining opponents at best the highest-rated players not yet met over the board, "
        f"each counted at least at the {rules.articles['floor']} floor"
    )


UNKNOWN_ROUNDS = (
    "; the number of rounds is not known: at most {horizon} rounds in all are assumed "
    "({left} more games for this player)"
)

HORIZON = 13
"""With the number of rounds of a Swiss unknown, the prospects assume it has at most this
many rounds, or as many as the player needs to reach the minimum number of games if that is
more: so nobody is out of reach for lack of games, and the bound stays as cheap as that of a
13-round event (more rounds could only be tried one number of games at a time). Swiss events
of more than 13 rounds are rare, and their files give the number; ``--rounds`` gives it for
the others. 13 is the number of games a norm counts as at most (1.49, 1.7)."""


EXACT_SUBSETS = 2**10
"""The most sets of counted games (wins so far that 1.42e could leave out, times remaining
games that may count or not) a round-robin prospect tries one by one for its exact list of
scores: every single round robin of up to 10 players and double one of up to 6, and larger
ones in their later rounds."""


class Status(enum.Enum):
    SECURED = "secured"
    """The norm is achieved and no later game can take it away (1.42f, or the last round)."""
    POSSIBLE = "possible"
    OUT_OF_REACH = "out_of_reach"


@dataclasses.dataclass(frozen=True, slots=True)
class Need:
    """Swiss: with ``score`` points from ``games`` remaining games that count, their
    opponents must average at least ``average`` (1.47b rounding)."""

    games: int
    score: Fraction
    average: int
    best: int
    """The average of the ``games`` strongest players still available (the assumption)."""
    note: str = ""
    """What else the row needs (1.4.1c: the round without a counted game)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Remaining:
    """Round robin: a game still to play."""

    opponent: Player
    counts: bool
    """Whether the game can count for norms (1.42a/b/d exclude some opponents)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Way:
    """Round robin: ``score`` points from the remaining games give the norm, for example with
    these results (in the order of :attr:`Prospect.remaining`)."""

    score: Fraction
    results: tuple[Code, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Prospect:
    player: Player
    title: Title
    after_round: int
    status: Status
    games_left: int | None
    """Games (rounds of a Swiss) left to play; ``None`` when the number of rounds of a
    Swiss is not known."""
    exact: bool
    """Whether :attr:`ways` is exact: a round robin small enough to try every set of counted
    games (:data:`EXACT_SUBSETS`). Whether the norm is possible at all is exact in every
    round robin."""
    remaining: tuple[Remaining, ...] = ()
    ways: tuple[Way, ...] = ()
    """Round robin: every score in the remaining games that can give the norm, lowest first;
    with examples when :attr:`exact`, otherwise every score not ruled out by :attr:`needs`."""
    needs: tuple[Need, ...] = ()
    """The requirement per number of counted remaining games and score: a Swiss, or a round
    robin too large for :attr:`exact`."""
    open: tuple[Check, ...] = ()
    """The games and mix a record of every game will need, against the games so far."""
    reason: str = ""
    assumption: str = ""
    """What :attr:`needs` assumes about the games to come (Swiss, or a round robin too
    large for :attr:`exact`)."""

    @property
    def in_contention(self) -> bool:
        return self.status is Status.POSSIBLE


Key = tuple[int, Title]
"""A (start rank, title) pair."""


@dataclasses.dataclass(frozen=True, slots=True)
class Prior:
    """What the prospects after a round leave for the next round's, of the same facts
    (:attr:`tracker.engine.carry.Carry.prior`)."""

    settled: frozenset[Key] = frozenset()
    """The pairs out of reach for good (:attr:`.outlook.Outlook.settled` says which and
    why)."""
    specs: Mapping[Key, Requirements] = dataclasses.field(default_factory=dict)
    """Each pair's requirements, with the mix rules they have made so far: the same for
    the next round when :attr:`basis` is (the players and the tournament are the same)."""
    basis: tuple[object, ...] = ()
    """What of the round's context the requirements rest on besides the players and the
    tournament (:func:`spec_basis`)."""
    games: Mapping[int, tuple[Sequence[Cell], Sequence[NormGame]]] = dataclasses.field(
        default_factory=dict
    )
    """Each player's rounds so far and the games among them that count for norms (1.42a–d),
    worked out one round at a time: a round's games count or not by the round's facts, the
    opponent and :attr:`zero` alone (:func:`tracker.norms.search.norm_games`)."""
    zero: frozenset[int] = frozenset()
    """The unrated players who scored nothing against rated ones (1.42d) when :attr:`games`
    were sorted out."""


Row = tuple[int, int, int, int, str]
"""A row of a table of needs in integers: games, score in half points, average, best
average available, note (:class:`Need`'s fields)."""


@dataclasses.dataclass(slots=True)
class Made:
    """The values the prospects of one round make once and share between players, for
    as long as the round's :class:`~tracker.engine.prospects.Outlook` lives (a memo kept
    longer would make every full collection of the garbage collector walk it: round 1 of
    a 500-player open leaves about 24,000 objects). Most players of a large open share
    their table of needs, its rows or their open requirements with others (round 1 of the
    500-player open: 445 different tables among 1,058 pairs, 7,779 different rows among
    28,813, 18 different lists of open requirements), and a value shared is one the
    alerts turn into its wire form once (:class:`tracker.engine.alerts.Shared`). The
    values are immutable, so sharing them changes nothing but the memory they take."""

    tables: dict[tuple[Row, ...], tuple[Need, ...]] = dataclasses.field(default_factory=dict)
    """Each table of needs by its rows (:func:`.bound.needs_table`)."""
    rows: dict[Row, Need] = dataclasses.field(default_factory=dict)
    open: OpenMemo = dataclasses.field(default_factory=dict)
    """The open requirements (:func:`tracker.norms.explain.open_checks`)."""
    needs: dict[tuple[object, ...], tuple[tuple[tuple[int, int], ...], tuple[Need, ...]]] = (
        dataclasses.field(default_factory=dict)
    )
    """A route's table of needs (a Swiss, or a round robin too large to be exact) by what it
    reads of the ratings, with the mix questions it asked (:meth:`.bound.Relaxed.needs`)."""


def spec_basis(ctx: Context) -> tuple[object, ...]:
    """What of a round's context a pair's requirements (:func:`requirements`) read besides
    the player and the tournament: the Swiss exemption, whether players of unknown
    federation may make it hold, and the event's own failed requirement."""
    return (ctx.swiss_exempt, ctx.swiss_exempt_possible, ctx.event_check)
