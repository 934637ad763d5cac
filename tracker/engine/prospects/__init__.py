"""Norm prospects: after a round, what the remaining rounds must bring for a player to make a
norm they lack, and whether any result still can.

* **Round robins** (single or double): the remaining opponents are known (everyone not yet met
  as often as the cycles allow), so the prospect is exact. A norm's record is the games so far
  and a subset of the remaining ones: a remaining game is counted, left out as a win (1.42e),
  or left out as a game after the norm (1.42f, a tail of rounds, when the edition allows it).
  Whether a set of counted games gives the norm depends on their results only through the
  score, so for each set the fewest points it needs (:func:`tracker.norms.search.least_half_points`)
  decides which final scores in the remaining games can give the norm. Those scores are
  always every score from the lowest one up (a better result never hurts). The round order
  of the remaining games matters only for 1.42f; the prospect allows any order (the answer
  is "some order and these results give the norm"). Pairings of later rounds that arrived
  early are not used, so that the alerts do not depend on when facts arrive.
  Whether the norm is possible at all is decided by the norm search on the record with every
  remaining game won, and on those records with some games won by forfeit where a game not
  played does more than a won game left out (1.4.1c, 1.4.1f:
  :class:`.round_robin.WonRecords`). The list of scores (over the board) tries every set of
  counted games, so it is exact only up to :data:`EXACT_SUBSETS` sets; a larger round robin
  (early rounds of 12 players and more) gets the Swiss bound below, with its opponents known,
  until it is small enough.
* **Swiss**: the opponents are unknown. The prospect lists, for each number of remaining games
  that may count and each score in them, the lowest average (1.47b rounding) those opponents
  must have, with ratings as the norm counts them: the 1.46d/e value for an unrated opponent,
  and the 1.46c floor for one below it.

**The Swiss assumption** (never "out of reach" while the norm is possible): the remaining
opponents may be any players the candidate has not met over the board, so they are at most as
strong as the strongest of those. Each of them is counted at least at the 1.46c floor, though
only the lowest (the edition's number of them) is raised. The title, federation and unrated
mix is checked against what those players could give, each rule on its own. The 1.43e
exemption is taken as met when every registered player, if paired, would meet it. A player is
out of reach only when no route (:class:`.bound.Relaxed`: the games with wins left out, or
1.4.1c's 8 games), no score and no number of counted remaining games passes all of that; a
remaining round may bring no counted game (a bye, a forfeit), so any number up to the rounds left
counts (with the number of rounds unknown, up to :data:`HORIZON` rounds in all).

The 1.42d status of unrated round-robin opponents (zero against rated players) is taken as it
stands after the round. Byes entered for later rounds are not used (the alerts do not depend
on when they arrive).

The package, by job: :mod:`.values` (what a prospect is made of), :mod:`.opponents` (the
games so far and the pool of remaining opponents), :mod:`.bound` (the Swiss bound and its
table of needs), :mod:`.round_robin` (records with every remaining game won),
:mod:`.exact` (a round robin's exact list of scores), :mod:`.outlook` (every player's
prospects after a round).
"""

from tracker.engine.prospects.outlook import Outlook
from tracker.engine.prospects.values import (
    EXACT_SUBSETS,
    HORIZON,
    Key,
    Need,
    Prospect,
    Remaining,
    Status,
    Way,
    swiss_assumption,
)

__all__ = [
    "EXACT_SUBSETS",
    "HORIZON",
    "Key",
    "Need",
    "Outlook",
    "Prospect",
    "Remaining",
    "Status",
    "Way",
    "swiss_assumption",
]
