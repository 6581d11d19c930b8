"""What users see, round two (issue 22, points 1-3, and the position's aids of issue 21, item 8), in a real
browser: Debian's chromium driven by playwright, as tests/test_browser.py does."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="chromium not installed: browser tests skipped (apt-get install chromium)")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def read(name: str):
    import grn

    with open(EXAMPLES / name, encoding="utf-8") as f:
        return list(grn.read(f))


def test_a_clicked_embed_takes_the_arrow_keys_and_keeps_them_after_the_last_move(tmp_path, open_page):
    from grn.render import render_html

    goldrush = read("goldrush-2p.grn")
    host = tmp_path / "forum.html"
    host.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'><title>forum</title></head><body>"
                    "<p>First post</p>" + render_html(goldrush, file_name="a.grn", embed=True)
                    + "<p>Second post</p>" + render_html(goldrush, file_name="b.grn", embed=True)
                    + "</body></html>", encoding="utf-8")
    page = open_page(host.as_uri())
    first, second = page.locator(".grn-viewer").nth(0), page.locator(".grn-viewer").nth(1)

    def label(v):
        return v.locator(".grn-label").inner_text()

    first.locator(".grn-board").click()  # a forum reader clicks the board ...
    page.keyboard.press("ArrowRight")  # ... and uses the arrows
    page.keyboard.press("ArrowRight")
    assert label(first).startswith("Turn 2, ") and label(second) == "Start"
    first.locator(".grn-last").click()  # the button disables itself at the end: the keys stay with the viewer
    assert label(first).startswith("Final scoring")
    assert first.locator(".grn-last").is_disabled()
    page.keyboard.press("ArrowLeft")
    assert not label(first).startswith("Final scoring")
    assert page.evaluate("document.activeElement.closest('.grn-viewer') !== null")
    second.locator(".grn-board").click()  # the other embed keeps its own keys
    before = label(first)
    page.keyboard.press("ArrowRight")
    assert label(second).startswith("Turn 1, ") and label(first) == before
    assert "#" not in page.url  # the host's address is left alone
    # the keyboard alone: Tab reaches the viewer itself, which says what the keys do
    page.keyboard.press("Home")
    assert label(second) == "Start"
    assert "arrow keys" in (second.get_attribute("aria-label") or "")


def test_the_site_index_of_a_mixed_archive_filters_by_game_and_sorts_results_by_the_numbers(tmp_path, open_page):
    from typer.testing import CliRunner

    from grn.cli.app import app

    files = [str(p) for p in sorted(EXAMPLES.glob("*.grn")) + sorted((EXAMPLES / "carcassonne").glob("*.grn"))]
    result = CliRunner().invoke(app, ["site", *files, "-o", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    page = open_page((tmp_path / "site" / "index.html").as_uri())
    heads = [h.strip() for h in page.locator("#games thead th").all_inner_texts()]
    assert "Game" in heads and "Winner" in heads
    game_col, result_col, winner_col = heads.index("Game"), heads.index("Result"), heads.index("Winner")
    rows = page.locator("#games tbody tr")
    total = rows.count()

    def column(col: int, visible_only: bool = True) -> list[str]:
        return [rows.nth(r).locator("td").nth(col).inner_text() for r in range(total)
                if not visible_only or rows.nth(r).is_visible()]

    carcassonne = sum(1 for g in column(game_col) if g == "Carcassonne")
    assert 0 < carcassonne < total
    page.select_option("#game", "carcassonne")  # only the games of Carcassonne with The Gold Mines
    assert column(game_col) == ["Carcassonne"] * carcassonne
    assert page.inner_text("#shown") == f"{carcassonne} of {total} games shown"
    page.select_option("#game", "")
    page.fill("#filter", "goldrush")  # the Game tag's word finds Gold Rush's games
    assert set(column(game_col)) == {"Carcassonne: Gold Rush (goldrush)"}
    page.fill("#filter", "")
    # the winner: the name and colour of whoever has the most points of the Result
    (anna_ben,) = [r for r in range(total) if rows.nth(r).locator("td").nth(result_col).inner_text()
                   == "red 33, yellow 42"]
    assert "(yellow)" in rows.nth(anna_ben).locator("td").nth(winner_col).inner_text()
    # sorting by Result goes by the winning score, not by the text ("red 10" would come before "red 9")
    page.click(f"th:nth-child({result_col + 1}) button")
    import re

    def top(text: str) -> int:
        numbers = [int(n) for n in re.findall(r"\b\d+\b", text)]
        return max(numbers) if numbers else -1

    tops = [top(t) for t in column(result_col)]
    assert tops == sorted(tops) and len(set(tops)) > 3
    page.click(f"th:nth-child({result_col + 1}) button")
    assert [top(t) for t in column(result_col)] == sorted(tops, reverse=True)
    page.click(f"th:nth-child({winner_col + 1}) button")  # the Winner column sorts too
    assert page.get_attribute(f"th:nth-child({winner_col + 1})", "aria-sort") == "ascending"
    winners = [w for w in column(winner_col) if w]
    assert winners[0].lower() <= winners[-1].lower()


@pytest.fixture(scope="module")
def big_board_page(tmp_path_factory):
    """A finished two-player Carcassonne game with The Gold Mines: 80 tiles on the board."""
    from grn import games
    from grn.render import render_html
    from grn.rules.selfplay import to_record

    ruleset = games.find_ruleset("carcassonne")
    record = to_record(ruleset.selfplay(2, 3, ruleset.parse_options({"goldmines": "on"})), seed=3)
    path = tmp_path_factory.mktemp("big") / "big.html"
    path.write_text(render_html([record], file_name="big.grn"), encoding="utf-8")
    return path, record


def test_names_scores_pieces_and_coordinates_stay_readable_on_a_full_board(big_board_page, open_page):
    path, record = big_board_page
    last = max(t.number for t in record.turns)
    assert last >= 70
    page = open_page(path.as_uri() + f"#game=1&turn={last}", width=1280, height=800)
    sizes = page.evaluate("""() => {
        const px = e => parseFloat(getComputedStyle(e).fontSize);
        const v = document.querySelector('.grn-viewer');
        const names = [...v.querySelectorAll('.grn-scores th')].map(px);
        const scores = [...v.querySelectorAll('.grn-scores .grn-score')].map(px);
        const pieces = [...v.querySelectorAll('.grn-pieces td')].map(px);
        const coords = [...v.querySelectorAll('.grn-board text.coord')].map(t => t.getBoundingClientRect().height);
        const board = v.querySelector('.grn-board svg').getBoundingClientRect();
        const column = v.querySelector('.grn-left').getBoundingClientRect();
        const tiles = v.querySelectorAll('.grn-board use.tile').length;
        return {names, scores, pieces, coords, tiles, board: [board.width, board.height], column: column.width,
                inBoard: v.querySelectorAll('.grn-board .panel').length, tall: innerHeight};
    }""")
    assert sizes["tiles"] >= 75
    assert sizes["inBoard"] == 0  # the panel is not drawn inside the board picture ...
    assert len(sizes["names"]) == 2 and min(sizes["names"]) >= 13  # ... but as text beside it
    assert min(sizes["scores"]) >= 13 and len(sizes["pieces"]) == 2 and min(sizes["pieces"]) >= 12
    pieces = page.locator(".grn-pieces").all_inner_texts()
    assert all("in supply" in p and "ingot" in p for p in pieces)
    assert min(sizes["coords"]) >= 10, sizes["coords"]  # the axis numbers too
    # the board fills its column (or the height the window gives it)
    width, height = sizes["board"]
    assert width >= 0.95 * sizes["column"] or height >= 0.78 * sizes["tall"]


def test_the_viewer_tells_the_projected_scores_and_the_squares_no_tile_left_can_fill(big_board_page, open_page):
    from grn.analysis.aids import position_aids
    from grn.rules.position import position_at

    path, record = big_board_page
    page = open_page(path.as_uri() + "#game=1&turn=40")
    position = position_at(record, 40)
    aids = position_aids(position)
    rows = page.locator(".grn-scores tr.grn-player")
    seats = record.seats()
    for j, seat in enumerate(seats):
        assert rows.nth(j).locator(".grn-proj").inner_text() == str(aids.projected[seat.key])
    assert page.inner_text(".grn-projhead") == "if it ended now"
    assert aids.projected != position.state.scores  # open features would score at the end
    text = page.inner_text(".grn-open")
    assert f"{len(aids.open)} open squares" in text
    some, count = next(iter(aids.open.items()))
    assert f"{some}: {count}" in text
    hole = aids.unfillable
    assert (("No tile left can fill " + ", ".join(hole)) if hole else "Every open square can still be filled") in text
    page.keyboard.press("End")  # after the final scoring there is nothing left to project
    assert page.inner_text(".grn-projhead") == "" and page.inner_text(".grn-open") == ""
