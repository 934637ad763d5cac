"""The norm watch in words (:mod:`tracker.engine.watch`): what a prospect needs in one line,
what each entry says, and the compact table ``tracker replay`` prints after each round and
``tracker check FILE`` prints whole."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from tracker import contract as ev
from tracker.engine.alerts import player_ref, prospect_detail, score_text
from tracker.engine.watch import Entry, Stage, Watch
from tracker.rules import title_rules_named


def name(p: ev.PlayerRef, width: int | None = None) -> str:
    """``IM Dumitrescu, Radu (ROU)``: how the texts name a player; within ``width``
    characters the name is cut, never the federation.

    >>> ref = ev.PlayerRef(rank=8, fide_id=None, name="Haub, Thorsten Michael Alexander",
    ...                    federation="GER", title="IM", rating=2400)
    >>> name(ref, 30)
    'IM Haub, Thorsten Micha… (GER)'
    """
    title = f"{p.title} " if p.title else ""
    fed = f" ({p.federation or '?'})"
    whole = f"{title}{p.name}{fed}"
    if width is None or len(whole) <= width:
        return whole
    return f"{title}{p.name}"[: max(1, width - len(fed) - 1)] + "…" + fed


def need_text(p: ev.Prospect, edition: str) -> str:
    """What the remaining rounds must bring, in one line: the lowest score that can still
    give the norm, over every remaining game where a row asks that, with what else the row
    needs (1.4.1c's round without a counted game); the articles are the ``edition``'s."""
    if p.exact and p.ways:
        return f"needs {score_text(p.ways[0].score)}/{p.games_left} from the remaining games"
    full = [n for n in p.needs if n.games == p.games_left]
    if full or p.needs:
        n = full[0] if full else min(p.needs, key=lambda n: (n.score / n.games, n.average))
        counted = "" if full else f" in {n.games} counted game{'s' if n.games > 1 else ''}"
        text = (
            f"needs {score_text(n.score)}/{n.games}{counted} against an average of at least "
            f"{n.average} (best available {n.best_available})"
        )
        return text + (f"; {n.note}" if n.note else "")
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


def entry_text(entry: Entry, edition: str) -> str:
    """What an entry says after its stage: why it is secured or out of reach, what a
    conditional norm depends on, what the remaining rounds must bring."""
    if entry.conditions:  # conditional, or achieved on an unknown system's assumption
        depends = "; ".join(f"depends on {c.article}: {c.text}" for c in entry.conditions)
        return depends if entry.stage is Stage.CONDITIONAL else f"{entry.reason}; {depends}"
    if entry.stage is Stage.IN_CONTENTION and entry.prospect is not None:
        return need_text(prospect_detail(entry.prospect), edition)
    return entry.reason


def watch_lines(
    watch: Watch, most: int | None = None, stages: Iterable[Stage] = tuple(Stage)[:-1]
) -> Iterator[str]:
    """The watch after its round, closest first: a heading with the count of each stage,
    then a line per entry in ``stages`` (by default all but out of reach), at most ``most``
    of them (``None``: all)."""
    if not watch.norm_event:
        return
    stages = tuple(stages)
    counts = dict.fromkeys(Stage, 0)
    for e in watch.stages().values():
        counts[e.stage] += 1
    told = ", ".join(f"{counts[s]} {s.label}" for s in Stage if counts[s])
    yield f"   norm watch after round {watch.number} (closest first): {told or 'nobody'}"
    shown = [e for e in watch.stages().values() if e.stage in stages]
    if not shown:
        return
    entries = watch.table(stages)[:most]
    scores = {row.player.rank: row.score for row in watch.view.rows}
    edition = watch.state.title_rules.name
    for e in entries:
        who = name(player_ref(e.player), 34)
        score = score_text(scores.get(e.player.rank, 0))
        yield (
            f"     {e.title.value:<3} {e.stage.label:<13} {who:<34} {score:>4}  "
            f"{entry_text(e, edition)}"
        )
    if len(entries) < len(shown):
        yield (
            f"     … {len(shown) - len(entries)} more (tracker check FILE --round "
            f"{watch.number} lists every player)"
        )


def grouped(alerts: Sequence[ev.NormProspect | ev.NormOutOfReach], most: int = 3) -> list[str]:
    """The contention changes of one round in a few lines: entries into contention by
    title, exits out of reach by title and reason (each reason said once); a group of at
    most ``most`` alerts keeps a line per player."""
    groups: dict[tuple[str, str, str], list[ev.NormProspect | ev.NormOutOfReach]] = {}
    for a in alerts:
        if isinstance(a, ev.NormProspect):
            if a.prospect is None:
                continue  # left with the norm: the norm's own line says it
            groups.setdefault(("in", a.title, ""), []).append(a)
        else:
            groups.setdefault(("out", a.title, a.reason), []).append(a)
    lines = []
    for (kind, title, reason), members in groups.items():
        number = members[0].round
        if len(members) <= most:
            for a in members:
                if isinstance(a, ev.NormProspect) and a.prospect is not None:
                    lines.append(
                        f"   round {number}: in contention for the {title} norm: "
                        f"{name(a.player)} — {need_text(a.prospect, a.edition)}"
                    )
                else:
                    lines.append(
                        f"   round {number}: {title} norm out of reach: {name(a.player)} — {reason}"
                    )
            continue
        who = _some([a.player for a in members])
        if kind == "in":
            lines.append(
                f"   round {number}: {len(members)} players in contention for the {title} norm: "
                f"{who}"
            )
        else:
            lines.append(
                f"   round {number}: {title} norm out of reach for {len(members)} players — "
                f"{reason}: {who}"
            )
    return lines


def _some(players: Sequence[ev.PlayerRef], most: int = 6) -> str:
    """``Milov (2), Kunin (7), … and 40 more``."""
    shown = ", ".join(f"{p.name} ({p.rank})" for p in players[:most])
    rest = len(players) - most
    return shown + (f" and {rest} more" if rest > 0 else "")


__all__ = ["entry_text", "grouped", "name", "need_text", "watch_lines"]
