"""The ``grn serve`` command: the recorder and the archive on uvicorn, its address printed with the token."""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
import sys
from pathlib import Path
from typing import Any, Optional

import typer


def default_archive() -> Path:
    """``$XDG_DATA_HOME/grn/archive.db`` (``~/.local/share/grn/archive.db``): the archive when none is named."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "grn" / "archive.db"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (only this machine can connect)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def answered_hosts(host: str, allowed: list[str]) -> list[str] | None:
    """The names the server answers to besides the loopback ones (R340): the address it binds and the
    ``--allow-host`` names; ``None`` (any name) for a server of the room that names none."""
    if not is_loopback(host) and not allowed:
        return None
    return [*allowed, *([] if host in ("0.0.0.0", "::") else [host])]


def engine_commands(given: list[str]) -> dict[str, str] | str:
    """The ``--engine NAME=CMD`` options as NAME -> CMD, or what is wrong with one (a line to print)."""
    out: dict[str, str] = {}
    for item in given:
        name, eq, command = item.partition("=")
        name = name.strip()
        if not eq or not command.strip():
            return f"--engine {item!r}: give NAME=CMD, as in --engine ours='node our-engine.js'"
        if not name or not all(c.isalnum() or c in "-_." for c in name):
            return f"--engine {item!r}: the name is letters, digits, '-', '_' and '.'"
        if name in out:
            return f"--engine {name}: given twice"
        out[name] = command.strip()
    return out


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one), for uvicorn."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def server(app: Any, sock: socket.socket) -> Any:
    """A uvicorn server for ``app`` on ``sock`` (quiet: the start-up line is grn's own)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_keep_alive=30)
    return uvicorn.Server(config)


def serve(
    archive: Optional[Path] = typer.Argument(None, help="The archive (grn archive's SQLite file), made when missing; "
                                                        "default $XDG_DATA_HOME/grn/archive.db."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on; 0.0.0.0 serves the room."),
    port: int = typer.Option(8000, "--port", help="Port (0: any free one)."),
    token: Optional[str] = typer.Option(None, "--token", help="The write token (default: a new random one)."),
    open_read: bool = typer.Option(False, "--open-read", help="Anyone who reaches the server may read the archive "
                                                             "without the token."),
    allow_host: list[str] = typer.Option([], "--allow-host", metavar="NAME",
                                         help="A name the server answers to besides localhost and the loopback "
                                              "addresses (repeat it; a loopback server refuses other names)."),
    max_upload: int = typer.Option(4, "--max-upload", help="Largest request body, in megabytes."),
    engine: list[str] = typer.Option([], "--engine", metavar="NAME=CMD",
                                     help="An engine that speaks grn's engine protocol (docs/protocol.md), which a "
                                          "bot seat may name as engine:NAME (repeat it; a web request never "
                                          "names a command)."),
) -> None:
    """Record games at the table by tapping, and keep the archive in the browser (docs/serve.md)."""
    try:
        from grn.serve.app import make_app
    except ImportError as exc:
        print(f"grn serve: needs the serve extra: pip install 'grn[serve]' ({exc.name} is missing)", file=sys.stderr)
        raise typer.Exit(2)
    from grn.archive.db import ArchiveError

    path = archive if archive is not None else default_archive()
    if archive is None:
        path.parent.mkdir(parents=True, exist_ok=True)
    if max_upload < 1:
        print("grn serve: --max-upload must be at least 1 (megabyte)", file=sys.stderr)
        raise typer.Exit(2)
    engines = engine_commands(engine)
    if isinstance(engines, str):
        print(f"grn serve: {engines}", file=sys.stderr)
        raise typer.Exit(2)
    key = token or secrets.token_urlsafe(24)
    if len(key) < 16:
        print("grn serve: --token must be at least 16 characters", file=sys.stderr)
        raise typer.Exit(2)
    try:
        app = make_app(path, token=key, open_read=open_read, max_body=max_upload << 20,
                       hosts=answered_hosts(host, allow_host), engines=engines)
    except ArchiveError as exc:
        print(f"grn serve: {path}: {exc}", file=sys.stderr)
        raise typer.Exit(1)
    try:
        sock = bind(host, port)
    except OSError as exc:
        print(f"grn serve: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        raise typer.Exit(2)
    shown = host if host not in ("0.0.0.0", "::") else socket.gethostname()
    shown = f"[{shown}]" if ":" in shown else shown
    print(f"grn serve: {path} at http://{shown}:{sock.getsockname()[1]}/?token={key}", flush=True)
    if not is_loopback(host):
        print("grn serve: serving the network: give the address with its token to the players only; "
              + ("anyone may read" if open_read else "reading needs the token too"), flush=True)
    elif open_read:
        print("grn serve: --open-read: any program on this machine may read the archive", flush=True)
    server(app, sock).run(sockets=[sock])
