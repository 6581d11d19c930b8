"""The language server: pygls over stdio, answering with :mod:`grn.lsp.features`.

Diagnostics are published after a pause in typing (``pause`` seconds after
the last change); a request that comes before then (a completion, a hover)
reads the document as it is now, re-checking only the games that changed.
A request that meets a problem answers with an error object, and the server
keeps running: a half-typed line is the usual state of a document.

The messages are read by :class:`Frames`, not by pygls's loop: a header that
does not read (a ``Content-Length`` of ``-10`` or ``abc``) or a message over
:data:`MAX_MESSAGE` is answered with the protocol's parse error and skipped to
the next message (R347); a request whose parameters do not fit the protocol
(a position at line -1) is answered with an "invalid params" error.  Neither
writes a traceback to the editor's log (R348).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import sys
import threading
from types import ModuleType
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition

import grn
from grn.lsp import PAUSE


def _lazy(name: str) -> ModuleType:
    """Module ``name``, run when one of its names is first used (the standard library's ``LazyLoader``)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from grn.lsp import document as opened, features
else:
    # grn's reader, validator and engines load with the first document, after the answer to ``initialize``:
    # an editor waits for that answer, and pygls's own imports already take most of the time it has (R166)
    features = sys.modules.get("grn.lsp.features") or _lazy("grn.lsp.features")
    opened = sys.modules.get("grn.lsp.document") or _lazy("grn.lsp.document")


T = TypeVar("T")
log = logging.getLogger("grn.lsp")

#: The largest message read (64 MiB): a larger ``Content-Length`` is refused, never allocated.
MAX_MESSAGE = 64 << 20
#: The longest header block; more without its blank line is not a header.
MAX_HEADER = 8192
#: JSON-RPC's error codes for a message that does not read and for a request that is not one.
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
_MARK = b"content-length:"


class Frames:
    """The messages of a byte stream framed by ``Content-Length`` headers, read in blocks from ``source``.

    :meth:`next` gives a message's body, a sentence when a header does not read (the stream is then skipped to
    the next ``Content-Length`` header), or ``None`` at the end of the stream.
    """

    def __init__(self, source: BinaryIO, read: Callable[[Callable[[], bytes]], Any]) -> None:
        self.buf = bytearray()
        reader = getattr(source, "read1", None)
        self._read_block: Callable[[], bytes] = (lambda: reader(65536)) if reader is not None \
            else (lambda: source.read(1))
        self._run = read
        self.ended = False
        #: where to look for the next header after one that did not read (the skip is made at the next call,
        #: so that the sentence is answered before the rest of the stream comes)
        self._skip_from: int | None = None

    async def _fill(self) -> bool:
        if self.ended:
            return False
        block = await self._run(self._read_block)
        if not block:
            self.ended = True
            return False
        self.buf += block
        return True

    async def next(self) -> bytes | str | None:
        """The next message's body, a sentence saying why a header was skipped, or ``None`` at the end."""
        if self._skip_from is not None:
            start, self._skip_from = self._skip_from, None
            await self._skip(start)
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0 and len(self.buf) <= MAX_HEADER:
                if not await self._fill():
                    return None
                continue
            if end < 0 or end > MAX_HEADER:
                self._skip_from = 1
                return f"a header longer than {MAX_HEADER} bytes"
            length, problem = _content_length(bytes(self.buf[:end]))
            if problem is not None or length is None:
                del self.buf[:end + 4]
                self._skip_from = 0
                return problem or "a message without a Content-Length header"
            need = end + 4 + length
            while len(self.buf) < need:
                if not await self._fill():
                    return None
            body = bytes(self.buf[end + 4:need])
            del self.buf[:need]
            return body

    async def _skip(self, start: int) -> None:
        """Drop bytes up to the next ``Content-Length`` header at or after ``start`` (the end of the stream)."""
        while True:
            at = self.buf.lower().find(_MARK, start)
            if at >= 0:
                del self.buf[:at]
                return
            keep = len(_MARK) - 1
            del self.buf[:max(start, len(self.buf) - keep)]
            start = 0
            if not await self._fill():
                self.buf.clear()
                return


def _content_length(header: bytes) -> tuple[int | None, str | None]:
    """A header block's ``Content-Length``, or why it has none that can be used."""
    for line in header.split(b"\r\n"):
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() == b"content-length":
            text = value.strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 18:
                shown = text[:20].decode("ascii", "replace")
                return None, f"Content-Length {shown!r} is not a number of bytes"
            if int(text) > MAX_MESSAGE:
                return None, f"a message of {int(text)} bytes is over the limit of {MAX_MESSAGE >> 20} MiB"
            return int(text), None
    return None, None


class _OneLine(logging.Filter):
    """pygls's log, one line a problem: a request answered with an error object (grn raised it on purpose, or
    its parameters did not fit the protocol) is no bug, and its traceback would only fill the editor's log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Unable to deserialize message"):
            return False  # the server answers it itself (GrnServer._handle), in a line of its own
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, JsonRpcException):
            text = str(getattr(exc, "message", exc))
            record.msg, record.args = "%s", (text[len("grn: "):] if text.startswith("grn: ") else text,)
            record.exc_info, record.exc_text, record.levelno, record.levelname = None, None, logging.WARNING, \
                "WARNING"
        return True


class NotOpen(Exception):
    """A request about a document the editor never opened, and that cannot be read from its file."""


class GrnServer(LanguageServer):
    """A pygls server holding a :class:`~grn.lsp.document.Document` per open GRN buffer."""

    def __init__(self, pause: float = PAUSE) -> None:
        super().__init__("grn", grn.__version__)
        self.pause = pause
        self.documents: dict[str, opened.Document] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}

    def document(self, uri: str) -> tuple[opened.Document, features.Lines]:
        """The checked document of ``uri`` as its text is now, and its lines."""
        text_doc = self.workspace.get_text_document(uri)
        try:
            text = text_doc.source  # a document never opened is read from its file, if it has one
        except (OSError, ValueError) as exc:
            raise NotOpen(f"{uri} is not open in the editor and cannot be read "
                          f"({getattr(exc, 'strerror', None) or exc})") from None
        doc = self.documents.get(uri)
        if doc is None:
            doc = self.documents[uri] = opened.Document(_file_name(uri))
        if doc.text != text or not doc.games and not doc.problems:
            doc.update(text)
        return doc, _lines(text_doc, text)

    def publish(self, uri: str) -> None:
        """Check the document now and send its diagnostics."""
        if uri not in self.documents and uri not in self.workspace.text_documents:
            return
        doc, lines = self.document(uri)
        version = self.workspace.get_text_document(uri).version
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri, features.diagnostics(doc, lines, uri), version=version))

    def publish_later(self, uri: str) -> None:
        """Publish the diagnostics once typing pauses (a change before then starts the wait again)."""
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._after_pause(uri))

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over standard input and output with :class:`Frames` reading the messages (see the module)."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        source = stdin or sys.stdin.buffer
        try:
            asyncio.run(self._serve(source))
        except BrokenPipeError:
            log.error("the editor closed the connection")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def _serve(self, source: BinaryIO) -> None:
        loop = asyncio.get_running_loop()
        frames = Frames(source, lambda read: loop.run_in_executor(self.thread_pool, read))
        assert self._stop_event is not None
        while not self._stop_event.is_set():
            body = await frames.next()
            if body is None:
                break
            if isinstance(body, str):
                log.warning("%s: skipped to the next message", body)
                self._reply(None, PARSE_ERROR, f"grn lsp: {body}")
                continue
            self._handle(body)

    def _handle(self, body: bytes) -> None:
        """Hand one message to pygls; one that does not read, or whose parameters do not fit, is answered."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            log.warning("a message that is not JSON: skipped")
            self._reply(None, PARSE_ERROR, "grn lsp: the message is not JSON")
            return
        if not isinstance(data, dict):
            self._reply(None, INVALID_REQUEST, "grn lsp: a message is a JSON object")
            return
        try:
            message = self.protocol.structure_message(data)
        except Exception as exc:  # noqa: BLE001 - the parameters do not fit the protocol's types
            method = data.get("method")
            log.warning("%s: the parameters do not fit the protocol: skipped", method)
            if "id" in data and isinstance(data.get("id"), (int, str)) and method is not None:
                code = exc.code if isinstance(exc, JsonRpcException) else JsonRpcInvalidParams.CODE
                self._reply(data["id"], code, f"grn lsp: {method}: the parameters do not fit the protocol's "
                                              "types (a line or character is 0 to 2^31 - 1)")
            return
        try:
            self.protocol.handle_message(message)
        except Exception:  # a bug of grn's or pygls's: say it in the log, keep serving
            log.exception("handling %s failed", data.get("method", "a message"))

    def _reply(self, msg_id: int | str | None, code: int, message: str) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})
        writer = self.protocol.writer
        if writer is not None:
            writer.write(f"Content-Length: {len(body.encode())}\r\n\r\n{body}".encode())

    async def _after_pause(self, uri: str) -> None:
        await asyncio.sleep(self.pause)
        self.pending.pop(uri, None)
        try:
            self.publish(uri)
        except Exception:  # a bug of grn's must not stop the server: say it in the log, keep serving
            log.exception("checking %s failed", uri)
            self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"grn: checking {uri} failed"))


def _file_name(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _lines(text_doc: TextDocument, text: str) -> features.Lines:
    lines = tuple(text.split("\n"))
    codec = text_doc.position_codec

    def to_client(row: int, char: int) -> lsp.Position:
        return codec.position_to_client_units(lines, ServerTextPosition(row, char))

    def from_client(pos: lsp.Position) -> tuple[int, int]:
        if pos.line >= len(lines):
            return len(lines) - 1, len(lines[-1])
        p = codec.position_from_client_units(lines, lsp.Position(pos.line, pos.character))
        return p.line, p.character

    return features.Lines(lines, to_client, from_client)


def _answer(what: str, work: Callable[[], T]) -> T:
    """Run a request's work; a problem of the document becomes an error object, never a stopped server."""
    try:
        return work()
    except features.CannotFormat as exc:
        raise JsonRpcInvalidRequest(str(exc)) from None
    except NotOpen as exc:
        raise JsonRpcInvalidParams(f"grn: {what}: {exc}") from None
    except RecursionError:
        raise JsonRpcInternalError(f"grn: {what}: the document nests too deep") from None
    except Exception as exc:  # a bug of grn's: an error object for this request, the server goes on
        log.exception("%s failed", what)
        raise JsonRpcInternalError(f"grn: {what} failed: {type(exc).__name__}: {exc}") from None


def make_server(pause: float = PAUSE) -> GrnServer:
    """A GRN language server with every feature registered."""
    server = GrnServer(pause)

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: GrnServer, params: lsp.InitializedParams) -> None:
        # the client has its answer: load the reader and the engines now, while it opens its first document
        features.Lines  # noqa: B018 - an attribute read runs the lazily loaded modules
        opened.Document  # noqa: B018

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: GrnServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.publish_later(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: GrnServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.publish_later(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: GrnServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.publish_later(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: GrnServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.documents.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=["@", "+", "=", " ", "[", "\"", "("]))
    def completion(ls: GrnServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        def work() -> lsp.CompletionList:
            doc, lines = ls.document(params.text_document.uri)
            row, char = lines.from_client(params.position)
            return features.completion(doc, lines, row + 1, char + 1)
        return _answer("completion", work)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: GrnServer, params: lsp.HoverParams) -> lsp.Hover | None:
        def work() -> lsp.Hover | None:
            doc, lines = ls.document(params.text_document.uri)
            row, char = lines.from_client(params.position)
            return features.hover(doc, lines, row + 1, char + 1)
        return _answer("hover", work)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: GrnServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        def work() -> list[lsp.DocumentSymbol]:
            doc, lines = ls.document(params.text_document.uri)
            return features.symbols(doc, lines)
        return _answer("document symbols", work)

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: GrnServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        def work() -> list[lsp.TextEdit]:
            doc, lines = ls.document(params.text_document.uri)
            return features.formatting(doc, lines)
        return _answer("formatting", work)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: GrnServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        def work() -> list[lsp.CodeAction]:
            doc, lines = ls.document(params.text_document.uri)
            return features.code_actions(doc, lines, params.text_document.uri, params.range,
                                         params.context.diagnostics)
        return _answer("code actions", work)

    return server


def serve(pause: float = PAUSE) -> None:
    """Answer an editor over standard input and output until it says exit."""
    logging.basicConfig(level=logging.WARNING, format="grn lsp: %(message)s")
    for handler in logging.getLogger().handlers:  # a handler's filter sees the records of every logger
        handler.addFilter(_OneLine())
    if sys.stdin.isatty():
        # typed in a terminal: say what it is for, then wait as an editor expects (Ctrl-D ends it)
        print("grn lsp: the GRN language server, for editors (docs/editors.md); it reads LSP messages here, "
              "Ctrl-D ends it", file=sys.stderr, flush=True)
    make_server(pause).start_io()


__all__ = ["Frames", "GrnServer", "MAX_MESSAGE", "PAUSE", "make_server", "serve"]
