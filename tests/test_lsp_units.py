"""``grn lsp`` in process: the pause in typing, a game known only through the hooks' defaults, the missing
extra, and the tags it offers (data checked by a schema)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

pytest.importorskip("pygls", reason="grn lsp needs the lsp extra (pygls)")

from lsprotocol import types as lsp  # noqa: E402

from grn import games  # noqa: E402
from grn.cli.app import app  # noqa: E402
from grn.lsp import features  # noqa: E402
from grn.lsp.document import Document  # noqa: E402
from grn.lsp.server import make_server  # noqa: E402
from tests.toygame import RULESET  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

NIM = """[Game "nim"]
[Players "Ann (red), Bob (blue)"]

1. red take=3
2. blue take=3 (2. blue take=1 3. red take=2)
3. red take=9
"""


def lines_of(text: str) -> features.Lines:
    return features.Lines(tuple(text.split("\n")), lambda row, char: lsp.Position(row, char),
                          lambda pos: (pos.line, pos.character))


def test_diagnostics_wait_for_a_pause_in_typing() -> None:
    """Five changes in quick succession are checked once, after the pause that follows the last."""
    server = make_server(pause=0.5)
    checked: list[str] = []
    server.publish = checked.append  # type: ignore[method-assign]  # what publishing sends is tested end to end

    async def typing() -> None:
        for _ in range(5):
            server.publish_later("file:///typed.grn")
            await asyncio.sleep(0.01)
        assert checked == []
        await asyncio.sleep(1.0)

    asyncio.run(typing())
    assert checked == ["file:///typed.grn"]


def test_a_game_with_only_the_default_hooks() -> None:
    """A plug-in game that defines only its tree of choices gets diagnostics, hover on its turns, an outline, and
    completion from the tree (its legal takes at the turn's position)."""
    games.register(RULESET)
    try:
        doc = Document("nim.grn")
        doc.update(NIM)
        lines = lines_of(NIM)
        (problem,) = doc.diagnostics()
        assert problem.span is not None and problem.span.line == 6
        (shown,) = features.diagnostics(doc, lines, "file:///nim.grn")
        assert shown.range.start.line == 5 and shown.message == features.message(problem)
        offered = [i.label for i in features.completion(doc, lines, 6, len("3. red ") + 1).items]
        assert offered == ["take=1", "take=2", "take=3"]
        said = features.hover(doc, lines, 4, 1)
        assert said is not None and "Turn 1" in said.contents.value
        (game,) = features.symbols(doc, lines)
        assert [s.name for s in game.children] == ["1. red take=3", "2. blue take=3", "3. red take=9"]
    finally:
        games.unregister("nim")


@pytest.mark.parametrize("entry", ["grn.cli.launch", "grn.cli.app"])  # the console script's way, and grn.cli.app's own
def test_without_the_extra_the_command_says_what_to_install(entry: str) -> None:
    code = ("import sys; sys.modules['pygls'] = None; sys.modules['lsprotocol'] = None; "
            f"sys.argv = ['grn', 'lsp']; from {entry} import main; main()")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        "grn lsp needs pygls and lsprotocol (lsprotocol is missing): pip install 'grn[lsp]'"]


def test_a_negative_pause_is_a_usage_error() -> None:
    run = subprocess.run([sys.executable, "-m", "grn", "lsp", "--pause", "-1"], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 2 and "--pause" in run.stderr and "Traceback" not in run.stderr


def test_the_tags_offered_are_checked_by_their_schema() -> None:
    data = json.loads((ROOT / "grn" / "lsp" / "tags.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads((ROOT / "schemas" / "tags.schema.json").read_text(encoding="utf-8")))
    from grn.core.record import TAG_ORDER

    assert set(TAG_ORDER) <= {t["name"] for t in data["tags"]}


EXAMPLES = sorted((ROOT / "examples").rglob("*.grn"))
PIECES = ["score red=1", "17@0,0", "+N", "tent@0,0", "mine", "c4=G3", "(", ")", "{", "}", "\n", "[Round \"2\"]\n",
          "9.", "red", "blue", "!", "<arrow 0,0 9,9>", "[game \"gold\"]\n", "discard 17", ""]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(range(len(EXAMPLES))), st.lists(st.tuples(st.integers(0, 10 ** 6), st.sampled_from(PIECES),
                                                                 st.integers(0, 12)), min_size=1, max_size=3))
def test_the_editor_says_what_grn_validate_says(tmp_path: Path, which: int, edits: list) -> None:
    """Edited examples of every game: the document's diagnostics are the lines ``grn validate`` prints."""
    text = EXAMPLES[which].read_text(encoding="utf-8")
    for at, piece, drop in edits:
        at %= len(text) + 1
        text = text[:at] + piece + text[at + drop:]
    path = tmp_path / "edited.grn"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    printed = [line for line in result.stderr.splitlines() if line.startswith(str(path))]
    doc = Document(str(path))
    doc.update(text)
    assert [d.one_line() for d in doc.diagnostics()] == printed


def test_carcassonne_offers_the_tiles_gold_may_be_taken_from() -> None:
    """take@ is offered on the turns that hand gold out, and each one offered is a turn the engine takes."""
    from grn.core.errors import IllegalAction
    from grn.games.carcassonne.commands import TakeIngot
    from grn.games.carcassonne.options import Options
    from grn.rules.position import position_at
    from grn.rules.selfplay import to_record
    from grn.games.tiling.commands import PlaceTile

    ruleset = games.find_ruleset("carcassonne")
    record = to_record(ruleset.selfplay(3, 1, Options(goldmines=True)))
    handing_out = 0
    for turn in record.turns:
        state = position_at(record, turn.number - 1).state
        if not any(isinstance(a, PlaceTile) for a in turn.actions):
            continue
        written = [a for a in turn.actions if not isinstance(a, TakeIngot)]
        offered = [s.text for s in ruleset.suggestions(state, turn.player, written, "") if s.text.startswith("take@")]
        gold_before = sum(state.mines.held)
        after = state.copy()
        after.play_turn(turn.player, written)
        if sum(after.mines.held) == gold_before:
            assert offered == [], turn
            continue
        handing_out += 1
        assert offered, turn
        for word in offered:
            x, y = map(int, word[len("take@"):].split(","))
            try:
                state.copy().play_turn(turn.player, [*written, TakeIngot(x, y)])
            except IllegalAction as exc:
                raise AssertionError(f"{turn}: {word} offered but refused: {exc}") from None
    assert handing_out >= 1
