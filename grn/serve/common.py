"""What every route of ``grn serve`` shares: the server's context, the error answer, a request's body read safely.

The checks that guard every request (the token, the origin, the size, the host) are one middleware,
:class:`grn.serve.security.Guard`, in front of the whole application; what is left here is the one
decorator :func:`api` that turns the errors a route raises into ``{"error": ...}`` answers, and the
readers of a request's fields (each refuses what it cannot take with one clear line).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from grn.archive.search import FilterError
from grn.rules.choices import ChoiceError
from grn.core.errors import IllegalAction
from grn.rules.position import PositionError
from grn.rules.recording import EditError
from grn.serve.analysis import BudgetError, Busy, Tasks
from grn.serve.bots import Playing
from grn.serve.security import BodyTooLarge
from grn.serve.store import Store, StoreError

#: A JSON body of a turn, a note or a new game is small; imports may be up to the policy's limit.
MAX_FIELD = 10_000
#: How deep a request's JSON may nest (the API's bodies nest two deep; a game file travels as text).
MAX_DEPTH = 32


class ApiError(Exception):
    """A request the API refuses, with its status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Context:
    """What the routes of one application share: its archive, its body limit, and the searches and
    background analyses it runs (bounded: more are refused, not queued)."""

    store: Store
    max_body: int
    #: position searches at once (the analysis panel's and a hint's)
    searching: threading.BoundedSemaphore = field(default_factory=lambda: threading.BoundedSemaphore(2))
    tasks: Tasks = field(default_factory=lambda: Tasks(limit=1))
    #: the engines a bot seat may name (``engine:NAME``), given on the server's command line only
    engines: dict[str, str] = field(default_factory=dict)
    #: the games whose bot turns are being played
    playing: Playing = field(default_factory=Playing)


def context(request: Request) -> Context:
    """The application's :class:`Context` (kept in Starlette's ``app.state``)."""
    return request.app.state.grn  # type: ignore[no-any-return]


def api(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    """A route whose errors become JSON answers with their status (a refusal, never a traceback); a result
    that is not a :class:`Response` is sent as JSON."""

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

    endpoint.__name__ = getattr(fn, "__name__", "endpoint")
    endpoint.__doc__ = fn.__doc__
    return endpoint


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object (413 past the size limit; its depth and Unicode checked)."""
    try:
        raw = await request.body()
    except BodyTooLarge as exc:
        raise ApiError(str(exc), 413) from None
    # a body of megabytes takes a while to check and parse: in a worker thread, the others are answered meanwhile
    return await run_in_threadpool(parse_body, raw or b"{}")


def parse_body(raw: bytes) -> dict[str, Any]:
    """A request's JSON object, its depth checked before it is parsed and its text checked for Unicode."""
    data = read_json(raw, "the request body", limit=MAX_DEPTH)
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object")
    if _ESCAPED_SURROGATE.search(raw):
        for key, value in data.items():
            if not is_unicode(key):
                raise ApiError("a field name of the request is not valid Unicode text")
            if not is_unicode(value):
                raise ApiError(f"{key} is not valid Unicode text (it holds a lone surrogate)")
    return data


#: JSON strings, brackets and the depth step of each byte: to count nesting without parsing.
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


def read_json(raw: bytes | str, what: str, *, limit: int) -> Any:
    """``raw`` parsed, after its depth is checked (a body nested 100,000 deep is refused unread)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") > limit and json_depth(data) > limit:
        raise ApiError(f"{what} nests more than {limit} deep")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise ApiError(f"{what} is not JSON") from None


def is_unicode(value: Any) -> bool:
    """Whether every text in ``value`` is valid Unicode (JSON's ``\\ud800`` makes a lone surrogate)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, list):
        return all(is_unicode(v) for v in value)
    if isinstance(value, dict):
        return all(is_unicode(k) and is_unicode(v) for k, v in value.items())
    return True


def text_field(data: dict[str, Any], key: str, default: str | None = None, *, limit: int = MAX_FIELD) -> str:
    """The text field ``key`` of a request (``default`` when absent), at most ``limit`` characters."""
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ApiError(f"{key} must be text")
    if len(value) > limit:
        raise ApiError(f"{key} is longer than {limit} characters")
    if not is_unicode(value):
        raise ApiError(f"{key} is not valid Unicode text (it holds a lone surrogate)")
    return value


def words_field(value: Any) -> list[str]:
    """The words picked so far in a turn (a JSON list, or its text in a query), at most 64 short ones."""
    if value is None:
        return []
    if isinstance(value, str):
        if len(value) > 64 * 100:
            raise ApiError("picked must be a list of at most 64 short words")
        value = read_json(value, "picked", limit=1)
    if not isinstance(value, list) or not all(isinstance(w, str) and len(w) < 100 for w in value) or len(value) > 64:
        raise ApiError("picked must be a list of at most 64 short words")
    if not is_unicode(value):
        raise ApiError("picked is not valid Unicode text (it holds a lone surrogate)")
    return value


def number(raw: str, what: str) -> int:
    """A path's id: ASCII digits only (``int`` would take ``١`` for 1 and refuse ``²`` with a traceback)."""
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        raise ApiError(f"{what} is a whole number written in the digits 0-9", 404)
    return int(raw)


def game_id(request: Request) -> int:
    """The game id of the request's path."""
    return number(request.path_params["game_id"], "a game id")


__all__ = ["ApiError", "Context", "api", "body", "context", "game_id", "json_depth", "number", "parse_body",
           "read_json", "text_field", "words_field", "MAX_DEPTH", "MAX_FIELD"]
