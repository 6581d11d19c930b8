"""``grn lsp`` against broken framing and out-of-range requests (issue 45; issue 42 item 7): a client over stdio
that writes the bytes itself, so that it can write what pygls's own client never would."""

from __future__ import annotations

import json
import os
import pty
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("pygls", reason="grn lsp needs the lsp extra: pip install 'grn[lsp]'")

ROOT = Path(__file__).resolve().parent.parent
URI = (ROOT / "tests" / "data" / "hostile.grn").as_uri()
TEXT = '[Game "goldrush"]\n[Players "Ann (red), Ben (blue)"]\n\n1. red 47a@-1,0\n2. blue 08@0,1\n'


class Raw:
    """``grn lsp`` on pipes: :meth:`send` writes bytes, :meth:`answer` waits for the answer to a request id."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "grn", "lsp", "--pause", "0.02"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.unanswered: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            line = out.readline()
            if not line:
                return
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
                while out.readline().strip():
                    pass
                self.messages.put(json.loads(out.read(length)))

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def message(self, obj: dict[str, Any]) -> None:
        body = json.dumps(obj).encode()
        self.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, msg_id: int, method: str, params: Any) -> None:
        self.message({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})

    def answer(self, msg_id: int | None, timeout: float = 30) -> dict[str, Any]:
        """The next answer with ``msg_id`` (``None``: a parse error, which has no id)."""
        deadline = time.monotonic() + timeout
        while True:
            for m in self.unanswered:
                if "method" not in m and m.get("id") == msg_id:
                    self.unanswered.remove(m)
                    return m
            left = deadline - time.monotonic()
            assert left > 0, f"no answer to {msg_id}"
            self.unanswered.append(self.messages.get(timeout=left))

    def close(self) -> str:
        """Shut the server down; what it wrote to its log (stderr)."""
        self.request(9999, "shutdown", None)
        self.answer(9999)
        self.message({"jsonrpc": "2.0", "method": "exit"})
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        return self.proc.stderr.read().decode()


@pytest.fixture
def raw() -> Iterator[Raw]:
    server = Raw()
    server.request(1, "initialize", {"capabilities": {}, "processId": None})
    assert "result" in server.answer(1)
    server.message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    server.message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": URI, "languageId": "grn", "version": 1, "text": TEXT}}})
    try:
        yield server
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()


def symbols(server: Raw, msg_id: int) -> list[Any]:
    server.request(msg_id, "textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    result = server.answer(msg_id)["result"]
    assert isinstance(result, list) and result[0]["name"].startswith("1. Ann")
    return result


LENGTHS = [b"-10", b"abc", b"1e3", b" ", b"\xd9\xa1", b"99999999999999", b"67108865"]


def test_a_header_that_does_not_read_is_answered_and_the_next_message_served(raw):
    body = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": URI}, "position": {"line": 3, "character": 8}}}).encode()
    for k, length in enumerate(LENGTHS):
        raw.send(b"Content-Length: " + length + b"\r\n\r\n" + body)
        error = raw.answer(None)["error"]
        assert error["code"] == -32700 and ("Content-Length" in error["message"] or "limit" in error["message"])
        symbols(raw, 100 + k)  # the message after it is served
    log = raw.close()
    assert "Traceback" not in log and len([line for line in log.splitlines() if "skipped" in line]) == len(LENGTHS)


def test_a_message_over_the_limit_is_skipped_without_reading_it_into_memory(raw):
    # 70 MiB announced and sent: the server drops it as it reads, then answers the next message
    raw.send(b"Content-Length: %d\r\n\r\n" % (70 << 20))
    block = b" " * (1 << 20)
    for _ in range(70):
        raw.send(block)
    assert "64 MiB" in raw.answer(None)["error"]["message"]
    symbols(raw, 7)
    assert "Traceback" not in raw.close()


def test_a_body_that_is_not_json_and_a_header_without_length(raw):
    raw.send(b"Content-Length: 5\r\n\r\n{{{{{")
    assert raw.answer(None)["error"]["code"] == -32700
    raw.send(b"Content-Type: x\r\n\r\n{}")
    assert raw.answer(None)["error"]["code"] == -32700
    raw.send(b"[" * 100_000)  # no header at all: skipped to the next one
    symbols(raw, 8)
    assert "Traceback" not in raw.close()


METHODS = ["textDocument/hover", "textDocument/completion", "textDocument/codeAction", "textDocument/definition"]


def test_a_position_out_of_range_is_answered_with_an_error(raw):
    msg_id = 10
    for method in METHODS:
        for line, character in [(-1, -1), (-1, 0), (0, -1), (2**31, 0), (0, 2**31)]:
            position = {"line": line, "character": character}
            params: dict[str, Any] = {"textDocument": {"uri": URI}, "position": position}
            if method == "textDocument/codeAction":
                params = {"textDocument": {"uri": URI}, "range": {"start": position, "end": position},
                          "context": {"diagnostics": []}}
            msg_id += 1
            raw.request(msg_id, method, params)
            error = raw.answer(msg_id)["error"]
            assert error["code"] in (-32602, -32601) and "\n" not in error["message"], (method, position)
    symbols(raw, 1000)
    assert "Traceback" not in raw.close()


def test_a_position_past_the_text_but_in_range_is_answered_empty(raw):
    msg_id = 20
    for line, character in [(2**31 - 1, 0), (0, 2**31 - 1), (2**31 - 1, 2**31 - 1), (4, 10**6)]:
        for method in ("textDocument/hover", "textDocument/completion"):
            msg_id += 1
            raw.request(msg_id, method, {"textDocument": {"uri": URI}, "position": {"line": line,
                                                                                   "character": character}})
            answer = raw.answer(msg_id)
            assert "error" not in answer, answer
    assert "Traceback" not in raw.close()


def test_ordinary_failures_are_one_line_in_the_log(raw):
    # formatting a document that does not read, and a document never sent: error objects, no traceback
    raw.message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": URI + "2", "languageId": "grn", "version": 1, "text": TEXT + "3. red 17@\n"}}})
    options = {"tabSize": 2, "insertSpaces": True}
    raw.request(30, "textDocument/formatting", {"textDocument": {"uri": URI + "2"}, "options": options})
    assert "does not read" in raw.answer(30)["error"]["message"]
    never = (ROOT / "tests" / "data" / "never-sent.grn").as_uri()
    raw.request(31, "textDocument/formatting", {"textDocument": {"uri": never}, "options": options})
    assert "not open" in raw.answer(31)["error"]["message"]
    log = raw.close()
    assert "Traceback" not in log and "FileNotFoundError" not in log
    assert len(log.strip().splitlines()) == 2, log


def test_problems_above_a_half_typed_turn_stay_reported(raw):
    """Turn 2 is illegal (red again); while turn 3 is half typed, turn 2's problem is still shown (R346)."""
    text = '[Game "goldrush"]\n[Players "Ann (red), Ben (blue)"]\n\n1. red 47a@-1,0\n2. red 08@0,1\n'

    def published(version: int) -> list[tuple[int, str]]:
        deadline = time.monotonic() + 30
        while True:
            m = raw.messages.get(timeout=max(deadline - time.monotonic(), 0.1))
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == URI \
                    and m["params"].get("version") == version:
                return sorted((d["range"]["start"]["line"], d["code"]) for d in m["params"]["diagnostics"])
            if "method" not in m:
                raw.unanswered.append(m)

    for version, typed in ((2, text), (3, text + "3. blue 17@"), (4, text + "3. blue 17@0,")):
        raw.message({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": typed}]}})
        shown = published(version)
        assert (4, "illegal") in shown, (version, shown)
        if version > 2:
            assert (5, "syntax") in shown
    raw.close()


def test_on_a_terminal_it_says_it_is_for_editors():
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "grn", "lsp"], cwd=ROOT, stdin=follower, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    os.close(follower)
    try:
        line = proc.stderr.readline().decode()  # type: ignore[union-attr]
        assert line.startswith("grn lsp: ") and "for editors" in line and "docs/editors.md" in line
    finally:
        os.write(leader, b"\x04")  # Ctrl-D
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(leader)


def test_on_a_pipe_it_says_nothing():
    result = subprocess.run([sys.executable, "-m", "grn", "lsp"], cwd=ROOT, input=b"", capture_output=True,
                            timeout=60)
    assert result.stderr == b"" and result.returncode == 0
