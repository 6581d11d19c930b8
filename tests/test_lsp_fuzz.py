"""``grn lsp`` never falls over on what a half-typed document holds.

Through the protocol: a real client (pytest-lsp) edits a document with
incremental changes (lines cut short as if being typed, words and brackets
inserted and dropped) and, after each, asks for completion, hover, the
outline, quick fixes and formatting at random places.  Every request answers,
or returns an error object only where grn refuses on purpose (formatting a
document that does not read); the server keeps publishing diagnostics and
answering to the end.

In process, a Hypothesis property runs the same features on edited records at
any place, far more cases than the protocol can carry in the time.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest_lsp = pytest.importorskip("pytest_lsp", reason="grn lsp's tests need the test extra (pytest-lsp)")

from lsprotocol import types as lsp  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from grn.lsp import features  # noqa: E402
from grn.lsp.document import Document  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.grn"))
TEXTS = [p.read_text(encoding="utf-8") for p in EXAMPLES]
PIECES = ["{", "}", "(", ")", "<", ">", "[", "]", '"', ";", "@", ",", ":", "=", "+", "\n", " ", "\\", "17@",
          "score", "tent@", "mine=", "<label", "é", "\t", "5. red ", "(3. red ", "[Game \"gold\"]\n", "[Options \"",
          "+N", "a1=", "discard ", "99999999999999999999", "0. red 33@0,0", "\r"]


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "grn", "lsp", "--pause", "0.01"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def _position(text: str, offset: int) -> lsp.Position:
    before = text[:offset].split("\n")
    return lsp.Position(len(before) - 1, len(before[-1].encode("utf-16-le")) // 2)


def _edit(text: str, rand: random.Random) -> tuple[str, int, int, str]:
    """A random edit as an editor sends it: (new text, start offset, end offset, inserted text)."""
    at = rand.randrange(len(text) + 1)
    kind = rand.random()
    if kind < 0.3:  # a line cut short: the rest of it as if not yet typed
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        return text[:at] + text[end:], at, end, ""
    if kind < 0.5:
        end = min(len(text), at + rand.randrange(1, 30))
        return text[:at] + text[end:], at, end, ""
    if kind < 0.8:
        piece = rand.choice(PIECES)
        return text[:at] + piece + text[at:], at, at, piece
    start = rand.randrange(len(text) + 1)
    piece = text[start:start + rand.randrange(1, 60)]
    return text[:at] + piece + text[at:], at, at, piece


@pytest.mark.asyncio(loop_scope="module")
async def test_edited_documents_through_the_protocol(client: LanguageClient) -> None:
    rand = random.Random(24)
    uri = (ROOT / "tests" / "data" / "fuzz.grn").as_uri()
    text = TEXTS[0]
    version = 1
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "grn", version, text)))
    doc = lsp.TextDocumentIdentifier(uri)
    refused = answered = 0
    for step in range(60):
        if step % 15 == 0:  # now and then a fresh example, replaced whole
            text = TEXTS[rand.randrange(len(TEXTS))]
            version += 1
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [lsp.TextDocumentContentChangeWholeDocument(text)]))
        old = text
        text, start, end, piece = _edit(old, rand)
        version += 1
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangePartial(lsp.Range(_position(old, start), _position(old, end)), piece)]))
        where = _position(text, rand.randrange(len(text) + 1))
        requests = [
            client.text_document_completion_async(lsp.CompletionParams(doc, where)),
            client.text_document_hover_async(lsp.HoverParams(doc, where)),
            client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc)),
            client.text_document_code_action_async(lsp.CodeActionParams(
                doc, lsp.Range(lsp.Position(0, 0), where), lsp.CodeActionContext([]))),
            client.text_document_formatting_async(lsp.DocumentFormattingParams(doc, lsp.FormattingOptions(2, True))),
        ]
        for request in requests:
            try:
                await request
                answered += 1
            except JsonRpcException as exc:
                # the one refusal on purpose: a document that does not read has no canonical form
                assert "cannot format" in str(exc), f"step {step}: {exc}\n{text}"
                refused += 1
    assert answered > 200 and refused > 0
    # the server still checks and answers: one more edit, and the diagnostics of the document as it is then
    old = text
    text, start, end, piece = _edit(old, rand)
    version += 1
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [lsp.TextDocumentContentChangePartial(lsp.Range(_position(old, start), _position(old, end)), piece)]))

    async def published() -> lsp.PublishDiagnosticsParams:
        while True:
            params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.version == version:
                return params

    params = await asyncio.wait_for(published(), 120)
    expected = Document(uri)
    expected.update(text)
    assert len(params.diagnostics) == len(expected.diagnostics())


def _lines(text: str) -> features.Lines:
    lines = tuple(text.split("\n"))
    return features.Lines(lines, lambda row, char: lsp.Position(row, char),
                          lambda pos: (pos.line, pos.character))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TEXTS))), st.integers(0, 2 ** 32 - 1), st.integers(0, 10 ** 6))
def test_every_feature_answers_anywhere_in_an_edited_record(which: int, seed: int, place: int) -> None:
    rand = random.Random(seed)
    text = TEXTS[which]
    for _ in range(rand.randrange(1, 4)):
        text = _edit(text, rand)[0]
    doc = Document("edited.grn")
    doc.update(text)
    lines = _lines(text)
    offset = place % (len(text) + 1)
    before = text[:offset].split("\n")
    line, column = len(before), len(before[-1]) + 1
    features.diagnostics(doc, lines, "file:///edited.grn")
    features.completion(doc, lines, line, column)
    features.hover(doc, lines, line, column)
    features.symbols(doc, lines)
    everything = lsp.Range(lsp.Position(0, 0), lsp.Position(len(lines.lines), 0))
    features.code_actions(doc, lines, "file:///edited.grn", everything, [])
    try:
        features.formatting(doc, lines)
    except features.CannotFormat:
        assert any(d.severity == "error" for g in doc.games for d in g.record.diagnostics)
