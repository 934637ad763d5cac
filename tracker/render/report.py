"""Plain-text renderings for people: the round-by-round story of ``tracker replay`` and the
arbiter's breakdown of ``tracker check``."""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Iterable, Iterator

from tracker import contract as ev
from tracker.domain.titles import NORM_TITLES, Title
from tracker.engine.alerts import evidence, player_ref, prospect_detail, score_text
from tracker.engine.evaluation import norm_event, verdict_for
from tracker.engine.state import TournamentState
from tracker.engine.watch import Entry, Stage, Watch, watch_after
from tracker.render.watch_text import entry_text, grouped, name, watch_lines


def story(alerts: Iterable[ev.OutputEvent], top: int = 10) -> Iterator[str]:
    """Lines of a readable account: each finished round with its standings and live
    ratings, then the alerts of that round, the changes of contention grouped
    (:func:`~tracker.render.watch_text.grouped`). Every alert's line names its round."""
    held: list[ev.NormProspect | ev.NormOutOfReach] = []
    for a in alerts:
        if isinstance(a, ev.NormProspect | ev.NormOutOfReach):
            if held and held[0].round != a.round:
                yield from grouped(held)
                held = []
            held.append(a)
            continue
        if held:
            yield from grouped(held)
            held = []
        yield from _told(a, top)
    yield from grouped(held)


@functools.singledispatch
def _told(a: ev.OutputEvent, top: int) -> Iterator[str]:
    """The lines of one alert (contention changes aside: :func:`story` groups them), one
    function per alert type; a type with none is not told."""
    return iter(())


@_told.register
def _(a: ev.RoundFinished, top: int) -> Iterator[str]:
    last = " (last round)" if a.last_round else ""
    yield ""
    yield f"== {a.tournament_id}: round {a.round} finished{last} [{a.edition}]"
    yield f"   {'#':>4}  {'player':<34} {'pts':>4}  {'live':>5} {'chg':>4}"
    for s in a.standings[:top]:
        live = str(s.live_rating) if s.live_rating is not None else "-"
        change = f"{s.rating_change:+d}" if s.rating_change is not None else ""
        yield (
            f"   {s.player.rank:>4}  {name(s.player, 34):<34} {s.score_text:>4}  "
            f"{live:>5} {change:>4}"
        )
    if len(a.standings) > top:
        yield f"   … {len(a.standings) - top} more players"


@_told.register
def _(a: ev.NormAchieved, top: int) -> Iterator[str]:
    e = a.evidence
    when = "SECURED before the last round" if a.secured_early else "achieved"
    if a.conditions:
        when = "achieved, not yet secured"
    yield (
        f"** round {a.round}: {a.title} norm {when}: {name(a.player)} — "
        f"{e.score_text}/{e.games}, "
        f"Ra {e.average_rating}, Rp {e.performance}, counts as {e.games_credited} games"
    )
    for c in a.conditions:
        yield f"   depends on {c.article}: {c.text}"


@_told.register
def _(a: ev.NormRevoked, top: int) -> Iterator[str]:
    yield f"!! round {a.round}: {a.title} norm revoked: {name(a.player)} — {a.reason}"


@_told.register
def _(a: ev.TitleRatingReached, top: int) -> Iterator[str]:
    yield (
        f"** round {a.round}: {a.title} rating level {a.level} reached by "
        f"{name(a.player)}: live rating {a.live_rating} ({a.rating_change:+d})"
    )


@_told.register
def _(a: ev.IgnorableGames, top: int) -> Iterator[str]:
    games = ", ".join(f"r{g.round} ({g.article})" for g in a.games)
    yield f"   round {a.round}: games left out of the {a.title} norm of {a.player.name}: {games}"


@_told.register
def _(a: ev.RoundReopenedAlert, top: int) -> Iterator[str]:
    yield ""
    yield f"== {a.tournament_id}: round {a.round} reopened — {a.reason}"


@_told.register
def _(a: ev.StandingsCorrected, top: int) -> Iterator[str]:
    yield f"== {a.tournament_id}: standings after round {a.round} corrected — {a.reason}"


@_told.register
def _(a: ev.TitleRatingRevoked, top: int) -> Iterator[str]:
    yield f"!! round {a.round}: {a.title} rating level revoked: {name(a.player)} — {a.reason}"


@_told.register
def _(a: ev.NormProspectRevoked, top: int) -> Iterator[str]:
    yield f"!! round {a.round}: {a.title} norm contention revoked: {name(a.player)} — {a.reason}"


@_told.register
def _(a: ev.TitleApplicationComplete, top: int) -> Iterator[str]:
    app = a.application
    assert app.complete_on is not None
    yield (
        f"** {a.title} application COMPLETE: {name(a.player)} (FIDE id {app.fide_id}) — "
        f"on {app.complete_on.isoformat()}, {len(app.norms)} norms, "
        f"{app.games_credited} games, rating {app.rating.rating if app.rating else '-'}"
    )


@_told.register
def _(a: ev.TitleApplicationProgress, top: int) -> Iterator[str]:
    app = a.application
    was = "no longer complete: " if a.revokes else ""
    yield (
        f"   {a.title} application of {name(a.player)} (FIDE id {app.fide_id}): {was}"
        f"{len(app.norms)} norms, {app.games_credited} games; missing " + "; ".join(app.missing)
    )


def prospect(
    status: str, reason: str, p: ev.Prospect, player: ev.PlayerRef, title: str, after: int
) -> Iterable[str]:
    """What the remaining rounds must bring, after round ``after``."""
    yield f"{title} norm prospect for {name(player)} after round {after}: {status}"
    if reason:
        yield f"  {reason}"
    if status != "possible" and not p.open_requirements:
        return
    if p.exact:
        yield f"remaining games ({p.games_left}):"
        for opponent in p.remaining:
            yield f"  {name(opponent, 40):<40} {opponent.rating or 'unrated'}"
        if p.ways:
            yield "scores from the remaining games that give the norm (with an example):"
            for w in p.ways:
                results = ", ".join(
                    f"{letter} {o.name}" for letter, o in zip(w.results, p.remaining, strict=False)
                )
                yield f"  {score_text(w.score):>4}/{p.games_left}: {results}"
    elif p.needs:
        yield f"remaining games: {p.games_left}; assuming {p.assumption}"
        yield "  counted  score  average at least  (best available)"
        notes = list(dict.fromkeys(n.note for n in p.needs if n.note))
        for n in p.needs:
            mark = f"  [{notes.index(n.note) + 1}]" if n.note else ""
            yield (
                f"  {n.games:>7}  {score_text(n.score):>5}  {n.average:>16}  "
                f"({n.best_available}){mark}"
            )
        # the route a row belongs to is said where the row is (1.4.1c: 8 games only with a
        # forfeit win or a pairing-allocated bye in the round without a counted game)
        yield from (f"  [{i}] {note}" for i, note in enumerate(notes, 1))
    if p.open_requirements:
        yield "requirements over every game (needed for the full record, has so far):"
        for r in p.open_requirements:
            yield from requirement_lines(r, "ok " if r.met else "   ")


def breakdown(e: ev.NormEvidence, player: ev.PlayerRef, edition: str) -> Iterable[str]:
    """An IT1-like breakdown of one norm attempt."""
    verdict = "ACHIEVED" if e.achieved else "not achieved"
    yield f"{e.title} norm for {name(player)}: {verdict}  [{edition}]"
    yield (
        f"rounds 1-{e.rounds_considered}: {e.score_text}/{e.games} ({e.percentage}%), "
        f"Ra {e.average_rating if e.average_rating is not None else '-'}, "
        f"Rp {e.performance if e.performance is not None else '-'}"
        + (f", counts as {e.games_credited} games" if e.achieved else "")
    )
    yield ""
    yield "games counted:"
    yield f"  {'rd':>3}  {'opponent':<36} {'rating':>6}  res  note"
    for g in e.counted:
        yield (
            f"  {g.round:>3}  {name(g.opponent, 36):<36} {g.rating_used:>6}   {g.result}   {g.note}"
        )
    if e.ignored:
        yield ""
        yield "games left out:"
        yield f"  {'rd':>3}  {'opponent':<36} {'rating':>6}  res  why"
        for i in e.ignored:
            who = name(i.opponent, 36) if i.opponent else "-"
            rating = (i.opponent.rating if i.opponent else None) or ""
            yield (f"  {i.round:>3}  {who:<36} {rating:>6}   {i.result}   {i.article}: {i.reason}")
    yield ""
    yield "requirements:"
    for r in e.requirements:
        yield from requirement_lines(r, "ok " if r.met else "NO ")


NEEDED_WIDTH = 28
"""The width of the ``needed`` column of a requirement table."""


def requirement_lines(r: ev.Requirement, mark: str) -> Iterator[str]:
    """A requirement's row; a ``needed`` text longer than its column is wrapped within
    it, on the lines below, so that ``has`` stays in its column on the row."""
    head = f"  {mark} {r.article:<7} {r.name:<36} needed "
    first, *rest = textwrap.wrap(r.needed, NEEDED_WIDTH) or [""]
    yield f"{head}{first:<{NEEDED_WIDTH}} has {r.actual}"
    yield from (" " * len(head) + more for more in rest)


def check_lines(
    state: TournamentState,
    rank: int,
    title: Title | None,
    up_to: int,
    watch: Watch | None = None,
) -> tuple[list[str], int]:
    """What ``tracker check`` prints after round ``up_to``, and its exit status: for each
    norm title the player can gain (or the one asked for) the breakdown of the best attempt,
    the player's entry in the norm watch (:mod:`tracker.engine.watch`) and, before the last
    round, the prospect. A title the player cannot gain is answered with the edition's
    reason (:meth:`~tracker.rules.TitleRules.why_not_eligible`) and status 1. ``watch``:
    the watch after ``up_to``, when the caller has it."""
    rules = state.title_rules
    player = state.players[rank]
    ref = player_ref(player)
    lines = [f"# edition {state.edition_reason}"]
    if title is not None:
        why = rules.why_not_eligible(player, title)
        if why is not None:
            lines.append(f"{title.value} norm for {name(ref)}: does not apply: {why}")
            return lines, 1
        titles: tuple[Title, ...] = (title,)
    else:
        titles = rules.eligible_norm_titles(player)
    if not titles:
        lines.append(f"{player.label()} can gain no norm title:")
        lines += [f"  {rules.why_not_eligible(player, t)}" for t in NORM_TITLES]
        return lines, 0
    ongoing = not state.tournament.is_last(up_to)
    # no watch where the event gives no norm (its rate of play: evaluation.norm_event)
    if watch is None and norm_event(state).norms:
        watch = watch_after(state, up_to)
    if watch is not None and not watch.norm_event:
        watch = None
    for i, t in enumerate(titles):
        if watch is None:
            verdict = verdict_for(state, rank, t, up_to)
        else:
            verdict = watch.view.shown(state, rank, t)
        if i:
            lines.append("")
        proof = evidence(verdict, verdict.raised, rules.rating_floor[t])
        lines += breakdown(proof, ref, rules.name)
        if watch is None:
            continue
        entry = watch.entry(rank, t)
        lines.append("")
        lines.append(watch_line(entry, rules.name))
        p = entry.prospect
        if ongoing and p is not None:
            lines += prospect(p.status.value, p.reason, prospect_detail(p), ref, t.value, up_to)
    return lines, 0


def watch_line(entry: Entry, edition: str) -> str:
    """``norm watch after round 6: in contention — needs …``: one entry, as ``check`` and
    the whole table say it."""
    return (
        f"norm watch after round {entry.round}: {entry.stage.label} — {entry_text(entry, edition)}"
    )


def check_table(state: TournamentState, up_to: int, watch: Watch | None = None) -> list[str]:
    """What ``tracker check FILE`` prints without ``--player``: the whole norm watch after
    round ``up_to``, every player and title, closest first, out of reach last. ``watch``:
    the watch after ``up_to``, when the caller has it."""
    lines = [f"# edition {state.edition_reason}"]
    gate = norm_event(state)
    if not gate.norms:
        return [*lines, f"# NOT a norm event: {gate.reason}"]
    if watch is None:
        watch = watch_after(state, up_to)
    planned = state.tournament.planned_rounds
    of = f" of {planned}" if planned is not None else ""
    lines.append(f"# {state.tournament.name or state.tournament.id}, after round {up_to}{of}")
    lines += watch_lines(watch, None, tuple(Stage))
    return lines
