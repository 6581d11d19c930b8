"""What makes ``grn serve`` safe to run at a club (docs/serve.md, "What the token protects").

One ASGI middleware, in front of every route:

* **size**: a request body over the limit is refused (413) from its
  ``Content-Length`` or, sent in chunks, as soon as it passes the limit;
* **cross-site**: a write (any method but GET/HEAD) whose ``Origin`` is not
  the server's own, or that the browser marks ``Sec-Fetch-Site: cross-site``,
  is refused (403), and a write must be ``application/json`` (415): a form on
  another site cannot send it without a preflight this server never grants;
* **token**: a write needs ``Authorization: Bearer <token>`` (or the ``X-GRN-Token`` header) equal to the token the
  start-up line prints; reading needs it too (as a header or ``?token=``)
  unless the server binds a loopback address or reading was opened;
* **headers**: every answer carries a Content-Security-Policy that lets only
  the page's own script files run (record text can never run as script),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` and
  ``X-Frame-Options: DENY``.
"""

from __future__ import annotations

import hmac
import json
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, MutableMapping
from urllib.parse import parse_qs

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


@dataclass
class Policy:
    """The server's rules: its token, whether reading needs it, and the body size limit in bytes."""

    token: str
    open_read: bool = False
    max_body: int = 4 * 1024 * 1024


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


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


def token_of(scope: Scope, *, query: bool) -> str | None:
    """The token a request carries: ``Authorization: Bearer <token>`` or the ``X-GRN-Token`` header, or
    (reading only) the ``token`` query parameter."""
    bearer = _header(scope, b"authorization")
    found = bearer[7:] if bearer is not None and bearer[:7].lower() == "bearer " else _header(scope, TOKEN_HEADER)
    if found is None and query:
        values = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1")).get("token")
        found = values[0] if values else None
    return found


class Guard:
    """The middleware: size limit, cross-site refusal, token, security headers (see the module)."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    def _token_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.policy.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        path = scope.get("path", "")
        write = method not in SAFE_METHODS
        length = _header(scope, b"content-length")
        limit = self.policy.max_body
        if length is not None and (not length.isdigit() or int(length) > limit):
            await refuse(send, 413, f"the request is larger than the limit of {limit} bytes")
            return
        if write:
            if not same_origin(scope):
                await refuse(send, 403, "a write from another site is refused")
                return
            if not self._token_ok(token_of(scope, query=False)):
                await refuse(send, 403, "a write needs the token printed when grn serve started")
                return
            ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await refuse(send, 415, "send JSON (Content-Type: application/json)")
                return
        elif not self.policy.open_read and _needs_token(path) and not self._token_ok(token_of(scope, query=True)):
            await refuse(send, 403, "reading this archive needs the token printed when grn serve started")
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


class BodyTooLarge(Exception):
    """A chunked body passed the size limit."""


def _needs_token(path: str) -> bool:
    """Reading needs the token except for the page's shell, its own files and share links (which carry a key)."""
    return not (path in ("/", "/favicon.ico") or path.startswith("/static/") or path.startswith("/share/"))
