"""The Puzzles page of ``grn serve``: puzzles kept in the archive, solved by tapping, rated by Glicko-2.

:func:`routes` gives the page's routes, added to the app by one line of :func:`grn.serve.app.make_app`:

* ``GET /puzzles``: the page (``static/puzzles.html``, its script ``static/puzzles.js`` and the puzzle board
  it shares with the static trainer, ``/puzzles/puzzleboard.js``: grn/render/static/puzzleboard.js);
* ``GET /api/puzzles/next?solver=NAME``: the puzzle nearest the solver's rating they have not tried, its
  picture and the solver's rating (R404);
* ``POST /api/puzzles/{id}/attempt`` ``{"solver", "answer", "seconds"}``: the attempt judged and kept, both
  ratings moved, the solution in the engine's words.
"""

from __future__ import annotations

import sqlite3
from importlib import resources
from typing import Any, Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from grn.render.trainer import board_script

#: The page's files and their types.
FILES = {"puzzles.html": "text/html; charset=utf-8", "puzzles.js": "text/javascript; charset=utf-8"}
#: The longest solver name kept.
NAME_LIMIT = 60


class PuzzleError(Exception):
    """A request the Puzzles page cannot answer: ``status`` is the HTTP status to give."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _file(name: str) -> bytes:
    return resources.files("grn.serve").joinpath("static", name).read_bytes()


def _solver(value: Any) -> str:
    name = str(value or "").strip()
    if not name or len(name) > NAME_LIMIT or any(ord(c) < 32 for c in name):
        raise PuzzleError(f"a solver is a name of 1 to {NAME_LIMIT} characters")
    return name


def _rating(r: Any) -> dict[str, int]:
    return {"rating": round(r.rating), "deviation": round(r.deviation)}


def next_for(con: sqlite3.Connection, solver: str) -> dict[str, Any]:
    """The next puzzle for ``solver`` as the page reads it (``puzzle`` None when none is left)."""
    from grn.archive.puzzles import next_puzzle, solver_rating

    doc = next_puzzle(con, solver)
    out: dict[str, Any] = {"solver": _rating(solver_rating(con, solver)), "puzzle": None}
    if doc is not None:
        out["puzzle"] = {"id": doc["id"], "question": doc["question"], "rating": doc["rating"],
                         "deviation": doc["deviation"], **_picture(doc)}
    return out


def _picture(doc: dict[str, Any]) -> dict[str, Any]:
    """The puzzle's picture and how it is answered (the tile whose legal squares are marked, or choices)."""
    import grn
    from grn.rules import registry
    from grn.rules.position import position_at
    from grn.render import render_svg

    record = grn.parse(doc["grn"])[0]
    ruleset = registry.find_ruleset(doc["game"])
    position = position_at(record, str(doc["turn"] - 1))
    tile = doc["hand"][-1] if doc["hand"] and "legal" in ruleset.render_options else None
    if tile is not None:
        position.asked = tile
    svg = render_svg(position, legal=tile is not None, reveal="reveal" in ruleset.render_options)
    return {"svg": svg, "tile": tile, "choices": sorted(doc.get("choices") or [doc["answer"]])}


def routes(store: Any, api: Callable[[Callable[[Request], Awaitable[Any]]], Any]) -> list[Route]:
    """The Puzzles page's routes on the archive of ``store`` (:class:`grn.serve.store.Store`), each wrapped by
    the app's ``api`` (its errors as JSON)."""

    async def page(request: Request) -> Response:
        return Response(_file("puzzles.html"), media_type=FILES["puzzles.html"])

    async def script(request: Request) -> Response:
        return Response(_file("puzzles.js"), media_type=FILES["puzzles.js"])

    async def board(request: Request) -> Response:  # the board the static trainer inlines (grn/render/trainer.py)
        return Response(board_script(), media_type=FILES["puzzles.js"])

    def guarded(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Any]]:
        async def inner(request: Request) -> Any:
            try:
                return await fn(request)
            except PuzzleError as exc:
                from starlette.responses import JSONResponse

                return JSONResponse({"error": exc.message}, status_code=exc.status)
        return inner

    async def next_one(request: Request) -> dict[str, Any]:
        solver = _solver(request.query_params.get("solver"))

        def work() -> dict[str, Any]:
            with store.connection() as con:
                return next_for(con, solver)

        return await run_in_threadpool(work)

    async def attempt(request: Request) -> dict[str, Any]:
        import json

        from grn.archive.puzzles import record_attempt

        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            raise PuzzleError("the body is not JSON") from None
        if not isinstance(body, dict):
            raise PuzzleError("the body is a JSON object")
        solver = _solver(body.get("solver"))
        answer = str(body.get("answer") or "")[:200]
        seconds = body.get("seconds")
        seconds = float(seconds) if isinstance(seconds, (int, float)) and 0 <= seconds < 86400 else None
        puzzle_id = request.path_params["puzzle"]

        def work() -> dict[str, Any]:
            with store.connection() as con:
                try:
                    done = record_attempt(con, solver, puzzle_id, answer, seconds)
                except KeyError:
                    raise PuzzleError("no such puzzle", 404) from None
            p = done.puzzle
            return {"solved": done.solved, "answer": p["answer"], "solution": p["solution"],
                    "words": p["solution_words"], "gain": p["gain"], "gain_se": p["gain_se"], "by": p["by"],
                    "themes": p["themes"], "played": p["played"], "missed": p["missed"],
                    "solver": {"before": _rating(done.solver_before), "after": _rating(done.solver_after)},
                    "puzzle": {"before": _rating(done.puzzle_before), "after": _rating(done.puzzle_after)}}

        return await run_in_threadpool(work)

    return [Route("/puzzles", page), Route("/puzzles/puzzles.js", script),
            Route("/puzzles/puzzleboard.js", board),
            Route("/api/puzzles/next", api(guarded(next_one))),
            Route("/api/puzzles/{puzzle}/attempt", api(guarded(attempt)), methods=["POST"])]


__all__ = ["routes", "next_for", "PuzzleError"]
