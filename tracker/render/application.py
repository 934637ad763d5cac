"""A title application for people: one status line, the whole judgement as text, and the
application bundle (the summary sheet with the fields of FIDE's title application form the
tracker can fill, and the IT1 certificates the application rests on).

Pure: a :class:`~tracker.contract.TitleApplication` (and the certificates a store keeps) in,
text and models out; :mod:`tracker.render.application_html` and
:mod:`tracker.render.application_pdf` print the bundle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from tracker import contract as ev
from tracker.render.certificate import Field, NormCertificate

FORM = "FIDE title application (norms): summary sheet"


def rating_text(r: ev.TitleRating | None) -> str:
    if r is None:
        return "no rating known"
    return f"{r.rating} {r.kind} on {r.on.isoformat()} ({r.source})"


def status_line(app: ev.TitleApplication) -> str:
    """One line of ``tracker titles status``: the player, the norms, the games, the rating,
    complete or what is missing."""
    who = f"{app.name or '?'} ({app.federation or '?'}, {app.fide_id})"
    norms = f"{len(app.norms)} norm{'s' if len(app.norms) != 1 else ''}"
    rating = f"rating {app.rating.rating}" if app.rating else "no rating"
    head = f"{app.title:<3} {who}: {norms}, {app.games_credited} games, {rating}"
    if app.complete:
        assert app.complete_on is not None
        return f"{head}: COMPLETE on {app.complete_on.isoformat()}"
    return f"{head}: missing {'; '.join(app.missing)}"


def application_lines(app: ev.TitleApplication) -> Iterable[str]:
    """The whole judgement, as ``tracker titles player`` prints it."""
    state = (
        f"COMPLETE on {app.complete_on.isoformat()}"
        if app.complete and app.complete_on
        else "not complete"
    )
    yield (
        f"{app.title} application of {app.name} ({app.federation or '?'}, FIDE id "
        f"{app.fide_id}): {state} [application rules {app.edition}]"
    )
    yield "  norms:"
    for n in app.norms:
        yield "    " + norm_text(n)
    if not app.norms:
        yield "    none"
    yield f"  games of norms: {app.games_credited}; rating: {rating_text(app.rating)}"
    yield f"  why these norms: {app.why}"
    yield "  conditions:"
    for r in app.requirements:
        mark = "ok " if r.met else "NO "
        yield f"    {mark} {r.article:<7} {r.name}: needs {r.needed}, has {r.actual}"
    for m in app.missing:
        yield f"  missing: {m}"
    for left in app.left_out:
        yield f"  left out: {left.event}: {left.reason}"
    for note in app.notes:
        yield f"  note: {note}"


def norm_text(n: ev.TitleNorm) -> str:
    days = n.start_date.isoformat() + (f" to {n.end_date.isoformat()}" if n.end_date else "")
    credited = f" (counted as {n.games_credited})" if n.games_credited != n.games else ""
    extra = []
    if n.federation_exemption:
        extra.append(f"exempt {n.federation_exemption}")
    if n.short_norm:
        extra.append("8 games, 1.4.1c")
    if n.one_round_days is not None:
        extra.append(f"{n.one_round_days} days with one round")
    if n.event_type_1_5_6:
        extra.append("1.5.6 event")
    more = f"; {', '.join(extra)}" if extra else ""
    return (
        f"{n.event}, {days}: {n.games} games{credited}, achieved {n.achieved_on.isoformat()}, "
        f"{n.edition}{more} [{n.source}]"
    )


# --------------------------------------------------------------------------- the bundle


class ApplicationBundle(BaseModel):
    """What a federation files for a complete application: the summary sheet's data, and
    the IT1 certificates of its norms the store holds (``missing_certificates``: the norms
    whose certificate the federation holds itself, on paper)."""

    model_config = ConfigDict(frozen=True)

    form: str = FORM
    application: ev.TitleApplication
    certificates: tuple[NormCertificate, ...]
    missing_certificates: tuple[str, ...]
    """The events of norms without a certificate in the store."""


def bundle(
    app: ev.TitleApplication, certificates: Mapping[str, NormCertificate]
) -> ApplicationBundle:
    """The bundle of a complete application; ``certificates`` by norm key."""
    if not app.complete:
        raise ValueError(
            f"the {app.title} application of {app.name} is not complete: " + "; ".join(app.missing)
        )
    have = [certificates[n.key] for n in app.norms if n.key in certificates]
    lacking = tuple(n.event for n in app.norms if n.key not in certificates)
    return ApplicationBundle(
        application=app, certificates=tuple(have), missing_certificates=lacking
    )


def player_fields(b: ApplicationBundle) -> list[Field]:
    """The form's block of the applicant; ``None`` leaves a line for the federation."""
    app = b.application
    held = {c.player.title for c in b.certificates} - {None}
    births = {c.birth_date for c in b.certificates} - {None}
    birth = next(iter(births)).isoformat() if len(births) == 1 else None  # type: ignore[union-attr]
    return [
        ("Title applied for", app.title),
        ("Name", app.name or None),
        ("FIDE id", str(app.fide_id)),
        ("Federation", app.federation),
        ("Title held", ", ".join(sorted(t for t in held if t)) or None),
        ("Date of birth", birth),
        ("Place of birth", None),
    ]


def rating_fields(b: ApplicationBundle) -> list[Field]:
    app = b.application
    r = app.rating
    assert r is not None
    return [
        ("Rating reached", str(r.rating)),
        ("On", r.on.isoformat()),
        ("Published or interim", r.kind),
        ("Evidence", r.source),
    ]


def norm_rows(b: ApplicationBundle) -> list[list[str]]:
    """The form's table of norms: event, dates, games (counted as), score, Ra, Rp, edition."""
    rows = []
    for n in b.application.norms:
        days = n.start_date.isoformat() + (f" - {n.end_date.isoformat()}" if n.end_date else "")
        games = str(n.games) + (f" ({n.games_credited})" if n.games_credited != n.games else "")
        rows.append(
            [
                n.event,
                days,
                games,
                n.score_text or "-",
                str(n.average_rating or "-"),
                str(n.performance or "-"),
                n.edition,
            ]
        )
    return rows


def signature_fields() -> list[Field]:
    """What the federation completes: left blank."""
    return [
        ("Federation official", None),
        ("Signature, stamp", None),
        ("Date", None),
    ]


__all__ = [
    "FORM",
    "ApplicationBundle",
    "application_lines",
    "bundle",
    "norm_rows",
    "norm_text",
    "player_fields",
    "rating_fields",
    "rating_text",
    "signature_fields",
    "status_line",
]
