"""What makes ``grn serve`` safe to run at a club (docs/serve.md, "What the token protects").

One ASGI middleware, in front of every route:

* **size**: a request body over the limit is refused (413) from its
  ``Content-Length`` or, sent in chunks, as soon as it passes the limit;
* **cross-site**: a write (any method but GET/HEAD) whose ``Origin`` is not
  the server's own, or that the browser marks ``Sec-Fetch-Site: cross-site``,
  is refused (403), and a write must be ``application/json`` (415): a form on
  another site cannot send it without a preflight this server never grants;
* **host**: a server that binds a loopback address answers only requests whose
  ``Host`` is a loopback name or address or a name the user allowed (421
  otherwise): a web page whose own name resolves to 127.0.0.1 (DNS rebinding)
  reaches nothing (R340);
* **token**: a write needs the token the start-up line prints, and reading
  needs it too unless reading was opened (``--open-read``; R341).  It travels
  in the ``X-GRN-Token`` header, ``Authorization: Bearer``, or the HttpOnly,
  ``SameSite=Strict`` cookie the server sets when the start-up address (the
  page with ``?token=``) is opened, and sends the browser on to the address
  without it (R342): the token is never needed in an address after that;
* **headers**: every answer carries a Content-Security-Policy that lets only
  the page's own script files run (record text can never run as script),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` and
  ``X-Frame-Options: DENY``.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, MutableMapping
from urllib.parse import parse_qsl, quote, unquote, urlencode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The page's policy: scripts and styles from the server's own files only (the SVG's style attributes
#: are styles, never script), pictures from the server or data: URLs, requests to the server only.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SAFE_METHODS = frozenset({"GET", "HEAD"})
TOKEN_HEADER = b"x-grn-token"
#: The cookie holding the token (its name ends in the server's port: cookies do not tell ports apart).
COOKIE = "grn-token"
#: How long a browser keeps the token's cookie (a new start makes a new token unless ``--token``).
COOKIE_SECONDS = 30 * 24 * 3600
#: A body over the limit is read and dropped up to this size before the 413 (so that the client, still
#: sending, reads the answer instead of a reset); a larger one is answered at once.
DRAIN_LIMIT = 64 * 1024 * 1024


@dataclass
class Policy:
    """The server's rules: its token, whether reading needs it, the body size limit in bytes, and the names
    the server answers to besides the loopback ones (``None``: every ``Host``, for a server of the room)."""

    token: str
    open_read: bool = False
    max_body: int = 4 * 1024 * 1024
    hosts: frozenset[str] | None = field(default_factory=frozenset)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def host_name(value: str) -> str | None:
    """The name (or address) of a ``Host`` header without its port, lower case; ``None`` when malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        name, rest = (value[1:end], value[end + 1:]) if end > 0 else ("", "")
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if rest and not (rest[0] == ":" and rest[1:].isascii() and rest[1:].isdigit()):
        return None
    name = name.rstrip(".")
    return name or None


def is_loopback(name: str) -> bool:
    """Whether ``name`` is ``localhost`` or a loopback address (127.0.0.0/8, ``::1``)."""
    if name.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


def host_allowed(scope: Scope, allowed: frozenset[str] | None) -> bool:
    """Whether the request's ``Host`` is one the server answers to (see :class:`Policy`)."""
    if allowed is None:
        return True
    value = _header(scope, b"host")
    name = host_name(value) if value is not None else None
    return name is not None and (is_loopback(name) or name in allowed)


async def refuse(send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer with a JSON error ``{"error": message}``."""
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *security_headers(), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def security_headers(csp: str = CSP) -> list[tuple[bytes, bytes]]:
    """The headers every answer carries."""
    return [(b"content-security-policy", csp.encode()), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"),
            (b"cache-control", b"no-store")]


def same_origin(scope: Scope) -> bool:
    """The request comes from the server's own pages (or from no browser page at all)."""
    if _header(scope, b"sec-fetch-site") == "cross-site":
        return False
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    host = _header(scope, b"host")
    scheme = scope.get("scheme", "http")
    return host is not None and origin in (f"{scheme}://{host}",)


def cookie_name(scope: Scope) -> str:
    """The token cookie's name for this server: ``grn-token-PORT``."""
    server = scope.get("server") or ("", 0)
    return f"{COOKIE}-{server[1]}"


def tokens_of(scope: Scope) -> list[str]:
    """The tokens a request carries: ``X-GRN-Token``, ``Authorization: Bearer`` and the server's cookie."""
    found = []
    header = _header(scope, TOKEN_HEADER)
    if header is not None:
        found.append(header)
    scheme, _, credentials = (_header(scope, b"authorization") or "").strip().partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        found.append(credentials.strip())
    name = cookie_name(scope)
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            for part in bytes(value).decode("latin-1").split(";"):
                k, eq, v = part.strip().partition("=")
                if eq and k == name:
                    found.append(unquote(v))
    return found


def _query(scope: Scope) -> list[tuple[str, str]]:
    return parse_qsl(bytes(scope.get("query_string", b"")).decode("latin-1"), keep_blank_values=True)


class Guard:
    """The middleware: size limit, cross-site refusal, token, security headers (see the module)."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    def _token_ok(self, given: str) -> bool:
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.policy.token.encode())

    def _has_token(self, scope: Scope) -> bool:
        return any(self._token_ok(t) for t in tokens_of(scope))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        path = scope.get("path", "")
        write = method not in SAFE_METHODS
        if not host_allowed(scope, self.policy.hosts):
            await _drain(scope, receive, self.policy.max_body)
            await refuse(send, 421, "this server answers only to its own names (localhost, a loopback address or "
                                    "one given with --allow-host), not to the Host this request names")
            return
        length = _header(scope, b"content-length")
        limit = self.policy.max_body
        if length is not None and (not length.isascii() or not length.isdigit() or int(length) > limit):
            await _drain(scope, receive, DRAIN_LIMIT)
            await refuse(send, 413, f"the request is larger than the limit of {limit} bytes")
            return
        if write:
            if not same_origin(scope):
                await refuse(send, 403, "a write from another site is refused")
                return
            if not self._has_token(scope):
                await refuse(send, 403, "a write needs the token printed when grn serve started")
                return
            ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await refuse(send, 415, "send JSON (Content-Type: application/json)")
                return
        elif path == "/" and any(k == "token" for k, _ in _query(scope)):
            await self._start_up_address(scope, send)
            return
        elif not self.policy.open_read and _needs_token(path) and not self._has_token(scope):
            await refuse(send, 403, "reading this archive needs the token printed when grn serve started "
                                    "(open the address it printed once, or send the token in a header)")
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(f"the request is larger than the limit of {limit} bytes")
            return message

        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *[(k, v) for k, v in security_headers() if k not in have]]
            await send(message)

        try:
            await self.app(scope, limited, with_headers)
        except BodyTooLarge:
            if not started:
                await refuse(send, 413, f"the request is larger than the limit of {limit} bytes")


    async def _start_up_address(self, scope: Scope, send: Send) -> None:
        """The address the start-up line prints: the token goes into the cookie, the browser goes on to the
        same address without it (so that no address the page shows holds the token; R342)."""
        query = _query(scope)
        given = [v for k, v in query if k == "token"]
        if not all(self._token_ok(t) for t in given):
            await refuse(send, 403, "the token in this address is not this server's (a new start makes a new "
                                    "one unless --token is given)")
            return
        rest = urlencode([(k, v) for k, v in query if k != "token"])
        cookie = (f"{cookie_name(scope)}={quote(self.policy.token, safe='')}; Path=/; HttpOnly; "
                  f"SameSite=Strict; Max-Age={COOKIE_SECONDS}")
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", ("/?" + rest if rest else "/").encode("latin-1")),
                                (b"set-cookie", cookie.encode("latin-1")), (b"content-length", b"0"),
                                *security_headers()]})
        await send({"type": "http.response.body", "body": b""})


async def _drain(scope: Scope, receive: Receive, limit: int) -> None:
    """Read and drop a request's body (up to ``limit`` bytes) before it is refused, so that the client,
    still sending it, reads the answer rather than a reset connection."""
    length = _header(scope, b"content-length")
    if length is not None and length.isascii() and length.isdigit() and int(length) > limit:
        return
    seen = 0
    while seen <= limit:
        message = await receive()
        if message["type"] != "http.request":
            return
        seen += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


class BodyTooLarge(Exception):
    """A chunked body passed the size limit."""


def _needs_token(path: str) -> bool:
    """Reading needs the token except for the page's shell, its own files and share links (which carry a key)."""
    return not (path in ("/", "/favicon.ico") or path.startswith("/static/") or path.startswith("/share/"))
