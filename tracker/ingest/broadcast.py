"""A broadcast's games (:mod:`tracker.formats.pgn`) turned into the input events that are new.

Two uses:

* **The broadcast beside the arbiter's file** (a Swiss whose top boards are broadcast). The
  file pairs the round; the broadcast brings results first: a finished game whose board the
  tracker holds from the file (same players, same colours) is sent as ``game_result``. The
  file stays the authority: when it confirms the result nothing more is sent; when it says
  otherwise the file's result is sent as ``result_corrected`` and the disagreement is
  reported; a broadcast result that differs from a result the tracker already holds from the
  file is reported and not sent. A broadcast game whose board the file does not have (other
  players, other colours) is reported; one of a round the file has not paired yet waits.
* **The broadcast alone** (a round robin where every board is broadcast): the tournament and
  its players are registered from the start list and the event facts given on the command
  line (``tracker follow --name … --start-date …``); a game is a ``game_result`` when its
  result changes from ``*``. No ``pairing`` is sent: a feed need not list every board of a
  round at once, and a round whose known boards all have results would finish; from results
  alone the core waits until the round places every player. A round is closed when every game
  of it in the feed has a result and the games place every player of the start list, or, in a
  round robin with an odd number of players, all but one (the player whose turn it is to sit
  out gets no invented bye). The broadcast is then the authority: a result it changes is sent
  as ``result_corrected``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from tracker import contract as ev
from tracker.domain.tournaments import System
from tracker.formats.pgn import BroadcastGame
from tracker.formats.start_list import StartList
from tracker.ingest.ledger import (
    Fact,
    FactKey,
    Ledger,
    Report,
    Settled,
    describe,
    fact_key,
    settle_facts,
)


def registration(
    facts: ev.TournamentRegistered,
    start_list: StartList,
    games: Sequence[BroadcastGame] = (),
) -> list[ev.InputEvent]:
    """The tournament and its players, for an event followed by its broadcast alone; where
    the facts name no venue (TRF ``022``, the city: IT1's venue), the first ``Site`` tag of
    the games that names one."""
    site = next((g.site for g in games if g.site), None)
    if facts.city is None and site is not None:
        facts = facts.model_copy(update={"city": site[: ev.MAX_NAME]})
    return [facts, *start_list.registered(facts.tournament_id)]


@dataclasses.dataclass(frozen=True, slots=True)
class _Board:
    game: BroadcastGame
    round: int
    white: int
    black: int


def _matched(
    games: Iterable[BroadcastGame], start_list: StartList
) -> tuple[list[_Board], list[Report]]:
    boards: list[_Board] = []
    reports: list[Report] = []
    for g in games:
        if g.bad_result is not None:
            reports.append(
                Report("unmatched", f"{g.label()}: result {g.bad_result!r} is not a result")
            )
        if g.round is None:
            reports.append(Report("unmatched", f"{g.label()}: the Round tag gives no round"))
            continue
        white, black = start_list.find(g.white), start_list.find(g.black)
        problems = [
            f"{colour}: {found.problem}"
            for colour, found in (("White", white), ("Black", black))
            if found.problem
        ]
        if problems or white.rank is None or black.rank is None:
            reports.append(Report("unmatched", f"{g.label()}: {'; '.join(problems)}"))
            continue
        if white.rank == black.rank:
            reports.append(Report("unmatched", f"{g.label()}: both sides are rank {white.rank}"))
            continue
        boards.append(_Board(g, g.round, white.rank, black.rank))
    return boards, reports


def follow_broadcast(
    ledger: Ledger,
    games: Sequence[BroadcastGame],
    start_list: StartList,
    tournament_id: str,
    *,
    alone: bool,
    registered: Sequence[ev.InputEvent] = (),
) -> Settled:
    """The events the broadcast adds to what the tracker holds (see the module docstring).
    ``alone``: the broadcast is the event's only source; ``registered``: then the
    tournament's registration (:func:`registration`), sent first."""
    boards, reports = _matched(games, start_list)
    candidates = [Fact(e, "cli") for e in registered]
    tid = tournament_id
    for b in boards:
        result = b.game.result
        if not alone and result is not None:
            known = ledger.board(b.round, b.white, b.black)
            if known is None:
                if ledger.paired(b.round):
                    reports.append(
                        Report(
                            "disagreement",
                            f"{b.game.label()}: the arbiter's pairing of round {b.round} has "
                            f"no board {b.white}-{b.black}; the result waits for the file",
                        )
                    )
                continue  # the round is not paired yet: wait for the file
            if (known.white, known.black) != (b.white, b.black):
                reports.append(
                    Report(
                        "disagreement",
                        f"{b.game.label()}: the arbiter's file has {describe(known)} (other "
                        "colours); the file stands",
                    )
                )
                continue
        if result is not None:
            candidates.append(
                Fact(
                    ev.GameResult(
                        tournament_id=tid,
                        round=b.round,
                        white=b.white,
                        black=b.black,
                        result=result,
                    ),
                    "pgn",
                )
            )
    if alone:
        registering = [e for e in registered if isinstance(e, ev.TournamentRegistered)]
        if registering:
            system = registering[0].system
        else:
            system = ledger.state.tournament.system if ledger.state else System.SWISS
        candidates.extend(_closed_rounds(boards, start_list, system, tid))
        stated = {fact_key(c.event) for c in candidates}
        reports.extend(_unstated(ledger, stated, {b.round for b in boards}))
    settled = settle_facts(ledger, candidates, authority=alone)
    return Settled(settled.ledger, settled.send, (*reports, *settled.reports))


def _closed_rounds(
    boards: Sequence[_Board], start_list: StartList, system: System, tid: str
) -> Iterable[Fact]:
    everyone = {p.rank for p in start_list.players}
    may_sit_out = 1 if system.predetermined and len(everyone) % 2 else 0
    for number in sorted({b.round for b in boards}):
        games = [b for b in boards if b.round == number]
        if any(b.game.result is None for b in games):
            continue
        placed = {b.white for b in games} | {b.black for b in games}
        if len(everyone - placed) <= may_sit_out:
            yield Fact(ev.RoundClosed(tournament_id=tid, round=number), "pgn")


def _unstated(ledger: Ledger, stated: set[FactKey], rounds: set[int]) -> list[Report]:
    """Broadcast facts of the feed's rounds that the feed no longer states (a game gone, a
    result back to ``*``): the tracker keeps them."""
    out = []
    for key, fact in ledger.facts.items():
        if fact.source != "pgn" or key[0] not in ("pairing", "result") or key[1] not in rounds:
            continue
        if key not in stated:
            out.append(
                Report(
                    "not expressible",
                    f"{describe(fact.event)}: no longer in the broadcast; the tracker keeps it "
                    "(a broadcast takes no fact back: a glitch of the feed looks the same)",
                )
            )
    return out


__all__ = ["follow_broadcast", "registration"]
