"""``grn lsp``'s speed aids keep their answers exact: the position before a turn played on from a kept state is
the position a full replay gives, an edited earlier turn is never taken from a kept state, and the server
answers ``initialize`` without loading grn's reader, engines or other commands (R165, R166)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pygls", reason="grn lsp needs the lsp extra (pygls)")

from lsprotocol import types as lsp  # noqa: E402

from grn import games  # noqa: E402
from grn.lsp import context, features  # noqa: E402
from grn.lsp.document import Document  # noqa: E402
from grn.notation.read import parse_game  # noqa: E402
from grn.rules.position import position_at  # noqa: E402
from grn.rules.selfplay import to_record  # noqa: E402
from grn.notation.writer import write_record  # noqa: E402

TEXT = write_record(to_record(games.find_ruleset("goldrush").selfplay(3, 5)))
LINES = TEXT.rstrip("\n").split("\n")
#: the rows of the main line's turns ("12. red 17@2,1 ...")
TURN_ROWS = [r for r, line in enumerate(LINES) if re.match(r"\d+\. \S+ \w+@", line)]


def lines_of(text: str) -> features.Lines:
    return features.Lines(tuple(text.split("\n")), lambda row, char: lsp.Position(row, char),
                          lambda pos: (pos.line, pos.character))


def typed_to(k: int, event: str = "") -> tuple[str, int, str, str]:
    """The game with its first ``k`` turns whole and turn k+1 written up to its tile id: (text, row, the partial
    line, the tile id)."""
    row = TURN_ROWS[k]
    number, player, placement = LINES[row].split()[:3]
    tile = placement.split("@")[0]
    head = [f'[Event "{event}"]' if line.startswith("[Event") and event else line for line in LINES[:row]]
    partial = f"{number} {player} {tile}"
    return "\n".join(head + [partial]), row, partial, tile


def replayed(text: str, row: int, tile: str) -> tuple[dict[str, int], str, list[str]]:
    """The scores, the player to play and the placements of ``tile`` at the position before the turn on ``row``,
    from a replay of the game from its start (grn.rules.position)."""
    before = "\n".join(text.split("\n")[:row]) + "\n"
    record = parse_game(before)
    state = position_at(record, str(max((t.number for t in record.turns), default=0))).state
    ruleset = games.find_ruleset("goldrush")
    offered = [s.text for s in ruleset.suggestions(state, state.current_player, [], tile) if "@" in s.text]
    return dict(state.scores), state.current_player, offered


def test_typing_the_next_turn_plays_one_turn_and_offers_what_a_full_replay_offers() -> None:
    context.REPLAYS.clear()
    doc = Document("typed.grn")
    for k in range(4, 12):
        text, row, partial, tile = typed_to(k)
        doc.update(text)
        got = features.completion(doc, lines_of(text), row + 1, len(partial) + 1)
        if k > 4:
            assert context.REPLAYS.last_played == 1  # the turn typed since the last request, not the game
        offered = [item.label for item in got.items if "@" in item.label]
        assert offered and offered == replayed(text, row, tile)[2]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(TURN_ROWS) - 1), st.sampled_from(["", "a", "b"])),
                min_size=1, max_size=6))
def test_a_position_played_on_from_a_kept_state_is_the_replayed_one(steps: list[tuple[int, str]]) -> None:
    """Requests at turns in any order (back and forth, the header edited between them) get the position a
    replay from the start gives: the same scores, player to play and legal placements."""
    ruleset = games.find_ruleset("goldrush")
    for k, event in steps:
        text, row, _, tile = typed_to(k, event)
        cut = "\n".join(text.split("\n")[:row]) + "\n"
        found = context.position_before(cut, 0, False)
        assert found is not None
        state = found.state
        offered = [s.text for s in ruleset.suggestions(state, state.current_player, [], tile) if "@" in s.text]
        assert (dict(state.scores), state.current_player, offered) == replayed(text, row, tile)


def test_an_earlier_turn_edited_is_replayed_again() -> None:
    """Turn 2 rewritten to break the rules: the position after it is not taken from the state kept before the
    edit; the turn no longer has a position (its diagnostics say why)."""
    context.REPLAYS.clear()
    text, row, _, _ = typed_to(8)
    cut = "\n".join(text.split("\n")[:row]) + "\n"
    assert context.position_before(cut, 0, False) is not None
    second = TURN_ROWS[1]
    words = LINES[second].split()
    tile = words[2].split("@")[0]
    broken = cut.replace(LINES[second], " ".join([words[0], words[1], f"{tile}@40,40"]), 1)
    assert broken != cut
    assert context.position_before(broken, 0, False) is None


def test_the_server_answers_initialize_before_loading_grns_reader_and_engines() -> None:
    """What ``grn lsp`` loads before it can answer: pygls and lsprotocol, and of grn only the server and its
    command line; the reader, the validator, the engines, grn's other commands and typer load after (R166)."""
    code = ("import sys, json; import grn.cli.launch, grn.lsp.command, grn.lsp.server; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('grn', 'lark', 'typer')))))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(run.stdout))
    assert {"grn.lsp.server", "grn.lsp.command"} <= loaded
    for heavy in ("grn.cli.app", "grn.notation.read", "grn.check.validate", "grn.rules.position", "grn.core.registry", "lark", "typer"):
        assert heavy not in loaded, heavy
    # the lazily loaded modules are there when a request needs them
    code = "import grn.lsp.server as s; print(s.features.Lines.__name__, s.opened.Document.__name__)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["Lines", "Document"]


def test_grn_lsp_help_comes_from_the_one_definition() -> None:
    """``grn lsp --help`` (the console script's short way) and ``grn --help`` (the full command line) both
    know the command."""
    own = subprocess.run([sys.executable, "-m", "grn", "lsp", "--help"], capture_output=True, text=True)
    assert own.returncode == 0 and "--pause" in own.stdout and "language server" in own.stdout
    everything = subprocess.run([sys.executable, "-m", "grn", "--help"], capture_output=True, text=True)
    assert everything.returncode == 0 and "lsp" in everything.stdout
