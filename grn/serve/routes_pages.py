"""Routes of ``grn serve`` for what a browser shows: the page and its files, the games' list of the New game
form, tile pictures, and the read-only viewer of a game (by id, or by a share link's key)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from datetime import date
from importlib import resources
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from grn.rules import registry
from grn.core.record import Record
from grn.render.html import render_html
from grn.serve.bots import bot_names
from grn.serve.common import ApiError, api, context, game_id
from grn.serve.views import record_for
from grn.serve.security import CSP, security_headers

#: The page's own files: name -> content type (nothing else is served from the package).
ASSETS = {"recorder.js": "text/javascript; charset=utf-8", "recorder.css": "text/css; charset=utf-8",
          "index.html": "text/html; charset=utf-8"}


def _asset(name: str) -> bytes:
    return resources.files("grn.serve").joinpath("static", name).read_bytes()


async def page(request: Request) -> Response:
    """The recorder's page."""
    return Response(_asset("index.html"), media_type=ASSETS["index.html"])


async def asset(request: Request) -> Response:
    """One of the page's own files, by name from :data:`ASSETS`."""
    name = request.path_params["name"]
    if name not in ASSETS or name == "index.html":
        return JSONResponse({"error": "no such file"}, status_code=404)
    return Response(_asset(name), media_type=ASSETS[name])


async def meta(request: Request) -> dict[str, Any]:
    """The games the server knows (names, colours, player counts, options), today's date, and the bots a seat
    may be given to (a game against grn)."""
    out = []
    for name in registry.names():
        r = registry.find_ruleset(name)
        out.append({"name": r.name, "title": r.title or r.name, "colours": list(r.colours),
                    "min": r.min_players, "max": r.max_players, "options": r.options_help,
                    "tiles": r.uses_tileset})
    return {"games": out, "today": date.today().strftime("%Y.%m.%d"), "bots": bot_names(context(request).engines)}


async def viewer(request: Request) -> Response:
    """``grn html``'s page of one game; with ``?review=1`` its review (R430), the record annotated by its analysis."""
    number = game_id(request)
    store = context(request).store
    record, _ = await run_in_threadpool(store.load, number)
    if request.query_params.get("review"):
        text = await run_in_threadpool(store.review, number)
        if text is None:
            raise ApiError(f"game {number} has no review: analyse it first", 404)
        return await run_in_threadpool(_viewer_page, record_for(text, "grn"), f"review of game {number}")
    return await run_in_threadpool(_viewer_page, record, f"game {number}")


async def share_link(request: Request) -> dict[str, Any]:
    """The read-only address of a game (its key made from the archive's secret)."""
    number = game_id(request)
    store = context(request).store
    await run_in_threadpool(store.load, number)
    return {"path": f"/share/{number}/{store.share_key(number)}"}


async def shared(request: Request) -> Response:
    """The viewer of a game reached by its share link (no token: the key is the permission)."""
    number = game_id(request)
    store = context(request).store
    key = request.path_params["key"]
    if not hmac.compare_digest(key.encode(), store.share_key(number).encode()):
        raise ApiError("no such shared game", 404)
    record, _ = await run_in_threadpool(store.load, number)
    return await run_in_threadpool(_viewer_page, record, f"game {number}")


async def tile_sheet(request: Request) -> Response:
    """Every tile of a game's tile set in one picture."""
    name = request.path_params["game"]
    if not registry.known(name):
        raise ApiError(f"unknown game {name!r}", 404)
    ruleset = registry.find_ruleset(name)
    if not ruleset.uses_tileset:
        raise ApiError(f"{name} has no tiles", 404)
    svg = await run_in_threadpool(_sheet, ruleset.name)
    return Response(svg, media_type="image/svg+xml")


async def tile_picture(request: Request) -> Response:
    """One tile's picture (kept by the phone: it never changes while the server runs)."""
    name, tile = request.path_params["game"], request.path_params["tile"]
    ruleset = registry.find_ruleset(name) if registry.known(name) else None
    picture = getattr(ruleset, "tile_picture", None)
    svg = await run_in_threadpool(picture, tile) if picture is not None and len(tile) < 40 else None
    if svg is None:
        raise ApiError(f"no picture of tile {tile[:40]!r}", 404)
    return Response(svg, media_type="image/svg+xml", headers={"cache-control": "max-age=3600"})


def _sheet(name: str) -> str:
    ruleset = registry.find_ruleset(name)
    return ruleset.render_tile_sheet(ruleset.default_tileset(), columns=8)  # type: ignore[attr-defined]


def _viewer_page(record: Record, title: str) -> Response:
    """``grn html``'s page for one game, with a policy that runs its one inline script and nothing else."""
    page = render_html([record], file_name=title)
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
                      for s in scripts)
    csp = CSP.replace("script-src 'self'", f"script-src {hashes}").replace("img-src 'self' data:", "img-src data:")
    headers = {k.decode(): v.decode() for k, v in security_headers(csp)}
    return HTMLResponse(page, headers=headers)


ROUTES = [
    Route("/", page), Route("/static/{name}", asset), Route("/api/meta", api(meta)),
    Route("/api/games/{game_id}/share", api(share_link)),
    Route("/api/tiles/{game}.svg", api(tile_sheet)),
    Route("/api/tiles/{game}/{tile}.svg", api(tile_picture)),
    Route("/games/{game_id}/view", api(viewer)),
    Route("/share/{game_id}/{key}", api(shared)),
]

__all__ = ["ASSETS", "ROUTES"]
