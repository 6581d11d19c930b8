"""The Starlette application of ``grn serve``: the recorder page, its JSON API, the archive, the viewer.

The routes live by concern, each module a list ``ROUTES`` of Starlette routes:

* :mod:`grn.serve.routes_pages` -- the page and its files, tile pictures, the viewer and share links
* :mod:`grn.serve.routes_archive` -- search, new game, import, fork, delete, download
* :mod:`grn.serve.routes_recording` -- the position shown, a turn played or taken back, notes, changes
* :mod:`grn.serve.routes_analysis` -- the best moves at a position, a game analysed in the background
* :mod:`grn.serve.routes_bots` -- a game against grn: the bots' turns, a person's move taken back
* :mod:`grn.serve.puzzles` -- the Puzzles page and its rated attempts

What they share (the archive, the searches under way) is a :class:`~grn.serve.common.Context` in
``app.state``; the checks on every request (host, size, origin, token, security headers) are the one
middleware :class:`~grn.serve.security.Guard` in front of the application.

Every answer is JSON (errors too: ``{"error": "..."}`` with a status, never a traceback page) except the
page's own files and the viewer pages.  No route takes a file path: the only file read or written is the
archive, and the page's files are looked up by name in a fixed table.  Work that takes time (replaying,
validating, drawing, SQLite) runs in Starlette's thread pool.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from grn.serve import routes_analysis, routes_archive, routes_bots, routes_pages, routes_recording
from grn.serve.common import Context, api, json_depth
from grn.serve.puzzles import routes as puzzle_routes
from grn.serve.security import Guard, Policy
from grn.serve.store import Store


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (404, 405) and anything unexpected, as a JSON line (never a traceback)."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
    return JSONResponse({"error": str(detail).lower() if status != 500 else "the server failed: "
                         + type(exc).__name__}, status_code=status)


def make_app(archive: str | Path, *, token: str, open_read: bool = False, max_body: int = 4 * 1024 * 1024,
             hosts: Iterable[str] | None = (), engines: Mapping[str, str] | None = None) -> Any:
    """The ASGI application on ``archive`` (made when missing), guarded by :class:`Guard`: it answers the
    loopback names and ``hosts`` (``None``: any ``Host``, for a server of the room).  ``engines`` are the
    engines a bot seat may name (``engine:NAME`` -> the command that starts it; the command line's only)."""
    store = Store(archive)
    routes = [*routes_pages.ROUTES, *routes_archive.ROUTES, *routes_recording.ROUTES, *routes_analysis.ROUTES,
              *routes_bots.ROUTES, *puzzle_routes(store, api)]  # the Puzzles page: grn/serve/puzzles.py
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: http_error})
    app.state.grn = Context(store=store, max_body=max_body, engines=dict(engines or {}))
    allowed = None if hosts is None else frozenset(h.lower().strip("[]").rstrip(".") for h in hosts)
    return Guard(app, Policy(token=token, open_read=open_read, max_body=max_body, hosts=allowed))


__all__ = ["make_app", "json_depth"]
