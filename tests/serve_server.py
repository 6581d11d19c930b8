"""A real grn serve for tests: uvicorn on a free loopback port, in a thread, stopped after."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path
from typing import Iterable, Iterator

TOKEN = "test-token-0123456789abcdef"


@contextlib.contextmanager
def running(archive: Path, *, open_read: bool = True, max_body: int = 4 << 20,
            hosts: Iterable[str] | None = (), engines: dict[str, str] | None = None) -> Iterator[str]:
    """The base URL of a server on ``archive`` while the block runs."""
    from grn.serve.app import make_app
    from grn.serve.cli import bind, server

    sock = bind("127.0.0.1", 0)
    srv = server(make_app(archive, token=TOKEN, open_read=open_read, max_body=max_body, hosts=hosts,
                                engines=engines), sock)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
        sock.close()
