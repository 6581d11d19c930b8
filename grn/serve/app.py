"""The Starlette application of ``grn serve``: the recorder page, its JSON API, the archive, the viewer.

Every answer is JSON (errors too: ``{"error": "..."}`` with a status, never a
traceback page) except the page's own files and the viewer pages.  No route
takes a file path: the only file read or written is the archive, and the
page's files are looked up by name in a fixed table.  Work that takes time
(replaying, validating, drawing, SQLite) runs in Starlette's thread pool.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import hmac
import hashlib
import json
import re
import threading
import time
from itertools import accumulate
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable, TypeVar, cast

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from grn.rules import registry
from grn.archive.search import FilterError, Filters
from grn.serve.puzzles import routes as puzzle_routes
from grn.rules.choices import ChoiceError
from grn.core.errors import IllegalAction
from grn.rules.formats import find_exporter, find_importer
from grn.rules.interop import ConversionProblem
from grn.notation.jsonform import loads, record_to_json, records_from_json
from grn.notation.read import parse
from grn.rules.position import Position, PositionError
from grn.core.record import Record, Turn
from grn.rules.recording import EditError, annotate, from_position, line_at, normalise, play, position, undo
from grn.render.html import render_html
from grn.serve.analysis import BudgetError, Busy, Task, Tasks, analysed_record, budget, evaluate_position
from grn.serve.security import CSP, BodyTooLarge, Guard, Policy, security_headers
from grn.serve.store import Store, StoreError, digest
from grn.notation.writer import write_record
from grn.serve.views import position_for, record_for, remember_position, state_view

#: The page's own files: name -> content type (nothing else is served from the package).
ASSETS = {"recorder.js": "text/javascript; charset=utf-8", "recorder.css": "text/css; charset=utf-8",
          "index.html": "text/html; charset=utf-8"}
#: A JSON body of a turn, a note or a new game is small; imports may be up to the policy's limit.
MAX_FIELD = 10_000
#: How long a phone's question "has the game changed?" waits for a change before it is answered "no" (R352).
WATCH_SECONDS = 15.0
#: How deep a request's JSON may nest (the API's bodies nest two deep; a game file travels as text).
MAX_DEPTH = 32
_TAG_VALUE = re.compile(r'^[^"\\\r\n\x00-\x1f]*$')


T = TypeVar("T")

#: What an edit gives: the new record, the address after it, and for a turn played the position before
#: with the engine after the turn and the turn's events (so that the new position needs no replay).
Edit = tuple[Record, str, "tuple[Position, list[Any]] | None"]


class ApiError(Exception):
    """A request the API refuses, with its status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _asset(name: str) -> bytes:
    return resources.files("grn.serve").joinpath("static", name).read_bytes()


async def _body(request: Request) -> dict[str, Any]:
    try:
        raw = await request.body()
    except BodyTooLarge as exc:
        raise ApiError(str(exc), 413) from None
    # a body of megabytes takes a while to check and parse: in a worker thread, the others are answered meanwhile
    return await run_in_threadpool(_parse_body, raw or b"{}")


def _parse_body(raw: bytes) -> dict[str, Any]:
    """A request's JSON object, its depth checked before it is parsed and its text checked for Unicode."""
    data = _json(raw, "the request body", limit=MAX_DEPTH)
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object")
    if _ESCAPED_SURROGATE.search(raw):
        for key, value in data.items():
            if not _unicode(key):
                raise ApiError("a field name of the request is not valid Unicode text")
            if not _unicode(value):
                raise ApiError(f"{key} is not valid Unicode text (it holds a lone surrogate)")
    return data


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")
_DEPTH_STEP = [0] * 256
for _c in b"[{":
    _DEPTH_STEP[_c] = 1
for _c in b"]}":
    _DEPTH_STEP[_c] = -1
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


def json_depth(raw: bytes) -> int:
    """How deep the JSON text ``raw`` nests, counted before it is parsed (the brackets outside strings)."""
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKET)
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def _json(raw: bytes | str, what: str, *, limit: int) -> Any:
    """``raw`` parsed, after its depth is checked (a body nested 100,000 deep is refused unread)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") > limit and json_depth(data) > limit:
        raise ApiError(f"{what} nests more than {limit} deep")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise ApiError(f"{what} is not JSON") from None


def _unicode(value: Any) -> bool:
    """Whether every text in ``value`` is valid Unicode (JSON's ``\\ud800`` makes a lone surrogate)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, list):
        return all(_unicode(v) for v in value)
    if isinstance(value, dict):
        return all(_unicode(k) and _unicode(v) for k, v in value.items())
    return True


def _text(data: dict[str, Any], key: str, default: str | None = None, *, limit: int = MAX_FIELD) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ApiError(f"{key} must be text")
    if len(value) > limit:
        raise ApiError(f"{key} is longer than {limit} characters")
    if not _unicode(value):
        raise ApiError(f"{key} is not valid Unicode text (it holds a lone surrogate)")
    return value


def _words(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        if len(value) > 64 * 100:
            raise ApiError("picked must be a list of at most 64 short words")
        value = _json(value, "picked", limit=1)
    if not isinstance(value, list) or not all(isinstance(w, str) and len(w) < 100 for w in value) or len(value) > 64:
        raise ApiError("picked must be a list of at most 64 short words")
    if not _unicode(value):
        raise ApiError("picked is not valid Unicode text (it holds a lone surrogate)")
    return value


def _number(raw: str, what: str) -> int:
    """A path's id: ASCII digits only (``int`` would take ``١`` for 1 and refuse ``²`` with a traceback)."""
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        raise ApiError(f"{what} is a whole number written in the digits 0-9", 404)
    return int(raw)


def _game_id(request: Request) -> int:
    return _number(request.path_params["game_id"], "a game id")


def make_app(archive: str | Path, *, token: str, open_read: bool = False, max_body: int = 4 * 1024 * 1024,
             hosts: Iterable[str] | None = ()) -> Any:
    """The ASGI application on ``archive`` (made when missing), guarded by :class:`Guard`: it answers the
    loopback names and ``hosts`` (``None``: any ``Host``, for a server of the room)."""
    store = Store(archive)

    def api(fn: Callable[..., Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                result = await fn(request)
            except (ApiError, StoreError) as exc:
                return JSONResponse({"error": exc.message}, status_code=exc.status)
            except BudgetError as exc:
                return JSONResponse({"error": str(exc)}, status_code=429 if isinstance(exc, Busy) else 400)
            except (ChoiceError, EditError, FilterError) as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)
            except PositionError as exc:
                return JSONResponse({"error": str(exc)}, status_code=400 if exc.usage else 422)
            except IllegalAction as exc:
                return JSONResponse({"error": exc.message, "rule": exc.rule, "section": exc.section},
                                    status_code=400)
            if isinstance(result, Response):
                return result
            return JSONResponse(result)

        return endpoint

    # -- the page ------------------------------------------------------------------------------
    async def page(request: Request) -> Response:
        return Response(_asset("index.html"), media_type=ASSETS["index.html"])

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS or name == "index.html":
            return JSONResponse({"error": "no such file"}, status_code=404)
        return Response(_asset(name), media_type=ASSETS[name])

    async def meta(request: Request) -> dict[str, Any]:
        out = []
        for name in registry.names():
            r = registry.find_ruleset(name)
            out.append({"name": r.name, "title": r.title or r.name, "colours": list(r.colours),
                        "min": r.min_players, "max": r.max_players, "options": r.options_help,
                        "tiles": r.uses_tileset})
        return {"games": out, "today": date.today().strftime("%Y.%m.%d")}

    # -- the archive ---------------------------------------------------------------------------
    async def search(request: Request) -> dict[str, Any]:
        q = request.query_params

        def flag(name: str) -> bool | None:
            v = q.get(name)
            return None if v in (None, "") else v in ("1", "true", "yes")

        filters = Filters(game=q.get("game") or None, players=q.getlist("player"), date_from=q.get("from") or None,
                          date_to=q.get("to") or None, tags=q.getlist("tag"), result=q.get("result") or None,
                          winners=q.getlist("winner"), scores=q.getlist("score"), valid=flag("valid"),
                          complete=flag("complete"), events=q.getlist("event"), actions=q.getlist("action"),
                          beside=q.getlist("beside"))
        rows = await run_in_threadpool(store.search, filters)
        return {"games": rows}

    async def create(request: Request) -> dict[str, Any]:
        data = await _body(request)
        game = _text(data, "game", "")
        if not registry.known(game):
            raise ApiError(f"unknown game {game!r}")
        ruleset = registry.find_ruleset(game)
        tags: list[tuple[str, str]] = [("Game", ruleset.name)]
        for name in ("Event", "Site", "Date", "Players", "Options"):
            value = _text(data, name.lower(), "").strip()
            if not _TAG_VALUE.match(value):
                raise ApiError(f"{name}: a tag value cannot hold a quote, a backslash or a line break")
            if value:
                tags.append((name, value))
        record = Record(tuple(tags))

        def make() -> int:
            position(record, "0")  # the players and options are checked by the game's set-up
            return store.create(record)

        return {"id": await run_in_threadpool(make)}

    async def import_games(request: Request) -> dict[str, Any]:
        data = await _body(request)
        name = _text(data, "name", "upload.grn", limit=200)
        text = _text(data, "text", "", limit=max_body)

        # read, validated and written by a worker process (R349): a long file holds no lock this process needs
        return {"ids": await run_in_threadpool(_in_reader, _import_upload, str(store.path), name, text)}

    async def fork(request: Request) -> dict[str, Any]:
        game_id = _game_id(request)
        data = await _body(request)
        at = _text(data, "at", "end", limit=200)

        def work() -> int:
            record, _ = store.load(game_id)
            new = from_position(record, at)
            position(new, "end")  # the line replays
            return store.create(new)

        return {"id": await run_in_threadpool(work)}

    async def delete(request: Request) -> dict[str, Any]:
        game_id = _game_id(request)
        data = await _body(request)
        if data.get("confirm") != game_id:
            raise ApiError("deleting a game needs {\"confirm\": ID}, the game's id")
        await run_in_threadpool(store.delete, game_id)
        return {"deleted": game_id}

    # -- recording -----------------------------------------------------------------------------
    def view(game_id: int, record: Record, text: str, address: str, picked: list[str],
             preview: str | None) -> dict[str, Any]:
        return state_view(game_id, record, text, address, picked, preview, digest(text))

    async def state(request: Request) -> dict[str, Any]:
        game_id = _game_id(request)
        q = request.query_params
        picked = _words(q.get("picked"))
        at = q.get("at") or "end"

        def work() -> dict[str, Any]:
            record, text = store.load(game_id)
            return view(game_id, record, text, at, picked, q.get("preview"))

        return await run_in_threadpool(work)

    async def changes(request: Request) -> dict[str, Any]:
        """Long polling (R352): answered as soon as the game's text is no longer ``base`` (another phone
        changed it), or unchanged after :data:`WATCH_SECONDS`; the phone asks again at once."""
        game_id = _game_id(request)
        base = request.query_params.get("base", "")[:64]
        deadline = time.monotonic() + WATCH_SECONDS
        while True:
            _, text = await run_in_threadpool(store.load, game_id)
            now = digest(text)
            if now != base or time.monotonic() > deadline or await request.is_disconnected():
                return {"base": now, "changed": now != base}
            await asyncio.sleep(0.3)

    async def edit(request: Request, change: Callable[[Record, str, str, dict[str, Any]], Edit]) -> dict[str, Any]:
        game_id = _game_id(request)
        data = await _body(request)
        at = _text(data, "at", "end", limit=200)
        base = _text(data, "base", "", limit=64)

        def work() -> dict[str, Any]:
            record, text = store.load(game_id)
            if digest(text) != base:
                raise StoreError("the game was changed meanwhile (another phone?): reload it", 409)
            new, address, played = change(record, text, normalise(record, at), data)
            new_text = store.save(game_id, new, base)
            stored = record_for(new_text, "grn")
            if played is not None:
                # the position the turn leads to is worked out already: no replay to draw it
                pos, events = played
                _, line = line_at(stored, address)
                number = int(address.rsplit(")", 1)[-1])
                last = next(t for t in line if t.number == number)
                remember_position(new_text, address, Position(stored, pos.state, pos.seats, last,
                                                              pos.turns_played + 1, list(last.markup), events,
                                                              address, line, pos.ruleset))
            return view(game_id, stored, new_text, address, [], None)

        return await run_in_threadpool(work)

    def _play(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
        pos = position_for(record, text, at)
        if pos.state.is_over:
            raise ApiError("the game is over")
        assert pos.ruleset is not None
        player = pos.state.current_player
        if "text" in data:
            actions = _typed_turn(record, pos.state, player, _text(data, "text", limit=2000))
        else:
            step = pos.ruleset.turn_step(pos.state, _words(data.get("picked")))
            if step is None or step.actions is None:
                raise ApiError("the words picked do not make a whole turn")
            actions = list(step.actions)
        after = pos.state.copy()
        events = after.play_turn(player, actions)  # the engine has the last word
        new, address = play(record, at, player, actions)
        if after.is_over and "(" not in address:
            # the main line's last turn: its final scores go into the Result tag, as self-play writes it
            final = after.copy()
            final.final_scoring()
            result = ", ".join(f"{p} {v}" for p, v in final.scores.items())
            new = new.replace(tags=(*((k, v) for k, v in new.tags if k != "Result"), ("Result", result)))
        moved = Position(pos.record, after, pos.seats, None, pos.turns_played, [], [], at, pos.line, pos.ruleset)
        return new, address, (moved, list(events))

    async def play_turn(request: Request) -> dict[str, Any]:
        return await edit(request, _play)

    async def take_back(request: Request) -> dict[str, Any]:
        def back(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
            new, address = undo(record, at)
            if "(" in at:
                return new, address, None
            # the main line taken back from its end is no longer over: its Result goes
            return new.replace(tags=tuple((k, v) for k, v in new.tags if k != "Result")), address, None

        return await edit(request, back)

    async def note(request: Request) -> dict[str, Any]:
        def change(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
            glyph = data.get("glyph")
            comment = data.get("comment")
            if glyph is None and comment is None:
                raise ApiError("give a comment or a glyph")
            if comment is not None:
                comment = _text(data, "comment", limit=2000)
            return annotate(record, at, comment=comment, glyph=glyph if isinstance(glyph, str) else None), at, None

        return await edit(request, change)

    async def download(request: Request) -> Response:
        game_id = _game_id(request)
        fmt = request.query_params.get("format", "grn")

        def work() -> Response:
            record, text = store.load(game_id)
            return _download(record, text, fmt, f"game-{game_id}")

        return await run_in_threadpool(work)

    # -- analysis (grn/serve/analysis.py; R107-R109) --------------------------------------------
    searching = threading.BoundedSemaphore(2)  # position searches at once; more are refused, not queued
    tasks = Tasks(limit=1)

    async def evaluate_here(request: Request) -> dict[str, Any]:
        game_id = _game_id(request)
        data = await _body(request)
        level, playouts = budget(data)
        at, picked = _text(data, "at", "end", limit=200), _words(data.get("picked"))

        def work() -> dict[str, Any]:
            record, text = store.load(game_id)
            pos = position_for(record, text, normalise(record, at))
            if pos.state.is_over:
                raise ApiError("the game is over: there is no move to find")
            if not searching.acquire(blocking=False):
                raise Busy("the server is searching other positions: try again in a moment")
            try:
                return evaluate_position(pos, picked, level, playouts)
            finally:
                searching.release()

        return await run_in_threadpool(work)

    async def analyse_game(request: Request) -> dict[str, Any]:
        game_id = _game_id(request)
        level, playouts = budget(await _body(request))
        record, _ = await run_in_threadpool(store.load, game_id)

        def work() -> int:
            annotated, found = analysed_record(record, level, playouts)
            # the review of the game, kept with it: no second game (R430)
            store.keep_review(game_id, record, found, annotated,
                              {"level": level, "playouts": playouts, "seconds": None, "seed": 0, "thresholds": None,
                               "by": "grn serve"})
            return game_id

        task = Task(game_id, level, playouts)
        return task.to_json(tasks.start(task, work))

    async def task_state(request: Request) -> dict[str, Any]:
        number = _number(request.path_params["task"], "a task id")
        task = tasks.get(number)
        if task is None:
            raise ApiError("no such analysis task", 404)
        return task.to_json(number)

    # -- the viewer and share links ------------------------------------------------------------
    async def viewer(request: Request) -> Response:
        """The game in the viewer; with ``?review=1`` its review (R430), the record annotated by its analysis."""
        game_id = _game_id(request)
        record, _ = await run_in_threadpool(store.load, game_id)
        if request.query_params.get("review"):
            text = await run_in_threadpool(store.review, game_id)
            if text is None:
                raise ApiError(f"game {game_id} has no review: analyse it first", 404)
            return await run_in_threadpool(_viewer_page, record_for(text, "grn"), f"review of game {game_id}")
        return await run_in_threadpool(_viewer_page, record, f"game {game_id}")

    async def share_link(request: Request) -> dict[str, Any]:
        game_id = _game_id(request)
        record, _ = await run_in_threadpool(store.load, game_id)
        return {"path": f"/share/{game_id}/{store.share_key(game_id)}"}

    async def shared(request: Request) -> Response:
        game_id = _game_id(request)
        key = request.path_params["key"]
        if not hmac.compare_digest(key.encode(), store.share_key(game_id).encode()):
            raise ApiError("no such shared game", 404)
        record, _ = await run_in_threadpool(store.load, game_id)
        return await run_in_threadpool(_viewer_page, record, f"game {game_id}")

    async def tile_sheet(request: Request) -> Response:
        name = request.path_params["game"]
        if not registry.known(name):
            raise ApiError(f"unknown game {name!r}", 404)
        ruleset = registry.find_ruleset(name)
        if not ruleset.uses_tileset:
            raise ApiError(f"{name} has no tiles", 404)
        svg = await run_in_threadpool(_sheet, ruleset.name)
        return Response(svg, media_type="image/svg+xml")

    async def tile_picture(request: Request) -> Response:
        name, tile = request.path_params["game"], request.path_params["tile"]
        ruleset = registry.find_ruleset(name) if registry.known(name) else None
        picture = getattr(ruleset, "tile_picture", None)
        svg = await run_in_threadpool(picture, tile) if picture is not None and len(tile) < 40 else None
        if svg is None:
            raise ApiError(f"no picture of tile {tile[:40]!r}", 404)
        # a tile's picture never changes while the server runs: the phone keeps it
        return Response(svg, media_type="image/svg+xml", headers={"cache-control": "max-age=3600"})

    routes = [
        Route("/", page), Route("/static/{name}", asset), Route("/api/meta", api(meta)),
        Route("/api/games", api(search), methods=["GET"]), Route("/api/games", api(create), methods=["POST"]),
        Route("/api/import", api(import_games), methods=["POST"]),
        Route("/api/games/{game_id}", api(state), methods=["GET"]),
        Route("/api/games/{game_id}/delete", api(delete), methods=["POST"]),
        Route("/api/games/{game_id}/fork", api(fork), methods=["POST"]),
        Route("/api/games/{game_id}/play", api(play_turn), methods=["POST"]),
        Route("/api/games/{game_id}/undo", api(take_back), methods=["POST"]),
        Route("/api/games/{game_id}/note", api(note), methods=["POST"]),
        Route("/api/games/{game_id}/download", api(download)),
        Route("/api/games/{game_id}/changes", api(changes)),
        Route("/api/games/{game_id}/evaluate", api(evaluate_here), methods=["POST"]),
        Route("/api/games/{game_id}/analyse", api(analyse_game), methods=["POST"]),
        Route("/api/tasks/{task}", api(task_state)),
        Route("/api/games/{game_id}/share", api(share_link)),
        Route("/api/tiles/{game}.svg", api(tile_sheet)),
        Route("/api/tiles/{game}/{tile}.svg", api(tile_picture)),
        Route("/games/{game_id}/view", api(viewer)),
        Route("/share/{game_id}/{key}", api(shared)),
    ]
    routes += puzzle_routes(store, api)  # the Puzzles page (grn/serve/puzzles.py)

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        return JSONResponse({"error": str(detail).lower() if status != 500 else "the server failed: "
                             + type(exc).__name__}, status_code=status)

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: http_error})
    allowed = None if hosts is None else frozenset(h.lower().strip("[]").rstrip(".") for h in hosts)
    return Guard(app, Policy(token=token, open_read=open_read, max_body=max_body, hosts=allowed))


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


def _typed_turn(record: Record, state: Any, player: str, text: str) -> list[Any]:
    """The commands of a turn typed in GRN (``47a@-1,0 +N``), read with the game's grammar."""
    if any(c in text for c in "{}()[]<>;\n"):
        raise ApiError("type only the turn's actions, such as they follow the player in GRN")
    header = write_record(Record(record.tags)).rstrip("\n")
    games_ = parse(f"{header}\n\n1. {player} {text}\n", file="<typed>")
    if len(games_) != 1 or not games_[0].ok or not games_[0].turns:
        problem = games_[0].diagnostics[0].message if games_ and games_[0].diagnostics else "cannot read the turn"
        raise ApiError(problem)
    turn: Turn = games_[0].turns[-1]
    return list(turn.actions)


#: The worker processes that read and validate uploads (made at the first import; shared by the apps of a
#: process), and the lock that makes them once.
_READERS: list[Any] = []
_READERS_LOCK = threading.Lock()
#: Worker processes reading uploads at once (more imports wait for one).
READERS = 2


def _in_reader(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker process: reading and validating a file is long pure work, which in this process
    would hold the interpreter's lock (a compiled grn gives it up rarely) from the threads answering others."""
    from concurrent.futures.process import BrokenProcessPool

    with _READERS_LOCK:
        if not _READERS:
            from grn.check.workers import ProcessPool

            _READERS.append(ProcessPool(READERS, preload=("grn.serve.app",)))
            atexit.register(_close_readers)
        pool = _READERS[0]
    try:
        return cast(T, pool.executor.submit(fn, *args).result())
    except BrokenProcessPool:
        with _READERS_LOCK:
            if _READERS and _READERS[0] is pool:
                _READERS.clear()  # the next import starts new workers
        raise ApiError("the server's reader stopped on this file (too large?)", 422) from None


def _close_readers() -> None:
    """Stop the reading workers (at exit: before the interpreter takes down what their pool needs)."""
    with _READERS_LOCK:
        for pool in _READERS:
            pool.close()
        _READERS.clear()


#: A worker process's stores, by archive path (each keeps its connection open, as the server's threads do).
_WORKER_STORES: dict[str, Store] = {}


def _import_upload(archive: str, name: str, text: str) -> list[int]:
    """In a worker process: the games of an upload read, validated, indexed and added to ``archive`` (SQLite's
    write lock keeps them apart from the server's own writes); their ids."""
    store = _WORKER_STORES.get(archive)
    if store is None:
        store = _WORKER_STORES[archive] = Store(archive)
    return [store.create(r, source=f"import: {Path(name).name}") for r in _read_upload(name, text)]


def _read_upload(name: str, text: str) -> list[Record]:
    """The games of an uploaded file (GRN, JSON, or another program's file a game imports) or a link."""
    lowered = name.lower()
    source = text.strip() if lowered == "link" else name
    importer = find_importer(source)
    try:
        if importer is not None:
            text = importer.to_grn(text.strip() if lowered == "link" else text, tags={})
        elif lowered == "link":
            raise ApiError("no game reads that link")
        elif lowered.endswith(".json"):
            records, problems = records_from_json(loads(text), file=Path(name).name)
            if problems:
                raise ApiError(problems[0].one_line())
            return records
    except ConversionProblem as exc:
        raise ApiError(exc.line(Path(name).name)) from None
    except (ValueError, RecursionError) as exc:
        raise ApiError(f"{Path(name).name}: cannot read it: {exc}") from None
    records = parse(text, file=Path(name).name)
    for r in records:
        if not r.ok:
            raise ApiError(r.diagnostics[0].one_line())
    if not records:
        raise ApiError(f"{Path(name).name}: no game in it")
    return records


def _download(record: Record, text: str, fmt: str, stem: str) -> Response:
    if fmt == "grn":
        body, media, suffix = text, "text/plain; charset=utf-8", ".grn"
    elif fmt == "json":
        body, media, suffix = json.dumps(record_to_json(record), ensure_ascii=False, indent=1), "application/json", \
            ".json"
    else:
        exporter = find_exporter(record, fmt)
        if exporter is None:
            raise ApiError(f"no export to {fmt!r} for this game")
        try:
            body = exporter.from_grn(record)
        except ConversionProblem as exc:
            raise ApiError(exc.line(stem)) from None
        media, suffix = "application/octet-stream", exporter.suffix
    return Response(body, media_type=media,
                    headers={"content-disposition": f'attachment; filename="{stem}{suffix}"'})


__all__ = ["make_app"]
