"""Plain-text renderings for people: the round-by-round story of ``tracker replay`` and the
arbiter's breakdown of ``tracker check``."""

from __future__ import annotations

from collections.abc import Iterable

from tracker import contract as ev
from tracker.domain.titles import NORM_TITLES, Title
from tracker.engine.alerts import evidence, player_ref, prospect_detail, score_text
from tracker.engine.evaluation import norm_event, verdict_for
from tracker.engine.prospects import Outlook
from tracker.engine.secured import pending, secured_norm
from tracker.engine.state import TournamentState
from tracker.rules import title_rules_named


def _name(p: ev.PlayerRef) -> str:
    title = f"{p.title} " if p.title else ""
    return f"{title}{p.name} ({p.federation or '?'})"


def story(alerts: Iterable[ev.OutputEvent], top: int = 10) -> Iterable[str]:
    """Lines of a readable account: each finished round with its standings and live
    ratings, then the alerts of that round. Every alert's line names its round: alerts
    followed from several topics (``tracker alerts``) may come after a later round's
    standings."""
    for a in alerts:
        if isinstance(a, ev.RoundFinished):
            last = " (last round)" if a.last_round else ""
            yield ""
            yield f"== {a.tournament_id}: round {a.round} finished{last} [{a.edition}]"
            yield f"   {'#':>4}  {'player':<34} {'pts':>4}  {'live':>5} {'chg':>4}"
            for s in a.standings[:top]:
                live = str(s.live_rating) if s.live_rating is not None else "-"
                change = f"{s.rating_change:+d}" if s.rating_change is not None else ""
                yield (
                    f"   {s.player.rank:>4}  {_name(s.player)[:34]:<34} {s.score_text:>4}  "
                    f"{live:>5} {change:>4}"
                )
            if len(a.standings) > top:
                yield f"   … {len(a.standings) - top} more players"
        elif isinstance(a, ev.NormAchieved):
            e = a.evidence
            when = "SECURED before the last round" if a.secured_early else "achieved"
            if a.conditions:
                when = "achieved, not yet secured"
            yield (
                f"** round {a.round}: {a.title} norm {when}: {_name(a.player)} — "
                f"{e.score_text}/{e.games}, "
                f"Ra {e.average_rating}, Rp {e.performance}, counts as {e.games_credited} games"
            )
            for c in a.conditions:
                yield f"   depends on {c.article}: {c.text}"
        elif isinstance(a, ev.NormRevoked):
            yield f"!! round {a.round}: {a.title} norm revoked: {_name(a.player)} — {a.reason}"
        elif isinstance(a, ev.TitleRatingReached):
            yield (
                f"** round {a.round}: {a.title} rating level {a.level} reached by "
                f"{_name(a.player)}: live rating {a.live_rating} ({a.rating_change:+d})"
            )
        elif isinstance(a, ev.IgnorableGames):
            games = ", ".join(f"r{g.round} ({g.article})" for g in a.games)
            yield (
                f"   round {a.round}: games left out of the {a.title} norm of "
                f"{a.player.name}: {games}"
            )
        elif isinstance(a, ev.NormProspect) and a.prospect is not None:
            summary = _summary(a.prospect, a.edition)
            yield (
                f"   round {a.round}: in contention for the {a.title} norm: {_name(a.player)}"
                f" — {summary}"
            )
        elif isinstance(a, ev.NormOutOfReach):
            yield (
                f"   round {a.round}: {a.title} norm out of reach: {_name(a.player)} — {a.reason}"
            )
        elif isinstance(a, ev.RoundReopenedAlert):
            yield ""
            yield f"== {a.tournament_id}: round {a.round} reopened — {a.reason}"
        elif isinstance(a, ev.StandingsCorrected):
            yield f"== {a.tournament_id}: standings after round {a.round} corrected — {a.reason}"
        elif isinstance(a, ev.TitleRatingRevoked | ev.NormProspectRevoked):
            what = "rating level" if isinstance(a, ev.TitleRatingRevoked) else "norm contention"
            yield f"!! round {a.round}: {a.title} {what} revoked: {_name(a.player)} — {a.reason}"
        elif isinstance(a, ev.TitleApplicationComplete):
            app = a.application
            assert app.complete_on is not None
            yield (
                f"** {a.title} application COMPLETE: {_name(a.player)} (FIDE id {app.fide_id}) — "
                f"on {app.complete_on.isoformat()}, {len(app.norms)} norms, "
                f"{app.games_credited} games, rating {app.rating.rating if app.rating else '-'}"
            )
        elif isinstance(a, ev.TitleApplicationProgress):
            app = a.application
            was = "no longer complete: " if a.revokes else ""
            yield (
                f"   {a.title} application of {_name(a.player)} (FIDE id {app.fide_id}): {was}"
                f"{len(app.norms)} norms, {app.games_credited} games; missing "
                + "; ".join(app.missing)
            )


def _summary(p: ev.Prospect, edition: str) -> str:
    """One line: the lowest score that can still give the norm; the articles are those of
    the alert's ``edition``."""
    if p.exact and p.ways:
        return f"needs {score_text(p.ways[0].score)}/{p.games_left} from the remaining games"
    full = [n for n in p.needs if n.games == p.games_left]
    if full:
        n = full[0]
        return f"needs {score_text(n.score)}/{n.games} against an average of at least {n.average}"
    return "possible only with games left out" + _left_out(edition)


def _left_out(edition: str) -> str:
    """`` (1.42e/1.42f)``: the articles that let games be left out (none for an unknown
    edition)."""
    try:
        rules = title_rules_named(edition)
    except ValueError:
        return ""
    articles = dict.fromkeys((rules.win_article, rules.after_norm_article))
    return f" ({'/'.join(articles)})"


def prospect(
    status: str, reason: str, p: ev.Prospect, player: ev.PlayerRef, title: str, after: int
) -> Iterable[str]:
    """What the remaining rounds must bring, after round ``after``."""
    yield f"{title} norm prospect for {_name(player)} after round {after}: {status}"
    if reason:
        yield f"  {reason}"
    if status != "possible" and not p.open_requirements:
        return
    if p.exact:
        yield f"remaining games ({p.games_left}):"
        for opponent in p.remaining:
            yield f"  {_name(opponent)[:40]:<40} {opponent.rating or 'unrated'}"
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
        for n in p.needs:
            yield (
                f"  {n.games:>7}  {score_text(n.score):>5}  {n.average:>16}  ({n.best_available})"
            )
    if p.open_requirements:
        yield "requirements over every game (needed for the full record, has so far):"
        for r in p.open_requirements:
            mark = "ok " if r.met else "   "
            yield f"  {mark} {r.article:<7} {r.name:<36} needed {r.needed:<28} has {r.actual}"


def breakdown(e: ev.NormEvidence, player: ev.PlayerRef, edition: str) -> Iterable[str]:
    """An IT1-like breakdown of one norm attempt."""
    verdict = "ACHIEVED" if e.achieved else "not achieved"
    yield f"{e.title} norm for {_name(player)}: {verdict}  [{edition}]"
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
            f"  {g.round:>3}  {_name(g.opponent)[:36]:<36} {g.rating_used:>6}  "
            f" {g.result}   {g.note}"
        )
    if e.ignored:
        yield ""
        yield "games left out:"
        for i in e.ignored:
            who = _name(i.opponent) if i.opponent else "-"
            yield f"  {i.round:>3}  {who[:36]:<36} {i.result:>3}  {i.article}: {i.reason}"
    yield ""
    yield "requirements:"
    for r in e.requirements:
        mark = "ok " if r.met else "NO "
        yield f"  {mark} {r.article:<7} {r.name:<36} needed {r.needed:<28} has {r.actual}"


def check_lines(
    state: TournamentState, rank: int, title: Title | None, up_to: int
) -> tuple[list[str], int]:
    """What ``tracker check`` prints after round ``up_to``, and its exit status: for each
    norm title the player can gain (or the one asked for) the breakdown of the best attempt
    and, before the last round, the prospect. A title the player cannot gain is answered
    with the edition's reason (:meth:`~tracker.rules.TitleRules.why_not_eligible`) and
    status 1."""
    rules = state.title_rules
    player = state.players[rank]
    ref = player_ref(player)
    lines = [f"# edition {state.edition_reason}"]
    if title is not None:
        why = rules.why_not_eligible(player, title)
        if why is not None:
            lines.append(f"{title.value} norm for {_name(ref)}: does not apply: {why}")
            return lines, 1
        titles: tuple[Title, ...] = (title,)
    else:
        titles = rules.eligible_norm_titles(player)
    if not titles:
        lines.append(f"{player.label()} can gain no norm title:")
        lines += [f"  {rules.why_not_eligible(player, t)}" for t in NORM_TITLES]
        return lines, 0
    ongoing = not state.tournament.is_last(up_to)
    # no prospects where the event gives no norm (its rate of play: evaluation.norm_event)
    view = Outlook(state, up_to) if ongoing and norm_event(state).norms else None
    announced_early = rules.may_ignore_after_norm(state.tournament)
    for i, t in enumerate(titles):
        verdict = verdict_for(state, rank, t, up_to)
        sure = (
            secured_norm(state, rank, t, verdict, up_to, view.cells, view.facts_ctx)
            if view is not None
            else None
        )
        if sure is not None and sure.certain:
            verdict = sure.verdict  # the worst case over every scheduled round
        if i:
            lines.append("")
        proof = evidence(verdict, verdict.raised, rules.rating_floor[t])
        lines += breakdown(proof, ref, rules.name)
        if verdict.achieved and sure is None and (not ongoing or announced_early):
            # announced with conditions, as the alert says them (an unknown system's too)
            cells, ctx = (view.cells, view.facts_ctx) if view is not None else (None, None)
            found = pending(state, rank, t, up_to, cells, ctx)
            lines += [f"depends on {c.article}: {c.text}" for c in found]
        if view is not None:
            p = view.prospect(rank, t, sure is not None)
            reason = sure.because if sure is not None else p.reason
            lines.append("")
            lines += prospect(p.status.value, reason, prospect_detail(p), ref, t.value, up_to)
    return lines, 0
