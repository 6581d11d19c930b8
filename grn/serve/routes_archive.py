"""Routes of ``grn serve`` on the archive as a whole: search it, start a game, import files, fork, delete,
download a game in a format.

An import is read and validated by a worker process (R349): a long file holds no lock this process needs.
"""

from __future__ import annotations

import atexit
import json
import re
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar, cast

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from grn.rules import registry
from grn.archive.search import Filters
from grn.rules.formats import find_exporter, find_importer
from grn.rules.interop import ConversionProblem
from grn.notation.jsonform import loads, record_to_json, records_from_json
from grn.notation.read import parse
from grn.core.record import Record
from grn.rules.recording import from_position, position
from grn.serve.bots import DEALER, DEALER_TAG, bot_names
from grn.serve.common import ApiError, api, body, context, game_id, text_field
from grn.serve.store import Store

T = TypeVar("T")
_TAG_VALUE = re.compile(r'^[^"\\\r\n\x00-\x1f]*$')
#: The tags the New game form may set (the game's own set-up checks the players and options).
FORM_TAGS = ("Event", "Site", "Date", "Players", "Options")


async def search(request: Request) -> dict[str, Any]:
    """The archived games the query's filters select (``grn archive search``'s filters)."""
    q = request.query_params

    def flag(name: str) -> bool | None:
        v = q.get(name)
        return None if v in (None, "") else v in ("1", "true", "yes")

    filters = Filters(game=q.get("game") or None, players=q.getlist("player"), date_from=q.get("from") or None,
                      date_to=q.get("to") or None, tags=q.getlist("tag"), result=q.get("result") or None,
                      winners=q.getlist("winner"), scores=q.getlist("score"), valid=flag("valid"),
                      complete=flag("complete"), events=q.getlist("event"), actions=q.getlist("action"),
                      beside=q.getlist("beside"))
    rows = await run_in_threadpool(context(request).store.search, filters)
    return {"games": rows}


def new_record(data: dict[str, Any]) -> Record:
    """The record a New game form starts: the game and the tags of :data:`FORM_TAGS` it fills in."""
    game = text_field(data, "game", "")
    if not registry.known(game):
        raise ApiError(f"unknown game {game!r}")
    ruleset = registry.find_ruleset(game)
    tags: list[tuple[str, str]] = [("Game", ruleset.name)]
    for name in FORM_TAGS:
        value = text_field(data, name.lower(), "").strip()
        if not _TAG_VALUE.match(value):
            raise ApiError(f"{name}: a tag value cannot hold a quote, a backslash or a line break")
        if value:
            tags.append((name, value))
    return Record(tuple(tags))


def against_grn(record: Record, engines: dict[str, str]) -> Record:
    """``record`` as a game against grn (R375): dealt by the server, which plays the seats named by a bot."""
    seats = registry.find_ruleset(record.game).seats(record)
    names = bot_names(engines)
    for s in seats:
        if s.name.startswith("engine:") and s.name not in names:
            raise ApiError(f"{s.name}: the server knows no such engine (an engine is given on grn serve's command "
                           f"line, --engine NAME=CMD)")
    if not any(s.name in names for s in seats):
        raise ApiError(f"a game against grn needs a seat named by a bot: {', '.join(names)}")
    return record.replace(tags=(*record.tags, (DEALER_TAG, DEALER)))


async def create(request: Request) -> dict[str, Any]:
    """A new game in the archive, from the New game form (``against``: a game against grn); its id."""
    data = await body(request)
    record = new_record(data)
    ctx = context(request)
    store = ctx.store
    if data.get("against") is True:
        record = await run_in_threadpool(against_grn, record, ctx.engines)

    def make() -> int:
        position(record, "0")  # the players and options are checked by the game's set-up
        return store.create(record)

    return {"id": await run_in_threadpool(make)}


async def import_games(request: Request) -> dict[str, Any]:
    """The games of an uploaded file (or a link a game reads) added to the archive; their ids."""
    data = await body(request)
    ctx = context(request)
    name = text_field(data, "name", "upload.grn", limit=200)
    text = text_field(data, "text", "", limit=ctx.max_body)
    return {"ids": await run_in_threadpool(_in_reader, _import_upload, str(ctx.store.path), name, text)}


async def fork(request: Request) -> dict[str, Any]:
    """A new game that starts from a position of another (its turns up to ``at``)."""
    number = game_id(request)
    data = await body(request)
    at = text_field(data, "at", "end", limit=200)
    store = context(request).store

    def work() -> int:
        record, _ = store.load(number)
        new = from_position(record, at)
        position(new, "end")  # the line replays
        return store.create(new)

    return {"id": await run_in_threadpool(work)}


async def delete(request: Request) -> dict[str, Any]:
    """A game taken out of the archive (the body must confirm its id)."""
    number = game_id(request)
    data = await body(request)
    if data.get("confirm") != number:
        raise ApiError("deleting a game needs {\"confirm\": ID}, the game's id")
    await run_in_threadpool(context(request).store.delete, number)
    return {"deleted": number}


async def download(request: Request) -> Response:
    """A game as a file: GRN, JSON, or a format another program reads."""
    number = game_id(request)
    fmt = request.query_params.get("format", "grn")
    store = context(request).store

    def work() -> Response:
        record, text = store.load(number)
        return _download(record, text, fmt, f"game-{number}")

    return await run_in_threadpool(work)


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

            _READERS.append(ProcessPool(READERS, preload=("grn.serve.routes_archive",)))
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
    """A game's file in ``fmt`` (grn, json, or an exporter's), to be saved as ``stem`` and its suffix."""
    if fmt == "grn":
        content, media, suffix = text, "text/plain; charset=utf-8", ".grn"
    elif fmt == "json":
        content, media, suffix = json.dumps(record_to_json(record), ensure_ascii=False, indent=1), "application/json", \
            ".json"
    else:
        exporter = find_exporter(record, fmt)
        if exporter is None:
            raise ApiError(f"no export to {fmt!r} for this game")
        try:
            content = exporter.from_grn(record)
        except ConversionProblem as exc:
            raise ApiError(exc.line(stem)) from None
        media, suffix = "application/octet-stream", exporter.suffix
    return Response(content, media_type=media,
                    headers={"content-disposition": f'attachment; filename="{stem}{suffix}"'})


ROUTES = [
    Route("/api/games", api(search), methods=["GET"]), Route("/api/games", api(create), methods=["POST"]),
    Route("/api/import", api(import_games), methods=["POST"]),
    Route("/api/games/{game_id}/delete", api(delete), methods=["POST"]),
    Route("/api/games/{game_id}/fork", api(fork), methods=["POST"]),
    Route("/api/games/{game_id}/download", api(download)),
]

__all__ = ["ROUTES", "FORM_TAGS", "new_record", "READERS"]
