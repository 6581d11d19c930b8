"""grn puzzles: a constructed position where one move closes a city is found, confirmed, themed, written as GRN
that validates and as JSON by its schema; the verdict's rules (R396-R398); each game's themes."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

import grn
import grn.cli.app
from grn import games
from grn.bots.search import Estimate
from grn.analysis.puzzles import Budget, Criteria, mine_record, puzzle_record, verdict
from grn.check.validate import validate_record

runner = CliRunner()
#: A small budget: the constructed position has nine tiles left, so its playouts are short.
FAST = Budget(playouts=60, width=6, confirm_rounds=32, seed=0)


def _city_text() -> str:
    """Late in a Carcassonne game: red's knight holds an open city of four tiles and two pennants, red draws the
    last E (the only tile that closes it), and in the record plays it elsewhere."""
    ruleset = games.find_ruleset("carcassonne")
    bag = {t.id: t.count for t in ruleset.default_tileset().tiles if not t.id.startswith("GM")}
    bag["D"] -= 1  # the start tile
    bag["F"] -= 2
    bag["G"] -= 1
    keep = {"E": 1, "U": 4, "V": 3}
    discards = " ".join(f"discard {t}" for t, n in bag.items() for _ in range(n - keep.get(t, 0)))
    return ('[Game "carcassonne"]\n[Players "Ada (red), Bo (yellow)"]\n\n'
            f"0. red F@0,1:90 F@0,2:90 G@0,3:90 +N {discards}\n"
            "1. yellow U@1,0\n2. red E@0,-1:180\n3. yellow U@2,0\n")


@pytest.fixture(scope="module")
def city(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("puzzles") / "city.grn"
    path.write_text(_city_text(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def found(city: Path) -> list:
    record = grn.parse(city.read_text(encoding="utf-8"))[0]
    return list(mine_record(record, Criteria(), FAST, source=str(city)))


def test_the_city_is_found_confirmed_and_themed(found: list) -> None:
    assert [o.turn for o in found] == [2]
    puzzle = found[0].puzzle
    assert puzzle is not None, found[0].rejected
    assert puzzle.answer == "E@0,4:180"  # R397: the placement is the answer
    assert puzzle.solution.startswith("E@0,4:180")
    assert puzzle.missed and puzzle.played == "E@0,-1:180"
    assert "close a city" in puzzle.themes
    assert puzzle.gain >= 3 and puzzle.gain > 2 * puzzle.gain_se  # the game's inaccuracy threshold, by its error
    assert puzzle.hand == ("E",)
    assert "E in hand" in puzzle.question


def test_the_puzzle_record_validates_and_ends_before_the_turn(found: list) -> None:
    from grn.notation.writer import write_record

    puzzle = found[0].puzzle
    text = write_record(puzzle.record)
    again = grn.parse(text)[0]
    report = validate_record(again)
    assert not [d for d in report.diagnostics if d.severity == "error"]
    assert again.tag("End") == "now" and again.tag("Caption") == puzzle.question
    assert [t.number for t in again.turns] == [0, 1]  # the position: nothing after what the mover knew
    line = again.turns[-1].variations[0]
    assert [t.number for t in line.turns] == [1, 2]
    assert "[%solution]" in line.turns[-1].comments[0].text


def test_found_only_with_the_option(city: Path) -> None:
    """The record's turn 3 is the move yellow played: with --found a turn the player found may be a puzzle, never
    without (R397)."""
    record = grn.parse(city.read_text(encoding="utf-8"))[0]
    solved = record.replace(turns=record.turns[:2] + (record.turns[2].replace(
        actions=grn.parse(write_solution(record))[0].turns[2].actions),))
    assert list(mine_record(solved, Criteria(), FAST)) == []
    kept = [o for o in mine_record(solved, Criteria(found=True), FAST) if o.puzzle is not None]
    assert [o.turn for o in kept] == [2] and not kept[0].puzzle.missed


def write_solution(record: grn.Record) -> str:
    """The record's text with turn 2 played as the solution."""
    return _city_text().replace("2. red E@0,-1:180\n3. yellow U@2,0\n", "2. red E@0,4:180\n")


def test_json_by_its_schema(city: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    result = runner.invoke(grn.cli.app.app, ["puzzles", str(city), "--playouts", "60", "--confirm-rounds", "32",
                                         "--json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    schema = json.loads(resources.files("grn.schemas").joinpath("puzzles.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema)
    assert [p["answer"] for p in doc["puzzles"]] == ["E@0,4:180"]
    assert grn.parse(doc["puzzles"][0]["grn"])[0].tag("Puzzle") == doc["puzzles"][0]["id"]


def test_diagram_writes_an_svg_and_the_record(city: Path, tmp_path: Path) -> None:
    result = runner.invoke(grn.cli.app.app, ["puzzles", str(city), "--playouts", "60", "--confirm-rounds", "32",
                                         "--diagram", "-o", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    svgs = list((tmp_path / "d").glob("*.svg"))
    assert len(svgs) == 1 and svgs[0].read_text(encoding="utf-8").startswith("<svg")
    assert "Turn 2, Ada (red) to move" in svgs[0].read_text(encoding="utf-8")  # the question as its caption
    assert svgs[0].with_suffix(".grn").exists()


@pytest.mark.parametrize("args, words", [
    ([], "give record files or --archive DB"),
    (["x.grn", "--json", "--diagram", "-o", "d"], "give one"),
    (["x.grn", "--html"], "give it with -o DIR"),
    (["x.grn", "--win", "1.5"], "--win must be"),
    (["x.grn", "--level", "huge"], "--level must be one of"),
])
def test_usage_is_one_line(args: list[str], words: str) -> None:
    result = runner.invoke(grn.cli.app.app, ["puzzles", *args])
    assert result.exit_code == 2
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert len(lines) == 1 and words in lines[0] and lines[0].startswith("grn puzzles: ")


def test_puzzle_record_needs_a_played_turn_before(found: list, city: Path) -> None:
    """R395: the solution hangs off the turn before the puzzle, so a puzzle starts at turn 2."""
    from dataclasses import replace

    record = grn.parse(city.read_text(encoding="utf-8"))[0]
    with pytest.raises(ValueError, match="R395"):
        puzzle_record(record, replace(found[0].puzzle, turn=1))


# -- the verdict -------------------------------------------------------------

def _estimate(decision: str, samples: list[float]) -> Estimate:
    n = len(samples)
    mean = sum(samples) / n
    se = (sum((x - mean) ** 2 for x in samples) / (n - 1) / n) ** 0.5 if n > 1 else 0.0
    return Estimate(decision, mean, se, n, tuple(samples))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.floats(-30, 30), min_size=8, max_size=8), min_size=2, max_size=5),
       st.floats(0.5, 10))
def test_the_verdict_gap_is_the_smallest_paired_gap(rows: list[list[float]], points: float) -> None:
    """The best beats every other by at least its gap; a puzzle by points exactly when the gap reaches the
    threshold; unique exactly when every paired gap is past z standard errors (R398)."""
    estimates = [_estimate(f"m{i}", row) for i, row in enumerate(rows)]
    criteria = Criteria(points)
    v = verdict(estimates, criteria)
    best = next(e for e in estimates if e.decision == v.best)
    assert best.mean == max(e.mean for e in estimates)
    gaps = [sum(a - b for a, b in zip(best.samples, e.samples)) / 8 for e in estimates if e.decision != v.best]
    assert v.gap == pytest.approx(min(gaps), abs=1e-9)
    assert (v.by == "points") == (v.gap >= points)


def test_moves_of_one_answer_are_one_move() -> None:
    """R397: two moves of the same answer (a placement with or without a figure) do not make each other's gap."""
    a = _estimate("a+figure", [10.0, 11, 12, 10, 11, 12, 10, 11])
    b = _estimate("a", [9.0, 10, 11, 9, 10, 11, 9, 10])
    c = _estimate("c", [1.0, 2, 3, 1, 2, 3, 1, 2])
    plain = verdict([a, b, c], Criteria(6.0))
    assert plain.by is None and plain.gap == pytest.approx(1.0)
    grouped = verdict([a, b, c], Criteria(6.0), answer=lambda d: str(d)[0])
    assert grouped.by == "points" and grouped.unique and grouped.gap == pytest.approx(9.0)


# -- themes ------------------------------------------------------------------

@pytest.mark.parametrize("game", ["carcassonne", "goldrush", "gold"])
def test_each_game_names_its_themes(game: str) -> None:
    import importlib

    ruleset = games.find_ruleset(game)
    module = importlib.import_module(f"grn.games.{game}.themes")
    assert ruleset.puzzles.theme_names == module.THEMES


def test_gold_duel_and_blocked_miner() -> None:
    from grn.games.gold.commands import Card
    from grn.games.gold.rules import CardRemoved, CardsReturned
    from grn.games.gold.themes import themes

    duel = [CardRemoved("a1", Card("miner", 3, "red"), "defeated by the green miner 5 at b2"),
            CardsReturned(("b2",), (Card("miner", 5, "green"),), "won the duel")]
    assert themes(None, None, "green", (), duel) == ("duel",)
    blocked = [CardsReturned(("a1", "a2"), (Card("miner", 2, "red"), Card("gold", 4)),
                             "the miner is weaker than the gold")]
    assert themes(None, None, "red", (), blocked) == ("blocked miner",)


# -- the trainer page (one browser walk) ----------------------------------------

def test_trainer_page_is_solved_by_tapping(found: list, tmp_path: Path, browser) -> None:
    """The static page of ``grn puzzles --html``: a wrong square is said to be wrong with the solution shown; the
    next time, tapping the solution's square (one rotation fits there) solves it."""
    import shutil

    if shutil.which("chromium") is None:
        pytest.skip("chromium not installed: browser tests skipped (apt-get install chromium)")
    from grn.render.trainer import trainer_page

    puzzle = found[0].puzzle
    page_file = tmp_path / "index.html"
    page_file.write_text(trainer_page([puzzle, puzzle]), encoding="utf-8")
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_file.as_uri())
    assert page.text_content("#question") == puzzle.question
    wrong = page.locator("#board g.legal[data-xy='0,-1']")
    wrong.scroll_into_view_if_needed()
    wrong.click()
    page.locator("#rotations button[data-rotation='180']").click()
    said = page.text_content("#verdict")
    assert said.startswith("Not this one (E@0,-1:180)") and puzzle.solution in said
    page.click("#next")
    square = page.locator("#board g.legal[data-xy='0,4']")
    square.scroll_into_view_if_needed()
    box = square.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    said = page.text_content("#verdict")
    assert said.startswith("Solved: ") and "close a city" in said
    assert page.text_content("#score") == "1 of 2 solved"
    assert not errors
    page.close()


def test_from_an_archive_and_kept_in_it(city: Path, tmp_path: Path) -> None:
    """``--archive DB`` reads the archive's valid games; ``--keep DB`` keeps the puzzles found (once)."""
    db = tmp_path / "club.db"
    added = runner.invoke(grn.cli.app.app, ["archive", "add", "-q", str(db), str(city)])
    assert added.exit_code == 0, added.output
    args = ["puzzles", "--archive", str(db), "--playouts", "60", "--confirm-rounds", "32", "--keep", str(db)]
    result = runner.invoke(grn.cli.app.app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [p["source"] for p in doc["puzzles"]] == [f"{db}#1"]
    assert "1 new puzzle kept" in result.stderr
    again = runner.invoke(grn.cli.app.app, [*args, "-o", str(tmp_path / "p.grn")])
    assert "0 new puzzles kept" in again.stderr


@pytest.mark.parametrize("example, player, theme", [
    ("rulebook-mountain-7.grn", "yellow", "mountain tokens"),
    ("rulebook-railroad-locomotive-8.grn", "blue", "locomotive"),
    ("rulebook-city-6.grn", "blue", "close a city"),
])
def test_gold_rush_themes_of_the_rulebook_examples(example: str, player: str, theme: str) -> None:
    """The last turn of a rulebook example, played on the position before it: the game's hook names its theme
    from the score events."""
    from grn.analysis.judge import replay

    record = next(iter(grn.read(str(Path(__file__).resolve().parent.parent / "examples" / example))))
    ruleset, seats, line = replay(record)
    turn, before = line[-1]
    after = before.copy()
    events = after.play_turn(player, turn.actions)
    assert theme in ruleset.puzzles.themes(before, after, player, turn.actions, events)
