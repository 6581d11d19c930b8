"""A real browser opens what grn draws: pictures are not blank and record text never runs as script.

Uses Debian's chromium, headless.  CI installs it with
``apt-get update && apt-get install -y --no-install-recommends chromium``; without it
these tests are skipped with a visible message.
"""

from __future__ import annotations

import io
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from grn.rules.position import position_at
from grn.render import render_html, render_svg
from grn.games.goldrush import selfplay as selfplay_goldrush
from grn.rules.selfplay import to_record

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="chromium not installed: browser tests skipped (apt-get install chromium)")

HOSTILE_SCRIPT = "<script>document.title='PWNED';document.body.id='pwned'</script>"
HOSTILE_ATTR = "\"><img src=x onerror=document.title='PWNED' id=pwned>"


@pytest.fixture(autouse=True)
def _need_chromium():
    if CHROMIUM is None:
        pytest.skip("chromium not installed: browser tests skipped (apt-get install chromium)")


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--hide-scrollbars", f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=90)


def screenshot(tmp_path: Path, url: str, name: str, size: tuple[int, int] = (900, 700)) -> bytes:
    png = tmp_path / name
    chromium(tmp_path, f"--screenshot={png}", f"--window-size={size[0]},{size[1]}", url)
    assert png.exists(), "chromium wrote no screenshot"
    return png.read_bytes()


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered rows of an 8-bit RGB/RGBA PNG (stdlib only)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for r in range(height):
        f = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(x for j, x in enumerate(line) if j % 4 != 3))
        prev = line
    return width, height, rows


def assert_not_blank(png: bytes, size: tuple[int, int]) -> None:
    width, height, rows = decode_png(png)
    assert (width, height) == size
    colours = set()
    for row in rows[::7]:
        for i in range(0, len(row), 3 * 5):
            colours.add(row[i:i + 3])
    assert len(colours) >= 12, f"the picture looks blank: {len(colours)} colours"
    top = max(sum(1 for row in rows[::7] for i in range(0, len(row), 15) if row[i:i + 3] == c)
              for c in list(colours)[:50])
    assert top < 0.9 * sum(len(row) // 15 + 1 for row in rows[::7])


@pytest.fixture(scope="module")
def record():
    return to_record(selfplay_goldrush.play(2, 1), seed=1)


def test_a_position_draws_in_the_browser(tmp_path, record):
    svg = tmp_path / "position.svg"
    svg.write_text(render_svg(position_at(record, 40), width=880), encoding="utf-8")
    assert_not_blank(screenshot(tmp_path, svg.as_uri(), "position.png"), (900, 700))


def hostile_record(record):

    from grn.core.record import Comment, Markup, MarkupText

    rec = record.with_tags(Players=f"{HOSTILE_SCRIPT} (red), {HOSTILE_ATTR} (yellow)", Event=HOSTILE_ATTR)
    turns = list(rec.turns)
    turns[4] = turns[4].replace(extras=turns[4].extras + (
        Comment(HOSTILE_SCRIPT + " </script><!--<script> " + HOSTILE_ATTR),
        Markup("label", ("0,0", MarkupText(HOSTILE_SCRIPT)))))
    return rec.replace(turns=tuple(turns))


def test_the_page_draws_in_the_browser(tmp_path, record):
    page = tmp_path / "games.html"
    page.write_text(render_html([record], file_name="games.grn"), encoding="utf-8")
    assert_not_blank(screenshot(tmp_path, page.as_uri() + "#game=1&turn=30", "page.png"), (900, 700))


# ----------------------------------------------------------------------------
# the viewer, driven: keys, clicks, variations, links, embeds, the site
# ----------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


#: The size of a page the tests open (the browser and open_page fixtures are tests/conftest.py's).
VIEWPORT = (1100, 900)


@pytest.fixture(scope="module")
def example_page(tmp_path_factory):
    import grn

    records = list(grn.read(open(EXAMPLES / "goldrush-2p.grn", encoding="utf-8")))
    path = tmp_path_factory.mktemp("viewer") / "goldrush-2p.html"
    path.write_text(render_html(records, file_name="goldrush-2p.grn"), encoding="utf-8")
    return path


def label(page) -> str:
    return page.inner_text(".grn-label")


def test_record_text_never_runs_in_the_page(tmp_path, record, open_page):
    path = tmp_path / "games.html"
    path.write_text(render_html([hostile_record(record)], file_name="games.grn"), encoding="utf-8")
    page = open_page(path.as_uri() + "#game=1&turn=5")  # after turn 5: the hostile comment and label
    assert page.title() == "grn: games.grn"
    assert page.evaluate("document.body.id") != "pwned"
    assert page.locator("img").count() == 0
    assert page.locator("script").count() == 1  # the viewer's own
    assert label(page).startswith("Turn 5, ")
    # the script ran and shows the hostile text literally: in the comments and the player names
    assert HOSTILE_SCRIPT in page.inner_text(".grn-comments")
    assert HOSTILE_SCRIPT in page.inner_text(".grn-scores")
    assert "<script" not in page.inner_html(".grn-comments")
    assert page.locator(".grn-board svg title").count() > 0  # the picture is drawn, its text escaped


def test_keys_and_clicks_step_through_the_game_and_the_address_follows(example_page, open_page):
    page = open_page(example_page.as_uri())
    assert label(page) == "Start"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert label(page).startswith("Turn 2, ")
    assert page.url.endswith("#game=1&turn=2")
    page.locator('.grn-mv[data-node]', has_text="10.").first.click()
    assert label(page).startswith("Turn 10, ") and page.url.endswith("#game=1&turn=10")
    current = page.locator('.grn-mv[aria-current="step"]')
    assert current.count() == 1 and current.inner_text().startswith("10.")
    assert page.evaluate("document.activeElement.getAttribute('aria-current')") == "step"  # focus follows
    page.keyboard.press("End")
    assert label(page).startswith("Final scoring") and page.url.endswith("&turn=final")
    assert page.locator(".grn-events li").count() > 0  # the final scoring's events
    assert page.locator(".grn-chart polyline").count() == 2  # the score chart: a line per player
    cursor = page.locator(".grn-chart .cursor")
    at_end = float(cursor.get_attribute("x1"))
    page.keyboard.press("Home")
    assert label(page) == "Start"
    assert float(cursor.get_attribute("x1")) < at_end  # the chart's cursor follows
    page.click(".grn-next")
    assert label(page).startswith("Turn 1, ")
    page.click(".grn-last")
    assert label(page).startswith("Final scoring")


def test_entering_and_leaving_a_variation(example_page, open_page):
    page = open_page(example_page.as_uri() + "#game=1&turn=30")
    assert label(page).startswith("Turn 30, ") and page.inner_text(".grn-where") == "Main line"
    main_board = page.inner_html(".grn-board")
    page.keyboard.press("ArrowDown")  # the variation instead of turn 30
    assert page.url.endswith("&turn=30(1)30")
    assert "In a variation" in page.inner_text(".grn-where")
    assert page.inner_html(".grn-board") != main_board  # 61 lies elsewhere
    assert "the city also fits" in page.inner_text(".grn-comments")
    page.keyboard.press("ArrowUp")  # back to the main line's turn 30
    assert page.url.endswith("&turn=30") and page.inner_html(".grn-board") == main_board
    # the variation is in the move list, indented, and playable by a click; left leaves it
    variation = page.locator(".grn-var .grn-mv")
    assert variation.count() == 1
    variation.click()
    assert page.url.endswith("&turn=30(1)30")
    page.keyboard.press("ArrowLeft")
    assert label(page).startswith("Turn 29, ") and page.inner_text(".grn-where") == "Main line"


def test_a_deep_link_opens_its_position(example_page, open_page):
    page = open_page(example_page.as_uri() + "#game=1&turn=30(1)30")
    assert label(page).startswith("Turn 30, ") and "In a variation" in page.inner_text(".grn-where")
    page = open_page(example_page.as_uri() + "#game=1&turn=12")
    assert label(page).startswith("Turn 12, ")
    assert page.locator('.grn-mv[aria-current="step"]').inner_text().startswith("12.")
    # the move list shows the current move, however far down the list it is
    page = open_page(example_page.as_uri() + "#game=1&turn=30")
    seen = page.evaluate("""() => { const b = document.querySelector('.grn-mv[aria-current="step"]');
        const box = b.closest('.grn-moves') || b.parentElement.closest('[class*=moves]');
        const r = b.getBoundingClientRect(), m = box.getBoundingClientRect();
        return r.top >= m.top && r.bottom <= m.bottom; }""")
    assert seen


def test_the_board_is_drawn_and_readable_on_a_phone(example_page, open_page, tmp_path):
    page = open_page(example_page.as_uri() + "#game=1&turn=40", width=420, height=800)
    assert page.evaluate("document.documentElement.scrollWidth") <= 420  # no sideways scrolling
    board = page.locator(".grn-board")
    assert board.bounding_box()["width"] <= 420
    png = board.screenshot()
    assert_not_blank(png, decode_png(png)[:2])
    # what a screen reader is told: the board, the buttons and the position, in words
    assert "after Turn 40" in board.get_attribute("aria-label")
    assert page.get_attribute(".grn-next", "aria-label") == "next move (right arrow)"
    assert "Turn 40" in page.inner_text(".grn-status")


def test_two_embeds_on_one_page_work_independently_and_leak_no_globals(tmp_path, open_page):
    import grn

    goldrush = list(grn.read(open(EXAMPLES / "goldrush-2p.grn", encoding="utf-8")))
    gold = list(grn.read(open(EXAMPLES / "gold-2p.grn", encoding="utf-8")))
    host = tmp_path / "forum.html"
    host.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'><title>forum</title></head><body>"
                    "<p>First post</p>" + render_html(goldrush, file_name="a.grn", embed=True)
                    + "<p>Second post</p>" + render_html(gold, file_name="b.grn", embed=True)
                    + "<p>Third post</p>" + render_html(goldrush, file_name="a.grn", embed=True)
                    + "</body></html>", encoding="utf-8")
    (tmp_path / "blank.html").write_text("<!DOCTYPE html><html><body><p>no viewer</p></body></html>")
    blank = open_page((tmp_path / "blank.html").as_uri())
    globals_before = set(blank.evaluate("Object.keys(window)"))
    page = open_page(host.as_uri())
    assert set(page.evaluate("Object.keys(window)")) == globals_before
    viewers = page.locator(".grn-viewer")
    assert viewers.count() == 3
    first, second, third = (viewers.nth(k) for k in range(3))
    first.locator(".grn-next").click()
    first.locator(".grn-next").click()
    second.locator(".grn-next").click()
    assert first.locator(".grn-label").inner_text().startswith("Turn 2, ")
    assert second.locator(".grn-label").inner_text().startswith("Turn 1, ")
    assert third.locator(".grn-label").inner_text() == "Start"
    # keys go to the viewer that has the focus, and the host page's address is left alone
    third.locator(".grn-mv").first.focus()
    page.keyboard.press("ArrowRight")
    assert third.locator(".grn-label").inner_text().startswith("Turn 1, ")
    assert first.locator(".grn-label").inner_text().startswith("Turn 2, ")
    assert "#" not in page.url
    for k in range(3):  # each board draws its own tile art
        png = viewers.nth(k).locator(".grn-board").screenshot()
        assert_not_blank(png, decode_png(png)[:2])


def test_the_site_index_filters_and_sorts(tmp_path, open_page):
    from typer.testing import CliRunner

    from grn.cli.app import app

    files = [str(EXAMPLES / n) for n in ("goldrush-2p.grn", "gold-2p.grn", "goldrush-first-game.grn",
                                         "gold-3p-match.grn")]
    result = CliRunner().invoke(app, ["site", *files, "-o", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    page = open_page((tmp_path / "site" / "index.html").as_uri())
    rows = page.locator("#games tbody tr")
    total = rows.count()
    assert total >= 4
    page.fill("#filter", "THURSDAY")  # the games of the Thursday club, whatever the case
    shown = [r for r in range(total) if rows.nth(r).is_visible()]
    assert 0 < len(shown) < total
    assert page.inner_text("#shown") == f"{len(shown)} of {total} games shown"
    page.fill("#filter", "")
    page.click("th:nth-child(3) button")  # by date
    assert page.get_attribute("th:nth-child(3)", "aria-sort") == "ascending"
    dates = [rows.nth(r).locator("td").nth(2).inner_text() for r in range(total)]
    assert dates == sorted(dates)
    page.click("th:nth-child(3) button")
    dates = [rows.nth(r).locator("td").nth(2).inner_text() for r in range(total)]
    assert dates == sorted(dates, reverse=True)
    # each game's page is a viewer that links back to the index
    page.click("#games tbody tr:first-child td:nth-child(4) a")
    assert page.locator(".grn-viewer").count() == 1 and label(page) == "Start"
    page.click("text=\u2190 Games")
    assert page.title() == "Games"


def test_focus_order_labels_and_marks_that_are_not_colour_alone(tmp_path, open_page):
    text = (EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8")
    path = tmp_path / "bad.grn.html"
    import grn

    bad = list(grn.read(io.StringIO(text.replace("score red=2 yellow=0", "score red=9 yellow=0", 1))))
    path.write_text(render_html(bad, file_name="bad.grn"), encoding="utf-8")
    page = open_page(path.as_uri() + "#game=1&turn=5")
    # Tab goes through the four buttons, then to the current move (one stop for the whole list)
    order = []
    for _ in range(5):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.getAttribute('aria-label') || "
                                   "document.activeElement.textContent"))
    assert order[:4] == ["first position (Home)", "previous move (left arrow)", "next move (right arrow)",
                         "last position of this line (End)"]
    assert order[4].startswith("5. ")
    page.keyboard.press("ArrowRight")  # keys work from the move list, and focus stays on the current move
    assert page.evaluate("document.activeElement.textContent").startswith("6. ")
    # the current move is marked by a sign and bold type as well as colour
    marker = page.evaluate("getComputedStyle(document.querySelector('.grn-mv[aria-current]'), '::before').content")
    assert "\u25b6" in marker
    # a turn with a problem says so in words, in the list and beside the board
    flagged = page.locator(".grn-mv", has=page.locator(".grn-flag"))
    assert flagged.count() == 1 and "problem" in flagged.inner_text()
    flagged.click()
    assert "score checkpoint" in page.inner_text(".grn-problems")
    assert "not valid" in page.inner_text(".grn-validity")


def test_the_site_index_escapes_record_text(tmp_path, record, open_page):
    from grn.render.site import SiteGame, write_site
    from grn.check.validate import validate_record

    rec = hostile_record(record)
    write_site([SiteGame(rec, validate_record(rec), "x.grn")], tmp_path / "site")
    page = open_page((tmp_path / "site" / "index.html").as_uri())
    assert page.evaluate("document.body.id") != "pwned" and page.locator("img").count() == 0
    assert HOSTILE_ATTR in page.inner_text("#games")
    page = open_page((tmp_path / "site" / "games" / "1.html").as_uri() + "#game=1&turn=5")
    assert page.evaluate("document.body.id") != "pwned" and page.locator("img").count() == 0
    assert HOSTILE_SCRIPT in page.inner_text(".grn-comments")


def test_glyphs_inline_and_the_game_picker_follows_the_address(tmp_path, open_page):
    import grn

    four = list(grn.read(open(EXAMPLES / "goldrush-4p-farmers.grn", encoding="utf-8")))
    path = tmp_path / "four.html"
    path.write_text(render_html(four, file_name="four.grn"), encoding="utf-8")
    page = open_page(path.as_uri() + "#game=1&turn=20")
    assert page.locator('.grn-mv[aria-current="step"] .grn-glyph').inner_text().strip() == "!?"
    assert label(page).endswith("!?")
    assert "closes the city's last railroad" in page.inner_text(".grn-mv[aria-current] + .grn-comment")

    match = list(grn.read(open(EXAMPLES / "gold-3p-match.grn", encoding="utf-8")))
    path = tmp_path / "match.html"
    path.write_text(render_html(match, file_name="match.grn"), encoding="utf-8")
    page = open_page(path.as_uri() + "#game=2&turn=3")
    assert page.input_value(".grn-game") == "1" and label(page).startswith("Turn 3, ")
    page.select_option(".grn-game", "2")
    assert label(page) == "Start" and page.url.endswith("#game=3&turn=0")
    page.evaluate("location.hash = '#game=1&turn=4'")
    page.wait_for_function("document.querySelector('.grn-label').textContent.startsWith('Turn 4')")
    assert page.input_value(".grn-game") == "0"
