"""The language server: pygls over stdio, answering with :mod:`grn.lsp.features`.

Diagnostics are published after a pause in typing (``pause`` seconds after
the last change); a request that comes before then (a completion, a hover)
reads the document as it is now, re-checking only the games that changed.
A request that meets a problem answers with an error object, and the server
keeps running: a half-typed line is the usual state of a document.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Callable, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInternalError, JsonRpcInvalidRequest
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
        doc = self.documents.get(uri)
        if doc is None:
            doc = self.documents[uri] = opened.Document(_file_name(uri))
        text = text_doc.source
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
    make_server(pause).start_io()


__all__ = ["GrnServer", "PAUSE", "make_server", "serve"]
