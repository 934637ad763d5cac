"""The norm watch: one current state per player and norm title after a finished round.

After round ``n`` each (player, title) the norm evaluation considers is in one
:class:`Stage`:

* **achieved** — after the last round, the norm holds;
* **secured** — before the last round, no later result or absence can take the norm away
  (:func:`~tracker.engine.secured.secured_norm`, the one notion of secured: 1.42f / 1.4.1e
  let the games after the norm go and nothing in :mod:`tracker.engine.secured` is open, or
  in a round robin the norm is certain whatever the remaining games bring);
* **conditional** — before the last round, the norm holds but depends on what later rounds
  bring (:class:`~tracker.engine.secured.Condition`: 1.4.3d, 1.42d);
* **in contention** — the norm is still possible: the prospect says what the remaining
  rounds must bring (a norm achieved before the last round of an event whose edition counts
  the later games, a 2024 round robin, is in contention too);
* **out of reach** — no result of the remaining rounds gives it (with the reason).

It is read from the same two things the round's alerts are made of, the round's
:class:`~tracker.engine.round_view.RoundView` (norms and what they depend on) and the
:class:`~tracker.engine.prospects.Outlook` (what is still possible), never worked out a
second way: :func:`tracker.engine.round_alerts.prospect_alerts` announces the changes of
:attr:`Entry.in_contention` between rounds, :func:`tracker.engine.round_alerts.norm_alerts`
those of the norms; ``tracker replay``, ``tracker check``, the REST views and the live page
show the entries.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from fractions import Fraction

from tracker.domain.fide_tables import average_half_up, dp, percentage_of_half_points
from tracker.domain.players import Player
from tracker.domain.titles import Title
from tracker.engine.prospects import Outlook, Prior, Prospect, Status
from tracker.engine.round_view import Key, RoundView, view_after
from tracker.engine.secured import Condition
from tracker.engine.state import TournamentState


class Stage(enum.Enum):
    """Where a player stands for a norm, closest first."""

    ACHIEVED = "achieved"
    SECURED = "secured"
    CONDITIONAL = "conditional"
    IN_CONTENTION = "in_contention"
    OUT_OF_REACH = "out_of_reach"

    @property
    def label(self) -> str:
        """In words, for texts (``in contention``)."""
        return self.value.replace("_", " ")


_ORDER = {stage: i for i, stage in enumerate(Stage)}


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    """One player and norm title after round :attr:`round`."""

    player: Player
    title: Title
    round: int
    stage: Stage
    reason: str = ""
    """Secured: why nothing can take it away; out of reach: why not (said once)."""
    conditions: tuple[Condition, ...] = ()
    """Conditional: what the norm still depends on; achieved: the assumption an unknown
    system's norm rests on (:func:`~tracker.engine.secured.system_condition`)."""
    prospect: Prospect | None = None
    """With the details (:meth:`Watch.entry`), but for a norm that holds: in contention
    (and conditional), what the remaining rounds must bring; out of reach, the requirements
    still open."""

    @property
    def key(self) -> Key:
        return (self.player.rank, self.title)

    @property
    def in_contention(self) -> bool:
        """Whether a ``norm_prospect`` ``entered`` is in force for the entry: the norm is
        possible and not yet beyond the reach of later rounds (a conditional norm can still
        be lost)."""
        return self.stage in (Stage.IN_CONTENTION, Stage.CONDITIONAL)

    @property
    def margin(self) -> int | None:
        """In contention, with the details: how far above the player's own rating the
        remaining games must be played, at least — the lowest performance a way of the
        prospect asks (a row's average plus the dp of its score, 1.48; in an exact round
        robin the lowest score against the opponents' average) less the rating (an unrated
        player counts as 0). What "closest first" orders by; ``None`` otherwise."""
        p = self.prospect
        if self.stage is not Stage.IN_CONTENTION or p is None:
            return None
        asked = [n.average + _dp(n.score, n.games) for n in p.needs]
        rated = [r.opponent.rating for r in p.remaining if r.counts and r.opponent.rating]
        if p.exact and p.ways and rated and p.games_left:
            average = average_half_up(sum(rated), len(rated))
            asked.append(average + _dp(p.ways[0].score, p.games_left))
        if not asked:
            return None
        return min(asked) - (self.player.rating or 0)

    def sort_key(self) -> tuple[int, int, int, int]:
        """Closest first: the stage, then the :attr:`margin` (a player in contention
        without one last), the higher title, the start rank."""
        margin = self.margin
        return (
            _ORDER[self.stage],
            _NO_MARGIN if margin is None else margin,
            -self.title.level,
            self.player.rank,
        )


_NO_MARGIN = 10_000


def _dp(score: Fraction, games: int) -> int:
    """The rating difference of a score over ``games`` games (table 8.1a)."""
    return dp(percentage_of_half_points(int(score * 2), games))


class Watch:
    """The norm watch after ``view.number``; the statuses at once, the details (prospects,
    reasons) on demand, each worked out once."""

    def __init__(self, state: TournamentState, view: RoundView) -> None:
        # without the state's carry: a watch kept in a carry must not hold the rounds before
        self.state = state if state.carry is None else dataclasses.replace(state, carry=None)
        self.view = view
        self.number = view.number
        self._outlook: Outlook | None = None
        self._details: dict[Key, Entry] = {}
        self._statuses: dict[Key, Prospect] | None = None
        self._stages: dict[Key, Entry] | None = None
        self._places: dict[Key, int] | None = None

    @property
    def outlook(self) -> Outlook:
        """The prospects after the round, made when first asked for (an event without
        norms never asks)."""
        if self._outlook is None:
            view = self.view
            self._outlook = Outlook(self.state, view.number, view.cells, view.ctx, view.prior)
        return self._outlook

    def leaves(self) -> Prior:
        """What the next round's prospects can build on (:meth:`Outlook.leaves`)."""
        return Prior() if self._outlook is None else self._outlook.leaves()

    def lighten(self) -> None:
        """Let go of the outlook's working memory (every pair's bounds, pools, records),
        keeping the statuses, the stages and the details made so far: the watch a state
        keeps after its round (:attr:`tracker.engine.carry.Carry.watch`) then holds about
        what the round's alerts hold. A detail asked for later makes a new outlook of the
        same round, which gives the same detail (a detail is worked out whole for its
        pair, never from the statuses)."""
        self._outlook = None

    @property
    def norm_event(self) -> bool:
        """Whether the event gives norms at all (no watch where it does not)."""
        return self.view.gate.norms

    def statuses(self) -> dict[Key, Prospect]:
        """Every (player, title) the evaluation considers, without details."""
        if self._statuses is None:
            self._statuses = self.outlook.all(self.view.secured) if self.norm_event else {}
        return self._statuses

    def stages(self) -> dict[Key, Entry]:
        """Every entry without details: what the alerts compare with those in force."""
        if self._stages is None:
            self._stages = {key: self._entry(key, p) for key, p in self.statuses().items()}
        return self._stages

    def entry(self, rank: int, title: Title) -> Entry:
        """The entry of one player and title with its details (``KeyError`` if the player is
        not evaluated for the title)."""
        key = (rank, title)
        found = self._details.get(key)
        if found is None:
            status = self.statuses()[key]
            detail = None
            if status.status is not Status.SECURED:
                detail = self.outlook.prospect(rank, title, secured=False)
            found = self._details[key] = self._entry(key, status, detail)
        return found

    def places(self) -> dict[Key, int]:
        """Each entry's place in the whole watch, closest first (1 is the closest)."""
        if self._places is None:
            self._places = {e.key: i for i, e in enumerate(self.table(), 1)}
        return self._places

    def table(self, stages: Iterable[Stage] = tuple(Stage)) -> list[Entry]:
        """The entries in the given stages with their details, closest first."""
        wanted = set(stages)
        chosen = [key for key, e in self.stages().items() if e.stage in wanted]
        return sorted((self.entry(*key) for key in chosen), key=Entry.sort_key)

    def _entry(self, key: Key, status: Prospect, detail: Prospect | None = None) -> Entry:
        view = self.view
        title = key[1]
        player = status.player
        if key in view.norms:
            if view.last:
                # an unknown system's assumption stays a condition after the last round
                found = view.pending.get(key, ())
                return Entry(player, title, self.number, Stage.ACHIEVED, "the norm holds", found)
            sure = view.secured.get(key)
            if sure is not None:
                return Entry(player, title, self.number, Stage.SECURED, sure.because)
            if key in view.pending:
                return Entry(
                    player,
                    title,
                    self.number,
                    Stage.CONDITIONAL,
                    conditions=view.pending[key],
                    prospect=detail,
                )
        if status.in_contention:
            return Entry(player, title, self.number, Stage.IN_CONTENTION, prospect=detail)
        reason = detail.reason if detail is not None else ""
        return Entry(player, title, self.number, Stage.OUT_OF_REACH, reason, prospect=detail)


def watch_after(state: TournamentState, number: int) -> Watch:
    """The norm watch after finished round ``number``: the one the transition made when the
    state carries it (:meth:`tracker.engine.carry.Carry.holds`), else from the facts."""
    carry = state.carry
    if carry is not None and carry.holds(state, number):
        return carry.watch
    return Watch(state, view_after(state, number))


__all__ = ["Entry", "Stage", "Watch", "watch_after"]
