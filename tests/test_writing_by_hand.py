"""Writing records by hand (issue 22, point 6): what `grn tiles`, `--help`, `render --legal --tile`,
`--explain` and the docs tell a user who writes a record without a program."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(app, list(args), input=stdin)


def rows(text: str) -> dict[str, str]:
    return {line.split()[0]: line for line in text.splitlines()[2:]}


def test_tiles_says_what_joins_what_and_shows_the_printed_ingot():
    table = rows(run("tiles", "--game", "carcassonne").output)
    # I (two cities) and N (one city over two edges) have the same edges but not the same features
    assert "city N, city W" in table["I"] and "city N+W" in table["N"]
    assert table["I"].split()[2:6] == table["N"].split()[2:6]
    # GM5 (two curves) and GM8 (two straight roads crossing)
    assert "road N+W, road E+S" in table["GM5"] and "road N+S, road E+W" in table["GM8"]
    assert all("ingot printed" in table[f"GM{k}"] for k in range(1, 9))
    assert "ingot" not in table["A"]
    assert "road N-junction, road E-junction, road S-junction, road W-junction" in table["X"]
    # Gold Rush: a railroad into a city says where it ends
    gold_rush = run("tiles").output
    assert gold_rush.startswith("Carcassonne: Gold Rush:") and "joins" in gold_rush.splitlines()[1]


@pytest.mark.parametrize("command", ["tiles", "selfplay"])
def test_help_lists_the_games_and_the_default(command):
    text = " ".join(run(command, "--help").output.replace("\u2502", " ").split())
    assert "goldrush, gold, carcassonne" in text and "(default: goldrush)" in text


def test_render_legal_asks_about_a_tile_the_record_does_not_name_yet(tmp_path):
    import grn
    from grn.rules.position import position_at

    out = tmp_path / "x.svg"
    result = run("render", str(EXAMPLES / "carcassonne" / "carcassonne-2p.grn"), "--turn", "10", "--legal",
                 "--tile", "V", "-o", str(out))
    assert result.exit_code == 0, result.output
    (record,) = grn.read(str(EXAMPLES / "carcassonne" / "carcassonne-2p.grn"))
    squares = {(p.x, p.y) for p in position_at(record, 10).state.legal_placements("V")}
    assert out.read_text().count('class="legal"') == len(squares) > 3
    bad = run("render", str(EXAMPLES / "carcassonne" / "carcassonne-2p.grn"), "--legal", "--tile", "ZZ",
              "--turn", "10", "-o", str(out))
    assert bad.exit_code == 2 and "--tile ZZ: there is no tile ZZ" in bad.output
    assert "Traceback" not in bad.output and len(bad.output.strip().splitlines()) == 1
    alone = run("render", str(EXAMPLES / "goldrush-2p.grn"), "--tile", "33", "-o", str(out))
    assert alone.exit_code == 2 and "--tile goes with --legal" in alone.output


def test_explain_names_which_mountain_of_a_two_mountain_tile():
    said = []
    for seed in range(1, 6):
        game = run("selfplay", "--seed", str(seed)).output
        said += [line for line in run("validate", "--explain", "-", stdin=game).output.splitlines()
                 if "mountain at" in line]
    two = [line for line in said if re.search(r"mountain at -?\d+,-?\d+:[NESW]", line)]
    assert two
    for line in said:  # no turn names one mountain twice in the same words
        places = re.findall(r"goes on the mountain at (\S+?)[;,]?(?:\s|$)", line)
        assert len(places) == len(set(places)), line


def test_the_final_scoring_folds_its_zero_point_lines():
    folded = []
    for seed in range(1, 9):
        game = run("selfplay", "--seed", str(seed), "--options", "farmers=on").output
        text = run("validate", "--explain", "-", stdin=game).output
        assert not re.search(r"scores 0 for", text)
        final = next(line for line in text.splitlines() if line.startswith("final scoring:"))
        assert final.count("no points for") <= 1
        folded += [final] if "no points for" in final else []
    assert any("a prairie with no tipi camp" in f for f in folded)


def test_gold_says_its_cards_in_words():
    text = run("validate", "--explain", str(EXAMPLES / "gold-2p.grn")).output
    assert "The green miner 3 at f1 leaves the game (defeated by the red miner 4 at g1)" in text
    assert not re.search(r"\b(red|green|blue|yellow|black)\d at [a-h]\d", text)
    assert not re.search(r"takes G\d", text)


def test_the_notation_says_what_a_set_up_turn_may_hold():
    text = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    assert "**What a set-up turn may hold.**" in text
    assert "gets **no ingot of its own**" in text
