"""The validator as a user meets it: `grn validate` on records, exit codes, messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn
from grn.cli.app import app
from grn.check.validate import validate_record

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

GOLD = """[Game "gold"]
[Players "Anna (red), Ben (blue), Cleo (green)"]

1. red a1=G3 b2=red4
2. blue c3=D d4=G1 score red=3 blue=0 green=0
3. green a2=G1 a3=G2
4. red a2=G1 b1=blue2 score red=3 blue=1 green=0
"""


def run(tmp_path: Path, text: str, *args: str, name: str = "game.grn"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return runner.invoke(app, ["validate", str(path), *args]), str(path)


def test_legal_record_exits_0(tmp_path):
    result, _ = run(tmp_path, GOLD)
    assert result.exit_code == 0, result.output
    assert "1 game checked, 1 valid, 1 unfinished: ok" in result.output  # it stops before the end (R89)


def test_turn_numbers_must_follow(tmp_path):
    """R2: turn numbers run 1, 2, 3 without gaps."""
    result, path = run(tmp_path, GOLD.replace("3. green", "5. green"))
    assert result.exit_code == 1
    assert f"{path}:6:1: error: turn number 5 where 3 was expected" in result.output


def test_first_wrong_checkpoint_is_named(tmp_path):
    """R3: the first checkpoint that differs is reported, with what the rules give."""
    text = GOLD.replace("score red=3 blue=0 green=0", "score red=3 blue=2 green=0")
    text = text.replace("score red=3 blue=1 green=0", "score red=9 blue=9 green=9")
    result, path = run(tmp_path, text)
    assert result.exit_code == 1
    assert f"{path}:5:20: error: score checkpoint differs from the rules: blue 2 (the rules give 0)" \
        in result.output
    assert "[turn 2 (blue)]" in result.output
    assert result.output.count("score checkpoint differs") == 1


def test_illegal_action_names_line_column_rule_and_stops_the_line(tmp_path):
    # a2 was seen as G1 at turn 3: turning it again as G2 contradicts that.
    text = GOLD.replace("4. red a2=G1", "4. red a2=G2")
    result, path = run(tmp_path, text)
    assert result.exit_code == 1
    line = next(l for l in result.output.splitlines() if l.startswith(path))
    assert line.startswith(f"{path}:7:8: error:")
    assert "[turn 4 (red)]" in line and "rule:" in line and "Gold rules" in line
    assert "Traceback" not in result.output


def test_other_games_go_on_after_an_illegal_one(tmp_path):
    bad = GOLD.replace("2. blue c3=D", "2. green c3=D")
    result, path = run(tmp_path, bad + "\n" + GOLD)
    assert result.exit_code == 1
    assert "2 games checked, 1 valid" in result.output


def test_variation_is_checked_from_where_it_branches(tmp_path):
    # The variation replaces turn 3; in it, a1 was removed at turn 1, so turning it is illegal.
    text = GOLD.replace("3. green a2=G1 a3=G2", "3. green a2=G1 a3=G2 (3. green a1=G3 a4=G2)")
    result, path = run(tmp_path, text)
    assert result.exit_code == 1
    assert f"{path}:6:32: error:" in result.output
    # the main line still goes on to its end and the final scores are computed
    report = validate_record(grn.parse(text)[0])
    assert report.turns_played == 4


def test_result_tag_is_checked_when_the_game_is_over(tmp_path):
    text = (EXAMPLES / "gold-2p.grn").read_text(encoding="utf-8")
    result, _ = run(tmp_path, text)
    assert result.exit_code == 0, result.output
    wrong = text.replace('[Result "red 36, green 24"]', '[Result "red 35, green 24"]')
    result, path = run(tmp_path, wrong)
    assert result.exit_code == 1
    assert "Result tag differs from the final scoring: red 35 (the rules give 36)" in result.output


def test_result_not_checked_for_an_unfinished_record(tmp_path):
    result, _ = run(tmp_path, GOLD.replace('[Game "gold"]', '[Game "gold"]\n[Result "red 1, blue 0, green 0"]'))
    assert result.exit_code == 0
    assert "warning: the Result tag was not checked" in result.output


@pytest.mark.parametrize("result_tag, message", [
    ("red 1, blue 0", "Result tag leaves out green"),
    ("red one", "cannot read 'red one'"),
])
def test_result_tag_must_be_readable_and_name_everyone(tmp_path, result_tag, message):
    """Result: "the final scores as the players wrote them down" -- all of them, even in an unfinished record."""
    result, path = run(tmp_path, GOLD.replace('[Game "gold"]', f'[Game "gold"]\n[Result "{result_tag}"]'))
    assert result.exit_code == 1
    assert f"{path}:2:2: error: " in result.output and message in result.output


def test_checkpoint_naming_a_player_twice(tmp_path):
    result, path = run(tmp_path, GOLD.replace("score red=3 blue=0 green=0", "score red=3 red=3 blue=0"))
    assert result.exit_code == 1
    assert "score checkpoint names 'red' twice" in result.output


def test_game_tag_twice(tmp_path):
    result, path = run(tmp_path, GOLD.replace('[Game "gold"]', '[Game "gold"]\n[Game "gold"]'))
    assert result.exit_code == 1
    assert f"{path}:2:2: error: the Game tag is given twice" in result.output


@pytest.mark.parametrize("players, message", [
    ('', "the Players tag is missing"),
    ('[Players "Anna (red), Ben (pink)"]', "unknown colour 'pink'"),
    ('[Players "Anna (red), Ben (red)"]', "a colour is taken twice"),
    ('[Players "Anna (red)"]', "the game is for 2 to 5 players, not 1"),
    ('[Players "Anna red, Ben (blue)"]', "cannot read player 'Anna red'"),
])
def test_players_tag_problems(tmp_path, players, message):
    text = GOLD.replace('[Players "Anna (red), Ben (blue), Cleo (green)"]', players)
    result, path = run(tmp_path, text)
    assert result.exit_code == 1
    # The problem is shown at the Players tag (line 2, its name at column 2), or at the
    # start of the game when the tag is missing.
    where = "1:1" if not players else "2:2"
    assert f"{path}:{where}: error: " in result.output and message in result.output


def test_match_rotation(tmp_path):
    """R32: in a match the start moves one seat clockwise each game."""
    text = (EXAMPLES / "gold-3p-match.grn").read_text(encoding="utf-8")
    result, path = run(tmp_path, text)
    assert result.exit_code == 0, result.output
    assert "match 'thursday-2026-11-19'" in result.output and "won by" in result.output
    games = grn.parse(text)
    # Swap the order of rounds 2 and 3: game 2 would then start with the wrong player.
    swapped = text.replace('[Round "2"]', '[Round "X"]').replace('[Round "3"]', '[Round "2"]') \
        .replace('[Round "X"]', '[Round "3"]')
    result, path = run(tmp_path, swapped)
    assert result.exit_code == 1
    assert "is started by" in result.output
    assert len(games) == 3


def test_json_report_validates_against_its_schema(tmp_path):
    from jsonschema import Draft202012Validator

    from grn.notation.jsonform import schema

    path = tmp_path / "g.grn"
    path.write_text(GOLD.replace("4. red a2=G1", "4. red a2=G2"), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), "--format", "json"])
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    Draft202012Validator(schema("report.schema.json")).validate(doc)
    game = doc["files"][0]["games"][0]
    assert game["valid"] is False
    assert game["diagnostics"][0]["line"] == 7 and game["diagnostics"][0]["turn"] == 4


def test_examples_validate():
    files = sorted(str(p) for p in EXAMPLES.glob("*.grn"))
    assert files
    result = runner.invoke(app, ["validate", *files])
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------------------
# Gold Rush records
# ---------------------------------------------------------------------------

def _selfplay_text(players: int = 2, seed: int = 5) -> str:
    from grn.games.goldrush import selfplay as goldrush
    from grn.rules.selfplay import to_record

    return grn.write_record(to_record(goldrush.play(players, seed=seed), seed=seed))


def test_setup_turns_place_without_scoring(tmp_path):
    """R1: turn 0 places tiles and pieces without scoring; its checkpoint sets the scores."""
    from grn.games.goldrush.rules import GoldRushState
    from grn.games.goldrush import load_tileset

    state = GoldRushState.new(load_tileset(), ["red", "blue"])
    tile = next(t for t, n in state.bag().items() if n and state.legal_placements(t))
    spot = state.legal_placements(tile)[0]
    text = (
        '[Game "goldrush"]\n[Players "Anna (red), Ben (blue)"]\n\n'
        f"0. red {grn.notation.writer.command_text(spot)} score red=12 blue=7\n"
    )
    result, _ = run(tmp_path, text)
    assert result.exit_code == 0, result.output
    report = validate_record(grn.parse(text)[0])
    assert report.final_scores == {"red": 12, "blue": 7}
    assert report.turns_played == 0
    # A set-up placement that does not fit is refused with its line and column.
    bad = text.replace(grn.notation.writer.command_text(spot), f"{tile}@5,5")
    result, path = run(tmp_path, bad)
    assert result.exit_code == 1
    assert f"{path}:4:8: error:" in result.output


def test_result_with_unknown_tokens_is_a_range(tmp_path):
    """R4: with token faces left unknown, the Result must lie in the range they allow."""
    import re

    text = _selfplay_text(2, seed=5)
    hidden = re.sub(r"mine=\d+", "mine", text)
    hidden = re.sub(r"tokens=[\d,?]+", lambda m: "tokens=" + ",".join("?" for _ in m.group()[7:].split(",")),
                    hidden)
    hidden = re.sub(r" score( [a-z]+=-?\d+)+", "", hidden)  # checkpoints would need the faces
    assert "mine=" not in hidden
    result, _ = run(tmp_path, hidden)
    assert result.exit_code == 0, result.output
    report = validate_record(grn.parse(hidden)[0])
    assert report.complete
    # far outside any possible range
    wrong = re.sub(r'\[Result "red (\d+)', lambda m: f'[Result "red {int(m.group(1)) + 500}', hidden)
    result, _ = run(tmp_path, wrong)
    assert result.exit_code == 1
    assert "Result tag differs from the final scoring" in result.output
    assert "some token faces are unknown" in result.output


def test_goldrush_illegal_placement_names_what_would_fit(tmp_path):
    text = _selfplay_text(2, seed=6)
    lines = text.splitlines()
    # Turn 3: move the tile far away from every other tile.
    i = next(k for k, l in enumerate(lines) if l.startswith("3. "))
    words = lines[i].split()
    tile = words[2].split("@")[0]
    lines[i] = " ".join(words[:2] + [f"{tile}@40,40"] + words[3:])
    result, path = run(tmp_path, "\n".join(lines) + "\n")
    assert result.exit_code == 1
    line = next(l for l in result.output.splitlines() if l.startswith(path))
    assert line.startswith(f"{path}:{i + 1}:")
    assert "[turn 3 (" in line and "Gold Rush rulebook" in line


def test_validate_with_your_own_tileset(tmp_path):
    """--tileset FILE: a player holding the real box validates with a corrected tile set."""
    src = Path(grn.__file__).parent / "games" / "goldrush" / "tileset.json"
    data = json.loads(src.read_text(encoding="utf-8"))
    own = tmp_path / "mybox.json"
    own.write_text(json.dumps(data), encoding="utf-8")
    example = str(EXAMPLES / "goldrush-2p.grn")
    result = runner.invoke(app, ["validate", "--tileset", str(own), example])
    assert result.exit_code == 0, result.output
    # A box with one copy fewer of a tile the game uses twice or more: the record no longer fits it.
    used = grn.parse((EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8"))[0]
    from collections import Counter

    from grn.games.tiling.commands import PlaceTile

    counts = Counter(a.tile for t in used.turns for a in t.actions if isinstance(a, PlaceTile))
    tile = next(t for t, n in counts.items() if n >= 2 and t != data["start"])
    for design in data["tiles"]:
        if design["id"] == tile:
            design["count"] = counts[tile] - 1
    data["total"] -= 1  # the file states its total, and the loader checks it
    own.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["validate", "--tileset", str(own), example])
    assert result.exit_code == 1
    assert f"no copy of tile {tile} is left" in result.output


def test_a_broken_tileset_is_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x"}', encoding="utf-8")
    result = runner.invoke(app, ["validate", "--tileset", str(bad), str(EXAMPLES / "goldrush-2p.grn")])
    assert result.exit_code == 1
    assert result.output.strip() == f"{bad}: error: $: 'kinds' is a required property"


def test_position_options_out_of_range_are_usage_errors(tmp_path):
    path = tmp_path / "g.grn"
    path.write_text(GOLD, encoding="utf-8")
    for args in (["show", str(path), "--turn", "abc"], ["show", str(path), "--turn", "9"],
                 ["render", str(path), "--game", "2"], ["render", str(path), "--turn", "2(1)2"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


def test_html_of_an_illegal_game_writes_the_page_and_says_why(tmp_path):
    path = tmp_path / "g.grn"
    path.write_text(GOLD.replace("4. red a2=G1", "4. red a2=G2"), encoding="utf-8")
    page = tmp_path / "g.html"
    result = runner.invoke(app, ["html", str(path), "-o", str(page)])
    assert result.exit_code == 1
    assert f"{path}:7:8: error:" in result.output
    assert page.exists() and f"{path.name}:7:8" in page.read_text(encoding="utf-8")


def test_variation_numbers_start_at_the_turn_they_replace(tmp_path):
    """R2: a variation starts with the number of the turn it replaces."""
    text = GOLD.replace("3. green a2=G1 a3=G2", "3. green a2=G1 a3=G2 (5. green a4=G1 a5=G2)")
    result, path = run(tmp_path, text)
    assert result.exit_code == 1
    assert f"{path}:6:23: error: turn number 5 where 3 was expected" in result.output


def test_main_line_starts_at_turn_1(tmp_path):
    text = GOLD.replace("1. red", "7. red", 1)
    result, path = run(tmp_path, text)
    assert result.exit_code == 1
    assert f"{path}:4:1: error: turn number 7 where 1 was expected" in result.output


@pytest.mark.parametrize("game, players, turn, markup, message", [
    ("goldrush", "red, blue", "1. red 01a@1,0:90", "<ghost 99@2,0>", "there is no tile 99"),
    ("goldrush", "red, blue", "1. red 01a@1,0:90", "<ghost 17@2,0:45>", "rotation 45"),
    ("goldrush", "red, blue", "1. red 01a@1,0:90", "<highlight 1,0 purplish>", "'purplish' is not a colour"),
    ("goldrush", "red, blue", "1. red 01a@1,0:90", "<highlight 1,0:ZZ>", "'ZZ' is not a place on a tile"),
    ("goldrush", "red, blue", "1. red 01a@1,0:90", "<highlight c4>", "'c4' is not a tile x,y"),
    ("goldrush", "red, blue", "1. red 01a@1,0:90", '<highlight 1,0 "x">', 'takes no "text"'),
    ("gold", "red, blue, green", "1. red a1=G3 b1=red4", "<highlight 1,0>", "not a position of the layout"),
    ("gold", "red, blue, green", "1. red a1=G3 b1=red4", '<label z9 "x">', "'z9' is not a position"),
    ("gold", "red, blue, green", "1. red a1=G3 b1=red4", "<ghost 17@0,0>", "the card game has none"),
])
def test_markup_is_checked_against_the_game(tmp_path, game, players, turn, markup, message):
    """Diagram markup names the game's own places (docs/notation.md, Extras)."""
    text = f'[Game "{game}"]\n[Players "{players}"]\n\n{turn} {markup}\n'
    result, path = run(tmp_path, text)
    assert result.exit_code == 1
    assert f"{path}:4:{len(turn) + 3}: error: " in result.output and message in result.output


def test_good_markup_passes(tmp_path):
    text = ('[Game "gold"]\n[Players "red, blue, green"]\n\n'
            '1. red a1=G3 b1=red4 <highlight c4 #ff0000> <arrow a1 b2 pink> <label d5 "the 5 miner">\n')
    result, _ = run(tmp_path, text)
    assert result.exit_code == 0, result.output


def test_every_markup_colour_has_a_drawing_colour():
    from grn.core.record import MARKUP_COLOURS
    from grn.render.style import MARKUP_DEFAULT, colour_of

    for word in MARKUP_COLOURS:
        assert colour_of(word) != MARKUP_DEFAULT, word


def test_tileset_tag_that_names_another_set_is_a_warning(tmp_path):
    text = '[Game "goldrush"]\n[Players "red, blue"]\n[Tileset "mybox"]\n\n1. red 01a@1,0:90\n'
    result, path = run(tmp_path, text)
    assert result.exit_code == 0
    assert f"{path}:3:2: warning: the Tileset tag names 'mybox'" in result.output


def test_render_show_and_html_take_a_tileset(tmp_path):
    src = Path(grn.__file__).parent / "games" / "goldrush" / "tileset.json"
    own = tmp_path / "mybox.json"
    own.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    example = str(EXAMPLES / "goldrush-2p.grn")
    for args in (["render", example, "--tileset", str(own), "-o", str(tmp_path / "x.svg")],
                 ["show", example, "--tileset", str(own)],
                 ["html", example, "--tileset", str(own), "-o", str(tmp_path / "x.html")]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    result = runner.invoke(app, ["render", example, "--tileset", str(broken)])
    assert result.exit_code == 1 and "not valid JSON" in result.output


@pytest.mark.parametrize("game, text", [
    ("goldrush", '[Game "goldrush"]\n[Players "blue, red"]\n\n1. bl0e 47a@1,0\n2. red 08@0,1\n'),
    ("gold", GOLD.replace("1. red a1=G3", "1. r3d a1=G3")),
])
def test_a_first_turn_by_someone_not_playing_is_reported_at_that_turn(tmp_path, game, text):
    # Found by fuzzing: the unknown first player was taken as the start player and the
    # engine refused it with a traceback.  It is the turn's mistake, reported there.
    result, path = run(tmp_path, text)
    assert result.exit_code == 1 and "Traceback" not in result.output
    line = text.split("\n").index(next(l for l in text.split("\n") if l.startswith("1. "))) + 1
    assert f"{path}:{line}:" in result.output and "is not playing" in result.output
    # drawing the start of that game works, and drawing past the turn says why it cannot
    assert runner.invoke(app, ["render", path, "--turn", "0"]).exit_code == 0
    past = runner.invoke(app, ["render", path, "--turn", "1"])
    assert past.exit_code == 1 and isinstance(past.exception, SystemExit) and "is not playing" in past.output
