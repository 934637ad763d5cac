"""Round robins: whether any results against the remaining opponents give the norm, decided
by the norm search on the records with every remaining game won (:class:`WonRecords`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence

from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.engine.prospects.opponents import Opponents
from tracker.engine.prospects.values import Key, Prior
from tracker.engine.state import TournamentState
from tracker.norms.search import (
    Cell,
    Context,
    NormGame,
    Requirements,
    complete_mix_holds,
    gives_norm,
    norm_exists,
)


class WonRecords:
    """The records of a round robin with every remaining game won, and what they give."""

    def __init__(self, opponents: Opponents, spec: Callable[[int, Title], Requirements]) -> None:
        """``spec``: the requirements of a (player, title), as the outlook keeps them."""
        self.o = opponents
        self.spec = spec
        self._wins: dict[Key, bool] = {}
        self._kept: dict[Key, bool] = {}
        self._won: dict[int, list[NormGame]] = {}

    def kept_and_won(self, rank: int, title: Title) -> bool:
        """Whether the whole record, every remaining game won and nothing left out, gives
        the norm."""
        if (rank, title) not in self._kept:
            self._kept[(rank, title)] = gives_norm(self._won_games(rank), self.spec(rank, title))
        return self._kept[(rank, title)]

    def wins_all(self, rank: int, title: Title) -> bool:
        """Whether winning every remaining game gives the norm (the norm search on that
        record). A better result never hurts (a kept game's points only help, a game left
        out may be anything), so this decides whether any results can. The order is free,
        so the games after the norm that 1.42f lets go can be any of them, which 1.42e
        allows for wins anyway."""
        if (rank, title) not in self._wins:
            o = self.o
            self._wins[(rank, title)] = any(
                norm_exists(o.state.players[rank], cells, title, o.ctx, o.rules)
                for cells in self._records(rank, title)
            )
        return self._wins[(rank, title)]

    def _records(self, rank: int, title: Title) -> Iterator[list[Cell]]:
        """The records with every remaining game won, first all of them over the board,
        then with some of them forfeit wins (not counted) where that can give what leaving
        the won game out cannot: 1.4.1c's 8 games (a forfeit win in a 9-round event), and
        1.4.1f, which lets wins be left out only when the complete record meets the mix (a
        forfeited game is not in the record). Elsewhere a forfeit win does for a norm what
        a won game left out does (1.42e)."""
        o = self.o
        so_far = list(o.cells.get(rank, []))
        remaining = o.remaining(rank)

        def record(forfeits: Collection[int]) -> list[Cell]:
            return so_far + [
                Cell(n, r.opponent.rank, Code.FORFEIT_WIN if i in forfeits else Code.WIN)
                for i, (n, r) in enumerate(enumerate(remaining, o.up_to + 1))
            ]

        yield record(())
        spec = self.spec(rank, title)
        won = self._won_games(rank)
        spare = 0  # 1.4.1f: games the record can spare beyond the minimum, each a forfeit
        if o.rules.wins_need_complete_mix(o.tournament) and not complete_mix_holds(won, spec):
            spare = len(won) - spec.min_games
        short = o.short_games(rank) is not None
        for k in range(1, min(max(spare, short), len(remaining)) + 1):
            for forfeits in itertools.combinations(range(len(remaining)), k):
                rounds = {o.up_to + 1 + i for i in forfeits}
                if (short and k == 1) or (
                    k <= spare
                    and complete_mix_holds([g for g in won if g.round not in rounds], spec)
                ):
                    yield record(forfeits)

    def _won_games(self, rank: int) -> list[NormGame]:
        if rank not in self._won:
            self._won[rank] = self.o.won_games(rank)
        return self._won[rank]


def answers_last(state: TournamentState, ctx: Context) -> bool:
    """Whether a round robin's pair out of reach after a round stays out of reach after a
    next round in which the player meets an opponent, so that it need not be worked out
    again. Out of reach means that no results of the remaining games give the norm (the
    norm search on the record with every remaining game won, :class:`WonRecords`; exact in a
    round robin, ``tests/unit/test_prospects_continuations.py``), and the record after the
    next round, every game left won, is one of those: the same remaining opponents but the
    one met, that game's result at most a win, and a game that does not count (a forfeit)
    one that 1.42e lets go as a won game. That holds when:

    * every player is rated: an unrated opponent's games may start or stop counting with
      other players' results (1.42d);
    * opponents count with their rating as registered, not at the date of each game (1.1.4
      of 2024, where a game to come may count with another rating);
    * the edition lets any won game go (1.42e of 2009 and earlier): 2024's 1.4.1f lets wins
      go only when the complete record meets the mix, and 1.4.1c's 8 games read which round
      has no game, so a forfeit there is not a won game left out;
    * the event gives norms after the round (no failed requirement of the event).

    Everything else the answer reads is the same facts the carry is made of (the players,
    the registration, the rounds before)."""
    t, rules = state.tournament, state.title_rules
    return (
        ctx.event_check is None
        and not ctx.game_date_ratings
        and rules.may_ignore_wins(t)
        and not rules.wins_need_complete_mix(t)
        and rules.short_norm(t) is None
        and all(p.rating is not None for p in state.players.values())
    )


def kept_out_of_reach(
    state: TournamentState,
    up_to: int,
    cells: Mapping[int, Sequence[Cell]],
    ctx: Context,
    prior: Prior | None,
) -> frozenset[Key]:
    """The pairs the round before left out of reach (:attr:`Prior.settled`) that stay so
    after round ``up_to`` without being worked out again (:func:`answers_last`): in a round
    robin where the argument holds, those of players who met an opponent in the round
    (conservative: a round without a game lets the answer go). Neither their prospect nor
    whether their norm is certain (:func:`tracker.engine.secured.certain_norm`: every result
    lost is one of the results no longer giving the norm) is worked out again."""
    if (
        prior is None
        or not prior.settled
        or not state.tournament.system.predetermined
        or not answers_last(state, ctx)
    ):
        return frozenset()
    return frozenset(key for key in prior.settled if _met(cells.get(key[0], ()), up_to))


def _met(cells: Sequence[Cell], number: int) -> bool:
    """Whether the player's round ``number`` (the last of ``cells``) is a game against an
    opponent, played or forfeited by either side."""
    return bool(cells) and cells[-1].round == number and cells[-1].opponent is not None
