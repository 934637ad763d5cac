"""The OpenAPI 3.1 description of the worker's web API, generated from the pydantic models of
:mod:`tracker.render.views`, :mod:`tracker.render.certificate` and :mod:`tracker.contract`.

:data:`ROUTES` lists every route the worker serves; :data:`streams.web.HANDLERS` serves
exactly these, and a test checks that the server and the document agree.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import BaseModel, TypeAdapter

from tracker import contract as ev
from tracker.render.certificate import NormCertificate
from tracker.render.views import PlayerCard, Standings, TournamentSummary

REF = "#/components/schemas/{model}"


class TournamentList(BaseModel):
    tournaments: list[TournamentSummary]


class Problem(BaseModel):
    """An error: what is wrong, naming the parameter."""

    error: str


@dataclasses.dataclass(frozen=True)
class Param:
    name: str
    where: str
    """``path`` or ``query``."""
    description: str
    schema: dict[str, Any] = dataclasses.field(default_factory=lambda: {"type": "string"})
    repeatable: bool = False


@dataclasses.dataclass(frozen=True)
class Route:
    path: str
    summary: str
    description: str
    params: tuple[Param, ...] = ()
    model: type[BaseModel] | None = None
    """The JSON body of a 200 answer (``None`` for the routes below that answer otherwise)."""
    media: tuple[str, ...] = ("application/json",)
    errors: tuple[int, ...] = ()


TID = Param("tournament_id", "path", "the tournament id (the input topic's key)")
PLAYER = Param("player", "path", "start rank or FIDE id")

ROUTES: tuple[Route, ...] = (
    Route(
        "/api/tournaments",
        "Tournaments on this worker",
        "The tournaments whose partitions this worker holds (with several workers, ask each).",
        model=TournamentList,
    ),
    Route(
        "/api/tournaments/{tournament_id}",
        "One tournament",
        "Routed to the worker that owns the tournament's partition.",
        (TID,),
        TournamentSummary,
        errors=(404, 503),
    ),
    Route(
        "/api/tournaments/{tournament_id}/standings",
        "Standings and crosstable",
        "After the last finished round: place, score, live rating and change, performance, "
        "norms in force, and every round's cell.",
        (TID,),
        Standings,
        errors=(404, 503),
    ),
    Route(
        "/api/tournaments/{tournament_id}/players/{player}",
        "A player card",
        "Name, title, federation, FIDE id, rating, score, rating change, performance, and for "
        "every norm title the player could gain the best attempt with its evidence.",
        (TID, PLAYER),
        PlayerCard,
        errors=(404, 503),
    ),
    Route(
        "/api/tournaments/{tournament_id}/players/{player}/certificate",
        "The IT1 certificate of a norm",
        "The data of FIDE's IT1 form for a norm achieved, as JSON, printable HTML or PDF.",
        (
            TID,
            PLAYER,
            Param(
                "title",
                "query",
                "the norm (default: the strongest achieved)",
                {"enum": ["GM", "IM", "WGM", "WIM"]},
            ),
            Param("round", "query", "after this round (default: the last)", {"type": "integer"}),
            Param("format", "query", "default json", {"enum": ["json", "html", "pdf"]}),
        ),
        NormCertificate,
        media=("application/json", "text/html", "application/pdf"),
        errors=(400, 404, 503),
    ),
    Route(
        "/api/alerts",
        "Alerts as server-sent events",
        "Every alert on the output topics, each alert id once, as `data:` lines of JSON (the "
        "alert's `type` is inside), with `id:` numbers for `Last-Event-ID`. Starts with the "
        "alerts the worker keeps (or those after `Last-Event-ID` / `since`), then follows. "
        "The worker keeps recent alerts only (TRACKER_FEED_ALERTS, TRACKER_FEED_BYTES; a "
        "finished tournament's alerts leave after TRACKER_FINISHED_GRACE seconds): a position "
        "it cannot resume from exactly is answered first with an `event: reset` (an id it did "
        "not give: every alert kept follows) or `event: gap` (alerts after it are no longer "
        "kept) whose data is `{kind, message, oldest}`; drop alert ids you have, and read the "
        "output topics for the rest. Filters take repeated or comma-separated values; "
        "`federation` keeps the alerts about players of those federations (title-threshold "
        "and norm alerts).",
        (
            Param("tournament", "query", "tournament ids", repeatable=True),
            Param("type", "query", "alert types, e.g. norm_achieved", repeatable=True),
            Param("federation", "query", "players' federations, e.g. ROU", repeatable=True),
            Param(
                "since",
                "query",
                "only alerts after this id (as `Last-Event-ID`, which wins when both are given)",
                {"type": "integer", "minimum": 0, "maximum": 10**20 - 1},
            ),
        ),
        media=("text/event-stream",),
        errors=(400,),
    ),
    Route("/openapi.json", "This document", "The OpenAPI description of these routes."),
    Route(
        "/live",
        "The live page",
        "Standings, crosstable, live ratings, norms and alerts of a tournament (`?t=ID`), "
        "updated as alerts arrive. One HTML file with plain JavaScript.",
        (
            Param("t", "query", "tournament id (default: the first one)"),
            Param("federation", "query", "only alerts about players of these federations"),
        ),
        media=("text/html",),
    ),
)


def _schemas() -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """(component schemas, the alert schema) from the models."""
    components: dict[str, dict[str, Any]] = {}
    for model in (TournamentList, Problem, TournamentSummary, Standings, PlayerCard):
        schema = model.model_json_schema(ref_template=REF)
        components.update(schema.pop("$defs", {}))
        components[model.__name__] = schema
    cert = NormCertificate.model_json_schema(ref_template=REF)
    components.update(cert.pop("$defs", {}))
    components["NormCertificate"] = cert
    alert = TypeAdapter(ev.OutputEvent).json_schema(ref_template=REF)
    components.update(alert.pop("$defs", {}))
    components["Alert"] = alert
    return components, alert


def document() -> dict[str, Any]:
    components, _ = _schemas()
    paths: dict[str, Any] = {}
    for route in ROUTES:
        content: dict[str, Any] = {}
        for media in route.media:
            if media == "application/json":
                body = (
                    {"$ref": REF.format(model=route.model.__name__)}
                    if route.model
                    else {"type": "object"}
                )
                content[media] = {"schema": body}
            elif media == "text/event-stream":
                content[media] = {
                    "schema": {"type": "string"},
                    "x-event-data": {"$ref": REF.format(model="Alert")},
                }
            elif media == "application/pdf":
                content[media] = {"schema": {"type": "string", "format": "binary"}}
            else:
                content[media] = {"schema": {"type": "string"}}
        responses: dict[str, Any] = {"200": {"description": "OK", "content": content}}
        for status in route.errors:
            responses[str(status)] = {
                "description": {
                    400: "Bad parameter",
                    404: "Not found",
                    503: "The worker holding the tournament cannot be reached",
                }[status],
                "content": {"application/json": {"schema": {"$ref": REF.format(model="Problem")}}},
            }
        parameters = []
        for p in route.params:
            schema = {"type": "array", "items": p.schema} if p.repeatable else p.schema
            parameter: dict[str, Any] = {
                "name": p.name,
                "in": p.where,
                "required": p.where == "path",
                "description": p.description,
                "schema": schema,
            }
            if p.repeatable:
                parameter.update(style="form", explode=True)
            parameters.append(parameter)
        operation: dict[str, Any] = {
            "summary": route.summary,
            "description": route.description,
            "operationId": route.path.strip("/").replace("/", "_").replace("{", "").replace("}", "")
            or "root",
            "responses": responses,
        }
        if parameters:
            operation["parameters"] = parameters
        paths[route.path] = {"get": operation}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "fide-norm-tracker worker",
            "version": "1",
            "description": "Standings, player cards, norm certificates and alerts of the "
            "tournaments a worker tracks.",
        },
        "paths": paths,
        "components": {"schemas": components},
    }


__all__ = ["ROUTES", "Param", "Problem", "Route", "TournamentList", "document"]
