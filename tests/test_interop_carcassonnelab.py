"""CarcassonneLab replay links: ``grn import URL`` for Board Game Arena base games.

The game below is Board Game Arena table 361578832, a complete two-player
game, as a public Carcassonne solver's tests transcribe it (tile, orientation,
position and follower of every move, with the scores after several turns and
the final 110 to 89).  Written as a CarcassonneLab link, imported, and
replayed by grn's rules, it must give the same scores turn by turn: that
checks the mapping of BGA's tile types, axes, orientations and follower
positions (bga.json) against a real game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import grn.cli.app
from grn.games.carcassonne.carcassonnelab import decode_moves, decode_tiles, encode_tiles, link_to_grn
from grn.rules.interop import ConversionProblem
from grn.notation.read import parse
from grn.check.validate import validate_record

runner = CliRunner()

GAME = ("https://www.carcassonnelab.com/#/0/0/qcpTfaVv0FiZHt4y-eNwjP5TFu_E_uwFA7B0lJ1nydRZ3lr7Ea5wg3T/"
        "212112c222a323Z133Z122q0312143c2411044Z221L053Z15140121131J123q032s024s013Z052Z132H234b035a122K033H0"
        "32Z142b154c064Z025Z065Z055b034K156c145c026a246b1612035J143L225L066a044H163b047Z276a057a086a037a058Z"
        "1623438b0631059Z039Z415b128Z053H03Ab067Z045H069a034r263J055J014c044r036L348b3423354H1"
        "?players=Anna%20K,Ben&colors=red,blue")

#: turn -> (red, blue) as the game's transcription asserts them
SCORES = {4: (0, 2), 10: (0, 4), 12: (0, 6), 13: (8, 6), 19: (11, 6), 24: (17, 12), 25: (21, 12), 27: (30, 21),
          38: (30, 25), 39: (34, 25), 41: (38, 25), 48: (38, 34), 53: (42, 34), 59: (46, 34), 64: (46, 42),
          67: (50, 42), 69: (56, 42), 71: (65, 42)}


def test_a_real_board_game_arena_game_validates_with_its_scores(tmp_path: Path) -> None:
    out = tmp_path / "bga.grn"
    result = runner.invoke(grn.cli.app.app, ["import", GAME, "-o", str(out), "--tag", "Date=2023.04.07"])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert '[Players "Anna K (red), Ben (blue)"]' in text and '[Date "2023.04.07"]' in text
    assert "1. red V@1,0:90 +N\n2. blue P@0,1:270 +S\n" in text  # BGA's y grows south, GRN's north
    assert runner.invoke(grn.cli.app.app, ["validate", str(out)]).exit_code == 0
    report = validate_record(parse(text)[0])
    assert report.valid and report.complete
    turns = {t.number: (t.scores["red"], t.scores["blue"]) for t in report.turns}
    assert {n: turns[n] for n in SCORES} == SCORES
    assert report.final_scores == {"red": 110, "blue": 89}


#: The first 34 moves of Board Game Arena table 367130620, from the same solver's tests, which score them as if
#: the game ended there: 37 to 48, Ben's farmer scoring 12 for a field beside four completed cities.
PART = ("https://www.carcassonnelab.com/#/0/0/NpC0HJHo5MT8maFCSd_4PCRPXE5/"
           "212322Z112b122q132a123c042Z1311133b2221452Z1511443b123t021L2414031J062b032K163a034a064Z254b032r042r0"
           "73c153c065b243q166Z024Z0231456Z144a3")


def test_a_real_game_scored_where_it_stops_checks_the_farmers() -> None:
    text = link_to_grn(PART + "?players=Anna,Ben", {"End": "now"})  # no colors: GRN's first two colours
    report = validate_record(parse(text)[0])
    assert report.valid and report.final_scores == {"red": 37, "yellow": 48}
    assert "yellow scores 12 for a field beside 4 completed cities" in report.final_events


def test_tile_list_packing() -> None:
    # the examples of the link writer's own tests: start tile, then types 17 and 4 (and discards)
    assert encode_tiles([15, 17, 4]) == "CED" and decode_tiles("CED") == [15, 17, 4]
    assert decode_tiles("xor") == [15, 17, 24, 4] and decode_tiles("SmND") == [15, 17, 16, 17, 4]
    assert decode_moves("34L523H0") == [(-2, 3, 3, 5), (-1, 2, 0, 0)]


def test_discards_go_in_the_turn_that_drew_them() -> None:
    # start, then type 17 placed, type 24 drawn and discarded, type 4 placed
    text = link_to_grn("https://carcassonnelab.com/#/0/0.1/xor/34L023H0?players=A,B&colors=green,black")
    assert "1. green V@-2,-3:270\n2. black discard Q M@-1,-2\n" in text
    text = link_to_grn("https://carcassonnelab.com/#/0/0.2/xor/34L023H0?players=A,B&colors=green,black")
    # the tiles are in the order drawn: 17 placed, 24 placed, 4 drawn last and discarded
    assert "2. black Q@-1,-2\n3. green discard M\n" in text


@pytest.mark.parametrize("link, where, message", [
    ("https://www.carcassonnelab.com/#/0/0/CED", "path", "a replay link has four parts"),
    ("https://www.carcassonnelab.com/#/1/0/CED/34L523H0", "version", "link version '1' is not known"),
    ("https://www.carcassonnelab.com/#/0/0/C*D/34L523H0", "tiles", "'*' (character 2) is not a letter"),
    ("https://www.carcassonnelab.com/#/0/0/CED/34L523H", "moves", "the moves are four characters each"),
    ("https://www.carcassonnelab.com/#/0/0/CED/34L5I3H0", "move 2 (I3H0)", "'I' is not a letter"),
    ("https://www.carcassonnelab.com/#/0/0/Fg/34L523H0", "tiles", "1 tiles drawn after the start tile, but 2"),
    ("https://www.carcassonnelab.com/#/0/0/CED/34L523H0", "players", "the link names no players"),
    ("https://www.carcassonnelab.com/#/0/0/CED/34L523H0?players=A,B&colors=red,pink", "colors", "colors=red,pink"),
    ("https://www.carcassonnelab.com/#/0/0.x/CED/34L523H0?players=A,B", "discards", "'0.x' is not 0 followed by"),
    ("https://www.carcassonnelab.com/#/0/0/CED/34L023H9?players=A,B", "move 2",
     "tile M (BGA type 4) has no follower position 9"),
])
def test_broken_links_are_refused_saying_where(link: str, where: str, message: str) -> None:
    with pytest.raises(ConversionProblem) as info:
        link_to_grn(link)
    assert info.value.where == where and info.value.message.startswith(message)
    result = runner.invoke(grn.cli.app.app, ["import", link])
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert result.output.startswith(f"<link>: {where}: error: ")


def test_players_may_come_from_a_tag() -> None:
    link = GAME.split("?")[0]
    text = link_to_grn(link, {"Players": "Kim (yellow), Lee (green)"})
    assert '[Players "Kim (yellow), Lee (green)"]' in text and "\n2. green P@0,1:270 +S" in text


_CHARS = st.text(alphabet="123456789ABCDEFGHJKabcxyz-_0.*/?=&,%", max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([GAME, GAME.split("?")[0] + "?players=A,B"]), st.integers(0, 400), st.integers(0, 6), _CHARS)
def test_mangled_links_never_crash_the_importer(base: str, at: int, cut: int, junk: str) -> None:
    link = base[:at] + junk + base[at + cut:]
    try:
        text = link_to_grn(link)
    except ConversionProblem:
        return
    assert parse(text)[0].ok


def test_names_with_commas_and_spaces() -> None:
    # as the link writers encode them: each name percent-encoded, then joined with commas
    text = link_to_grn(GAME.split("?")[0] + "?players=Alpha%2C%20Player,Beta&colors=red,blue&custom=kept")
    assert '[Players "Alpha Player (red), Beta (blue)"]' in text
