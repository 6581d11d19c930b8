"""``grn lsp`` end to end: a real client (pytest-lsp, on pygls) talks to ``grn lsp`` over stdio.

A writer types a game turn by turn; the tests check what the editor shows:
the diagnostics (the same as ``grn validate`` prints for the same text), the
completions (the legal placements are the engine's), hover, the outline,
quick fixes and formatting (the same as ``grn fmt``).
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest_lsp = pytest.importorskip("pytest_lsp", reason="grn lsp's tests need the test extra (pytest-lsp)")

from lsprotocol import types as lsp  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

import grn  # noqa: E402
from grn.lsp.document import Document, chunks_after_edit  # noqa: E402
from grn.rules.position import position_at  # noqa: E402
from grn.notation.sources import text_chunks  # noqa: E402
from grn.notation.writer import command_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GRN = [sys.executable, "-m", "grn"]
EXAMPLE_TEXTS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.grn"))]

asyncio_module = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=GRN + ["lsp", "--pause", "0.02"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


class Editor:
    """One open buffer: type text into it and ask the server about it."""

    def __init__(self, client: LanguageClient, name: str) -> None:
        self.client = client
        self.uri = (ROOT / "tests" / "data" / name).as_uri()
        self.version = 0
        self.text = ""

    def open(self, text: str) -> None:
        self.text, self.version = text, 1
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(self.uri, "grn", self.version, text)))

    def type(self, text: str) -> None:
        """Replace the whole text, as an editor sends a change."""
        self.text = text
        self.version += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=self.version, uri=self.uri),
            [lsp.TextDocumentContentChangeWholeDocument(text)]))

    async def diagnostics(self) -> list[lsp.Diagnostic]:
        """The diagnostics the server publishes for the text as it is now (after the pause in typing).

        Called right after the change that made that text: the server waits for a pause before it sends them,
        so the wait starts before they can come."""
        async def published() -> list[lsp.Diagnostic]:
            while True:
                params = await self.client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
                if params.uri == self.uri and params.version == self.version:
                    return list(params.diagnostics)

        return await asyncio.wait_for(published(), 120)

    def end(self) -> lsp.Position:
        lines = self.text.split("\n")
        return lsp.Position(len(lines) - 1, len(lines[-1]))

    async def complete(self, where: lsp.Position | None = None) -> list[str]:
        got = await self.client.text_document_completion_async(lsp.CompletionParams(
            lsp.TextDocumentIdentifier(self.uri), where or self.end()))
        assert isinstance(got, lsp.CompletionList)
        return [item.text_edit.new_text if item.text_edit else item.label for item in got.items]

    async def hover(self, line: int, character: int) -> str:
        got = await self.client.text_document_hover_async(lsp.HoverParams(
            lsp.TextDocumentIdentifier(self.uri), lsp.Position(line, character)))
        return got.contents.value if got is not None else ""

    def close(self) -> None:
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(self.uri)))


def validate_cli(text: str, tmp_path: Path) -> list[tuple[int, int, str]]:
    """What ``grn validate`` says of the text: (line, column, message with rule and hint)."""
    path = tmp_path / "typed.grn"
    path.write_text(text, encoding="utf-8")
    run = subprocess.run(GRN + ["validate", str(path)], capture_output=True, text=True)
    out = []
    for line in run.stderr.splitlines():
        m = re.match(re.escape(str(path)) + r"(?::(\d+):(\d+))?: (?:error|warning|info): (.*)$", line)
        if m:
            out.append((int(m.group(1) or 1), int(m.group(2) or 1), m.group(3)))
    return out


def shown(diags: list[lsp.Diagnostic]) -> list[tuple[int, int, str]]:
    return [(d.range.start.line + 1, d.range.start.character + 1, d.message) for d in diags]


def selfplay(*args: str) -> str:
    return subprocess.run(GRN + ["selfplay", *args], capture_output=True, text=True, check=True).stdout


def split(game: str) -> tuple[str, list[str]]:
    head, _, moves = game.partition("\n\n")
    # the Result tag would be checked against a game typed only in part
    head = "\n".join(line for line in head.splitlines() if not line.startswith("[Result"))
    return head + "\n\n", [t for t in moves.splitlines() if t.strip()]


@asyncio_module
async def test_typing_a_game_turn_by_turn(client: LanguageClient, tmp_path: Path) -> None:
    """Each turn as it is typed: the tile ids in the bag, then the tile's legal placements exactly as the
    engine lists them, then what may follow; no diagnostics for a legal game."""
    head, turns = split(selfplay("--players", "2", "--seed", "3"))
    editor = Editor(client, "typing.grn")
    editor.open(head)
    assert shown(await editor.diagnostics()) == []
    record_text = head
    for k, line in enumerate(turns[:6]):
        number, player, placement, *rest = line.split()
        tile = placement.split("@")[0]
        state = position_at(grn.notation.read.parse(record_text)[0], k).state
        # the turn's number and player typed: the tile ids in the bag
        editor.type(record_text + f"{number} {player} ")
        offered = await editor.complete()
        assert {w for w in offered if "@" not in w} == {t for t, n in state.bag().items() if n}
        # the tile id typed: its legal placements, the engine's
        editor.type(record_text + f"{number} {player} {tile}")
        offered = await editor.complete()
        ruleset = grn.games.find_ruleset("goldrush")
        assert {w for w in offered if "@" in w} == {command_text(p, ruleset) for p in state.legal_placements(tile)}
        assert placement in offered
        # the placement written: the cowboys, tents and mining the engine allows after it
        editor.type(record_text + f"{number} {player} {placement} ")
        offered = await editor.complete()
        placed = grn.notation.read.parse(record_text + f"{number} {player} {placement}\n")[0].turns[-1].actions[0]
        assert set(offered) == {command_text(c, ruleset) for c in state.legal_followups(placed) if c is not None}
        for word in rest:
            if not word.startswith("score") and "=" not in word.split("@")[0]:
                assert word in offered or word.startswith(("score", "red=", "yellow="))
        # a score checkpoint: each player's score after the turn, as the rules give it
        actions = line.split(" score ")[0]
        editor.type(record_text + actions + " score ")
        after = position_at(grn.notation.read.parse(record_text + actions + "\n")[0], k + 1).state.scores
        assert await editor.complete() == [f"{who}={pts}" for who, pts in after.items()]
        record_text += line + "\n"
        editor.type(record_text)
        assert shown(await editor.diagnostics()) == []
    assert validate_cli(record_text, tmp_path) == []
    editor.close()


@asyncio_module
async def test_an_illegal_placement_is_underlined_with_its_rule(client: LanguageClient, tmp_path: Path) -> None:
    """The message and place are grn validate's; the range covers the placement; a quick fix turns the
    tile to a rotation that fits, and the fixed text validates."""
    head, turns = split(selfplay("--players", "2", "--seed", "3"))
    editor = Editor(client, "illegal.grn")
    good = head + "\n".join(turns[:2]) + "\n"
    editor.open(good)
    await editor.diagnostics()
    # turn 3 is 17@2,-1:180 in this game: without the rotation it does not fit
    assert turns[2] == "3. red 17@2,-1:180"
    bad = good + "3. red 17@2,-1\n"
    editor.type(bad)
    diags = await editor.diagnostics()
    assert shown(diags) == validate_cli(bad, tmp_path)
    (d,) = diags
    assert d.severity == lsp.DiagnosticSeverity.Error
    assert "does not match" in d.message and "rule:" in d.message and "Gold Rush rulebook" in d.message
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (8, 7, 14)
    hover = await editor.hover(8, 9)
    assert "**Rule:**" in hover and "Placing Land Tiles" in hover and "tile 17:" in hover
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(editor.uri), d.range, lsp.CodeActionContext([d])))
    titles = [a.title for a in actions]
    assert "Turn the tile: 17@2,-1:180" in titles
    fix = next(a for a in actions if a.title == "Turn the tile: 17@2,-1:180")
    (edit,) = fix.edit.changes[editor.uri]
    lines = bad.split("\n")
    row = lines[edit.range.start.line]
    lines[edit.range.start.line] = row[:edit.range.start.character] + edit.new_text + row[edit.range.end.character:]
    fixed = "\n".join(lines)
    assert validate_cli(fixed, tmp_path) == []
    editor.type(fixed)
    assert await editor.diagnostics() == []
    editor.close()


@asyncio_module
async def test_score_difference_points_at_its_turn(client: LanguageClient, tmp_path: Path) -> None:
    """A wrong score checkpoint: grn validate's error, with related information at the turn and what it
    scored; a case slip in a tag is fixed by a quick fix; a missing option is added by one."""
    text = (ROOT / "examples" / "goldrush-2p.grn").read_text(encoding="utf-8")
    wrong = text.replace("mine=2 {Bo digs first: a 2.} score red=0 yellow=0",
                         "mine=2 {Bo digs first: a 2.} score red=0 yellow=5")
    assert wrong != text
    editor = Editor(client, "checkpoint.grn")
    editor.open(wrong)
    diags = await editor.diagnostics()
    assert shown(diags) == validate_cli(wrong, tmp_path)
    d = next(d for d in diags if "checkpoint" in d.message)
    assert d.related_information and d.related_information[0].location.range.start.line == 14
    assert d.related_information[0].message.startswith("turn 6")
    # [game ...]: the quick fix writes the tag name as the notation spells it
    slip = text.replace('[Game "goldrush"]', '[game "goldrush"]')
    editor.type(slip)
    diags = await editor.diagnostics()
    assert shown(diags) == validate_cli(slip, tmp_path)
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(editor.uri), diags[0].range, lsp.CodeActionContext(diags)))
    assert [(a.title, a.edit.changes[editor.uri][0].new_text) for a in actions] == [
        ("Write the tag name as Game", "Game")]
    editor.close()
    gm = Editor(client, "goldmines.grn")
    text = '[Game "carcassonne"]\n[Players "Ada (red), Bo (yellow)"]\n\n1. red GM3@1,0\n'
    gm.open(text)
    diags = await gm.diagnostics()
    assert shown(diags) == validate_cli(text, tmp_path)
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(gm.uri), diags[0].range, lsp.CodeActionContext(diags)))
    (action,) = actions
    (edit,) = action.edit.changes[gm.uri]
    assert (edit.range.start.line, edit.new_text) == (2, '[Options "goldmines"]\n')
    gm.close()


@asyncio_module
async def test_hover_on_a_turn_gives_its_events_and_the_scores(client: LanguageClient, tmp_path: Path) -> None:
    text = (ROOT / "examples" / "goldrush-2p.grn").read_text(encoding="utf-8")
    report = json.loads(subprocess.run(GRN + ["validate", "--format", "json",
                                              str(ROOT / "examples" / "goldrush-2p.grn")],
                                       capture_output=True, text=True).stdout)
    turns = report["files"][0]["games"][0]["turns"] if "files" in report else report["games"][0]["turns"]
    editor = Editor(client, "hover.grn")
    editor.open(text)
    await editor.diagnostics()
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("6. yellow"))
    said = await editor.hover(row, 1)
    six = next(t for t in turns if t["number"] == 6)
    for event in six["events"]:
        assert event in said
    assert ", ".join(f"{k} {v}" for k, v in six["scores"].items()) in said
    # a tile id: what the tile shows
    said = await editor.hover(row, lines[row].index("27@") + 1)
    assert said.startswith("tile 27: N ") and "left in the bag" in said
    editor.close()


@asyncio_module
async def test_completion_of_tags_players_and_variations(client: LanguageClient) -> None:
    editor = Editor(client, "tags.grn")
    editor.open("[Ga")
    assert 'Game "' in await editor.complete()
    editor.type('[Game "')
    assert {"goldrush", "gold", "carcassonne"} <= set(await editor.complete())
    editor.type('[Game "carcassonne"]\n[Options "')
    assert set(await editor.complete()) >= {"goldmines", "farmers", "smallcity"}
    editor.type('[Game "goldrush"]\n[Players "Ada (red), Bo (')
    assert "red" not in await editor.complete() and "yellow" in await editor.complete()
    head, turns = split(selfplay("--players", "2", "--seed", "3"))
    body = head + "\n".join(turns[:3]) + "\n4. "
    editor.type(body)
    assert (await editor.complete())[0] == "yellow"  # the player to play first
    # a variation of turn 3: the position before turn 3, whose tile may go elsewhere
    state = position_at(grn.notation.read.parse(head + "\n".join(turns[:2]) + "\n")[0], 2).state
    ruleset = grn.games.find_ruleset("goldrush")
    body = head + "\n".join(turns[:3]) + " (3. red 17"
    editor.type(body)
    offered = {w for w in await editor.complete() if "@" in w}
    assert offered == {command_text(p, ruleset) for p in state.legal_placements("17")}
    editor.close()


@asyncio_module
async def test_gold_offers_the_cards_still_face_down(client: LanguageClient) -> None:
    text = (ROOT / "examples" / "gold-2p.grn").read_text(encoding="utf-8")
    head, _, moves = text.partition("\n\n{")
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("5. "))
    body = "\n".join(lines[:first]) + "\n5. red "
    editor = Editor(client, "gold.grn")
    editor.open(body)
    state = position_at(grn.notation.read.parse(body[:-len("5. red ")])[0], 4).state
    offered = await editor.complete()
    assert offered == [f"{p}=" for p in state.legal_flips()]
    editor.type(body + "g5=")
    faces = await editor.complete()
    assert faces and all(f.startswith("g5=") for f in faces)
    editor.close()


@asyncio_module
async def test_formatting_is_grn_fmt(client: LanguageClient, tmp_path: Path) -> None:
    text = (ROOT / "examples" / "goldrush-2p.grn").read_text(encoding="utf-8")
    messy = text.replace("1. red 47a@-1,0 +N", "1.   red   47a@-1,0    +N").replace('[Date "2026.11.19"]\n', "") \
        + '\n'
    path = tmp_path / "messy.grn"
    path.write_text(messy, encoding="utf-8")
    canonical = subprocess.run(GRN + ["fmt", str(path)], capture_output=True, text=True, check=True).stdout
    editor = Editor(client, "fmt.grn")
    editor.open(messy)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(editor.uri), lsp.FormattingOptions(2, True)))
    (edit,) = edits
    assert edit.new_text == canonical
    # a document that does not read has no canonical form: an error object, and the server goes on
    editor.type(messy + "\n7. red 56@@\n")
    with pytest.raises(JsonRpcException, match="does not read"):
        await client.text_document_formatting_async(lsp.DocumentFormattingParams(
            lsp.TextDocumentIdentifier(editor.uri), lsp.FormattingOptions(2, True)))
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        lsp.TextDocumentIdentifier(editor.uri)))
    assert len(symbols) == 1
    editor.close()


@asyncio_module
async def test_outline_of_games_turns_and_variations(client: LanguageClient) -> None:
    text = (ROOT / "examples" / "goldrush-2p.grn").read_text(encoding="utf-8")
    two = text + "\n" + selfplay("--players", "3", "--seed", "1")
    editor = Editor(client, "outline.grn")
    editor.open(two)
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        lsp.TextDocumentIdentifier(editor.uri)))
    assert [s.name for s in symbols] == ["1. Thursday club night", "2. grn selfplay"]
    records = grn.notation.read.parse(two)
    assert [len(s.children) for s in symbols] == [len(r.turns) for r in records]
    thirtieth = symbols[0].children[29]
    assert thirtieth.name == "30. yellow 61@-2,4 +C"
    assert [c.name for c in thirtieth.children or []] == ["variation 1 at turn 30"]
    assert [c.name for c in thirtieth.children[0].children] == ["30. yellow 61@-4,3:270 +C"]
    editor.close()


def test_a_long_file_rechecks_only_the_game_that_changed() -> None:
    """Ten games; an edit to one re-reads and re-checks that one; the others' diagnostics move with their
    lines when lines above them come and go, and stay those of grn validate."""
    names = ["goldrush-first-game.grn", "gold-2p.grn", "carcassonne/carcassonne-2p.grn", "rulebook-farmers.grn"]
    text = "\n".join((ROOT / "examples" / name).read_text(encoding="utf-8") for name in names)
    doc = Document("many.grn")
    doc.update(text)
    assert doc.checked == 4
    changed = text.replace("[Game \"gold\"]", "[Game \"gold\"] ", 1)
    doc.update(changed)
    assert doc.checked == 1
    # a broken game first, then lines added above the others: their spans move with them
    broken = "\n\n" + changed.replace("[Players", "[Players \"x\"]\n[Nothing", 1)
    doc.update(broken)
    fresh = Document("many.grn")
    fresh.update(broken)
    assert doc.checked < 4
    assert [d.one_line() for d in doc.diagnostics()] == [d.one_line() for d in fresh.diagnostics()]


EDIT_PIECES = ["[", "]", "\n", '[Event "x"]\n', "1. red 17@0,0\n", "{", "}", "\n\n", " ", "\ufeff", "(", ";", '"']


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(range(len(EXAMPLE_TEXTS))), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 200), st.sampled_from(EDIT_PIECES)),
                min_size=1, max_size=3))
def test_cutting_again_only_around_an_edit_cuts_as_the_whole_text_is_cut(which: list[int], edits: list) -> None:
    """The server cuts a long document into games again only near an edit: always the same games, lines and
    texts as cutting the whole new text (a tag line typed or removed moves where games begin)."""
    old = "\n".join(EXAMPLE_TEXTS[i] for i in which)
    new = old
    for at, drop, piece in edits:
        at %= len(new) + 1
        new = new[:at] + (piece if drop % 2 else "") + new[at + (0 if drop % 2 else drop):]
    assert chunks_after_edit(list(text_chunks(old)), old, new) == list(text_chunks(new))


@asyncio_module
async def test_positions_count_utf16_as_the_protocol_does(client: LanguageClient, tmp_path: Path) -> None:
    """A comment with a character outside the Basic Multilingual Plane before a problem on the same line: grn
    counts one column for it, the protocol two (UTF-16), and the underline still starts at the placement."""
    head, turns = split(selfplay("--players", "2", "--seed", "3"))
    text = head + "\n".join(turns[:2]) + "\n{\U0001F920 cowboy hat} 3. red 17@2,-1\n"
    line = text.split("\n")[8]
    start = line.index("17@")
    assert validate_cli(text, tmp_path)[0][:2] == (9, start + 1)  # grn: one column a character
    editor = Editor(client, "utf16.grn")
    editor.open(text)
    (d,) = await editor.diagnostics()
    assert (d.range.start.line, d.range.start.character) == (8, start + 1)  # the emoji is two UTF-16 units
    assert d.range.end.character == start + 1 + len("17@2,-1")
    said = await editor.hover(8, start + 2)
    assert "**Rule:**" in said
    offered = await editor.complete(lsp.Position(8, start + 1 + len("17")))
    assert "17@2,-1:180" in offered
    editor.close()
