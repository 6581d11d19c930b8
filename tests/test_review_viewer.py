"""An analysed record seen by a player (issue 21, item 7): the viewer's evaluation chart, judgements and
best move, the accuracy per player, and ``grn render --best`` -- all read back from the record that
``grn analyse --format grn`` wrote, never analysed again.  Small budgets: a few seconds in all."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn
from grn.cli.app import app
from grn.render import render_html
from grn.render.html import viewer_data
from grn.analysis.judge import Thresholds
from grn.analysis.review import read_review

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CHROMIUM = shutil.which("chromium")
runner = CliRunner()


def analysed(tmp: Path, name: str, *extra: str) -> Path:
    """``examples/name`` analysed by ``grn analyse --format grn`` at a tiny budget."""
    out = tmp / f"analysed-{name}"
    result = runner.invoke(app, ["analyse", str(EXAMPLES / name), "--format", "grn", "--playouts", "6",
                                 "--seed", "3", "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def city(tmp_path_factory) -> Path:
    # the rulebook's completed city: the player forgot the cowboy that scores the city, a blunder
    # (measured on fresh worlds, R141, the loss at this tiny budget is about 10 points: thresholds to match)
    return analysed(tmp_path_factory.mktemp("city"), "rulebook-city-6.grn", "--thresholds", "2,4,8")


@pytest.fixture(scope="module")
def gold(tmp_path_factory) -> Path:
    # z = 0: at six playouts a move of this well-played record is never two standard errors from the best
    # contender on fresh worlds (R181), and this fixture is about showing judgements, not about making them
    return analysed(tmp_path_factory.mktemp("gold"), "gold-2p.grn", "--thresholds", "0.25,0.5,1,0")


def test_the_viewer_reads_the_review_back_from_the_record_and_matches_the_analysis(gold, city):
    record = grn.parse(gold.read_text())[0]
    game = viewer_data(render_html([record], file_name="g.grn"))["games"][0]
    review = read_review(record)
    assert review is not None
    # the per-player summary the page shows is the analysis's own, from the one-decimal figures it wrote
    fresh = grn.analyse(grn.parse((EXAMPLES / "gold-2p.grn").read_text())[0], playouts=6, seed=3,
                        thresholds=Thresholds(0.25, 0.5, 1, 0))
    for row, player in zip(game["review"], fresh.players):
        assert row[0] == player.player
        assert row[1] == player.moves
        assert row[4:] == [player.inaccuracies, player.mistakes, player.blunders]
        assert abs(row[2] - player.average_points_lost) < 0.06
    judged = [n for n in game["nodes"] if n.get("v") and n["v"][5]]
    assert judged and all(n.get("g") for n in judged)
    # the [%eval] comment is told in words, not shown raw; each main-line turn carries its figures
    assert not any("[%eval" in c for n in game["nodes"] for c in n.get("c", ()))
    assert all("v" in n for n in game["nodes"] if n.get("n") and not n["d"])
    # the best-move variation is marked as the analysis's, its "[%best]" mark hidden (a tile game's: Gold's best
    # may turn a card nobody has seen, or react to it (R140), which no variation can write)
    tiles = viewer_data(render_html(grn.parse(city.read_text()), file_name="c.grn"))["games"][0]
    best = [n for n in tiles["nodes"] if n.get("b")]
    assert best and not any("[%best]" in c for n in best for c in n.get("c", ()))


def test_golds_luck_bar_weighs_the_cards_turned_and_a_tile_games_the_draw(gold, city):
    # R453, R456: Gold's review carries the luck of each card turned, and the page names it in Gold's words
    game = viewer_data(render_html([grn.parse(gold.read_text())[0]], file_name="g.grn"))["games"][0]
    assert game["lw"] == ["luck of the cards", "the cards turned against what the cards not seen yet could have shown"]
    lucks = [n["v"][8] for n in game["nodes"] if n.get("v") and not n.get("d")]
    assert lucks and all(x is not None for x in lucks)
    assert any(x > 0 for x in lucks) and any(x < 0 for x in lucks)
    # turn 7 turns two cards seen before: nothing left to chance
    assert next(n["v"][8] for n in game["nodes"] if n.get("n") == 7 and not n.get("d")) == 0
    tiles = viewer_data(render_html(grn.parse(city.read_text()), file_name="c.grn"))["games"][0]
    assert "lw" not in tiles  # the page's own words, the tile drawn


def test_an_unanalysed_record_shows_no_analysis_and_a_malformed_evaluation_is_a_problem_line():
    text = (EXAMPLES / "gold-2p.grn").read_text()
    plain = viewer_data(render_html(grn.parse(text), file_name="g.grn"))["games"][0]
    assert "review" not in plain and not any("v" in n for n in plain["nodes"])
    bad = text.replace("score red=0 green=0", "{[%eval played=oops]} score red=0 green=0", 1)
    game = viewer_data(render_html(grn.parse(bad), file_name="g.grn"))["games"][0]
    assert any("cannot read the analysis" in p[1] and re.search(r"line \d+, column \d+", p[1])
               for p in game["problems"])


def test_render_best_draws_the_best_tile_as_a_ghost_on_the_judged_turn(city, tmp_path):
    plain = runner.invoke(app, ["render", str(city), "--turn", "1"])
    best = runner.invoke(app, ["render", str(city), "--best"])
    assert best.exit_code == 0, best.output
    assert 'class="ghost"' in best.stdout and 'class="ghost"' not in plain.stdout
    # the cowboy the best move puts on the city's north is ringed too
    assert best.stdout.count("markup highlight feature") == plain.stdout.count("markup highlight feature") + 1
    # the viewer draws the same on its turn-1 board
    game = viewer_data(render_html(grn.parse(city.read_text()), file_name="c.grn"))["games"][0]
    turn1 = next(n for n in game["nodes"] if n.get("n") == 1 and not n["d"])
    assert turn1["v"][5] == "blunder" and re.fullmatch(r"47a@-1,0(:\d+)? \+[NESW]", turn1["bm"])
    assert "cowboy" in turn1["bw"]


@pytest.mark.parametrize("args, code, words", [
    (["examples/gold-2p.grn"], 1, "the record is not analysed"),
    (["CITY", "--turn", "2"], 1, "turn 2 was not analysed"),
    (["CITY", "--turn", "1(1)1"], 2, "--turn takes a number"),
])
def test_render_best_says_in_one_line_why_it_cannot(city, args, code, words):
    args = [str(city) if a == "CITY" else str(EXAMPLES.parent / a) if a.startswith("examples/") else a
            for a in args]
    result = runner.invoke(app, ["render", *args, "--best"])
    assert result.exit_code == code
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and ": error: game 1: --best:" in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed: browser tests skipped (apt-get install chromium)")
def test_a_player_reads_the_evaluation_chart_and_jumps_to_a_blunder(gold, tmp_path, open_page):
    page_file = tmp_path / "gold.html"
    result = runner.invoke(app, ["html", str(gold), "-o", str(page_file)])
    assert result.exit_code == 0, result.output
    page = open_page(page_file.as_uri(), height=900)  # the fixture fails the test on any script error
    chart = page.locator(".grn-evalchart svg.eval-chart")
    assert chart.get_attribute("role") == "img"
    # beside it the luck bar (R453, R456): Gold's cards turned, in Gold's words
    luck = page.locator(".grn-evalchart svg.luck-chart")
    assert luck.get_attribute("aria-label").startswith("Luck of the cards, turn by turn: ")
    assert luck.locator("rect title").first.text_content().startswith("turn ")
    assert "Judged moves: turn" in chart.get_attribute("aria-label")
    # one line per player, told apart by dash as well as colour
    series = chart.locator("polyline.series")
    assert series.count() == 2
    assert {series.nth(0).get_attribute("stroke-dasharray"), series.nth(1).get_attribute("stroke-dasharray")} \
        == {None, "6 3"}
    assert series.nth(0).get_attribute("stroke") != series.nth(1).get_attribute("stroke")
    # the judgements in words and signs in the move list
    assert page.locator(".grn-moves .grn-judge").count() >= 1
    blunder = page.locator(".grn-moves .grn-mv", has=page.locator(".grn-judge.grn-blunder")).first
    assert "??" in blunder.inner_text() and "blunder" in blunder.inner_text()
    # a click on a judged point goes to its turn, which tells the loss and the best move
    dot = chart.locator("circle.judged.blunder").first
    said = dot.locator("title").text_content()
    turn = re.match(r"turn (\d+)", said).group(1)
    dot.click()
    assert page.locator(".grn-notation").inner_text().startswith(f"{turn}. ")
    verdict = page.locator(".grn-turneval").inner_text()
    assert "Blunder" in verdict and "Expected final margin after the move played" in verdict
    # the summary per player: accuracy as a percentage and the counts
    rows = page.locator(".grn-summary tbody tr")
    assert rows.count() == 2 and "%" in rows.nth(0).inner_text()


def test_site_pages_and_embeds_of_an_analysed_record_carry_its_review(city, tmp_path):
    site = tmp_path / "site"
    result = runner.invoke(app, ["site", str(city), "-o", str(site)])
    assert result.exit_code == 0, result.output
    pages = [p for p in site.rglob("*.html") if p.name != "index.html"]
    assert pages
    game = viewer_data(pages[0].read_text())["games"][0]
    assert game["review"][0][0] == "blue" and game["review"][0][6] == 1  # blue's one blunder
    embed = runner.invoke(app, ["html", str(city), "--embed"])
    assert embed.exit_code == 0, embed.output
    assert 'class="grn-evalchart"' in embed.stdout
    assert viewer_data(embed.stdout)["games"][0]["review"] == game["review"]
