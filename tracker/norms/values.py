"""The values a norm verdict is made of: a player's round (:class:`Cell`), a game that counts
(:class:`NormGame`) or is left out (:class:`Ignored`, with its article), one requirement with
what it needs and what the record has (:class:`Check`), the best attempt at a norm
(:class:`Verdict`) and the tournament-wide facts a round's verdicts share (:class:`Context`).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import Tournament


@dataclasses.dataclass(frozen=True, slots=True)
class Cell:
    """One player's round: the opponent's start rank (``None`` for a bye) and the TRF code."""

    round: int
    opponent: int | None
    code: Code
    opponent_rating: int | None = None
    """The opponent's rating at the date of the game, when the input gave one (used only
    where the edition asks for it: 1.1.4 of 2024, events longer than 30 days)."""


@dataclasses.dataclass(frozen=True, slots=True)
class NormGame:
    """A game that counts for norms (or may be ignored), seen from the candidate."""

    round: int
    opponent: Player
    code: Code
    rating: int
    """Opponent's rating as the edition counts it before the floor (unrated value applied)."""
    note: str = ""
    half_points: int = dataclasses.field(init=False, repr=False, compare=False)
    """The candidate's score in half points, kept as an integer for the search."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "half_points", self.code.half_points)

    @property
    def won(self) -> bool:
        return self.code is Code.WIN


@dataclasses.dataclass(frozen=True, slots=True)
class Ignored:
    round: int
    opponent: Player | None
    code: Code
    article: str
    reason: str
    optional: bool
    """``True`` for games the player *may* leave out (1.42e/f); ``False`` for games that do
    not count at all (1.42a–d, byes)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Check:
    article: str
    name: str
    needed: str
    actual: str
    met: bool
    depends_on: str = ""
    """What a requirement that holds for some federations of players of unknown federation
    and fails for others depends on (``met`` is then ``False``); empty otherwise."""


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """The best attempt at one norm after one round, with everything an arbiter checks."""

    title: Title
    achieved: bool
    rounds_considered: int
    counted: tuple[NormGame, ...]
    ignored: tuple[Ignored, ...]
    score: Fraction
    percentage: int
    average: int | None
    performance: int | None
    raised: tuple[int, ...]
    """Start ranks of the opponents raised to the rating floor."""
    credited_games: int
    checks: tuple[Check, ...]

    @property
    def games(self) -> int:
        return len(self.counted)

    @property
    def possible(self) -> bool:
        """Whether the attempt gives the norm for some federations of the players whose
        federation is unknown: every requirement is met or depends on them."""
        return all(c.met or c.depends_on for c in self.checks)

    def ignores_optional_games(self) -> bool:
        """Whether the attempt leaves out games the player could have kept (1.42e/f)."""
        return any(i.optional for i in self.ignored)


@dataclasses.dataclass(frozen=True, slots=True)
class Context:
    """Tournament-wide facts a player's norm depends on, computed once per round."""

    tournament: Tournament
    players: dict[int, Player]
    swiss_exempt: bool
    """The Swiss exemption (1.43e / 1.4.3d) holds, players of unknown federation counted as
    from the host federation."""
    unrated_scored_zero: frozenset[int]
    """Unrated players who scored zero against rated opponents (for 1.42d)."""
    game_date_ratings: bool = False
    """Opponents count with their rating at the date of each game (1.1.4 of 2024)."""
    swiss_exempt_possible: bool = False
    """The Swiss exemption holds if players of unknown federation are foreign (each from a
    federation of their own): it depends on them when :attr:`swiss_exempt` does not hold."""
    event_check: Check | None = None
    """A requirement of the event every norm fails (its rate of play:
    :func:`tracker.engine.evaluation.norm_event`); ``None`` for an event that can give norms."""

    def opponent(self, cell: Cell) -> Player:
        """The opponent of ``cell`` as the norm rules see them: with the rating at the
        date of the game where the edition uses it and the input gave it."""
        assert cell.opponent is not None
        player = self.players[cell.opponent]
        if self.game_date_ratings and cell.opponent_rating is not None:
            return dataclasses.replace(player, rating=cell.opponent_rating)
        return player
