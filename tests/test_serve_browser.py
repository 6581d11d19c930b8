"""grn serve in a real browser (Debian's chromium through Playwright) at a phone's size: recording by tapping.

Skipped with a visible reason when chromium or the serve extra is missing (CI installs both).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")
pytest.importorskip("playwright", reason="playwright is in the test extra")

import grn  # noqa: E402
from grn.check.validate import validate_record  # noqa: E402
from serve_server import TOKEN, running  # noqa: E402

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="chromium not installed: browser tests skipped (apt-get install chromium)")
PHONE = {"width": 420, "height": 860}
HOSTILE = "<img src=x onerror=document.title='PWNED';document.body.id='pwned'>"

#: What tapping the first choice at every step records, written out by hand from the rules.
EXPECTED = {
    "goldrush": (f"{HOSTILE} (red), Ben (yellow)", "", ["1. red 01a@-1,0:90", "2. yellow 01a@-2,0:90"]),
    "carcassonne": ("Ann (red), Ben (blue)", "", ["1. red A@-1,0:270", "2. blue A@-2,0"]),
    "gold": ("Ann (red+yellow), Ben (green+blue)", "", ["1. red a1=G1 b1=G1", "2. green a1=G1 b1=G1"]),
}


def fill_players(page, players: str) -> None:
    """The New game form's rows filled as GRN's Players tag says: a name and one or two colours each."""
    import re

    seats = re.findall(r"(.*?) \(([^)]*)\)(?:, |$)", players)
    page.select_option("#newgame select[name=count]", str(len(seats)))
    for row, (name, colours) in zip(page.locator("#players .player-row").all(), seats):
        row.locator("input").fill(name)
        first, _, second = colours.partition("+")
        row.locator("select").nth(0).select_option(first)
        row.locator("select").nth(1).select_option(second)


def settled(page) -> bool:
    """True once the page has no state on its way (a step of one choice is taken by itself meanwhile)."""
    wait_until(page, lambda: not page.get_attribute("body", "data-busy"))
    return True


def wait_until(page, ok, timeout_ms: int = 20000) -> None:
    """Poll from Python (the page's CSP lets Playwright evaluate no script text)."""
    waited = 0
    while not ok():
        assert waited < timeout_ms, "the page did not change"
        page.wait_for_timeout(50)
        waited += 50


def tap_first_until_turn_done(page, *, keyboard: bool = False) -> None:
    """Tap the first choice offered (on the board when it is there) until the turn can be confirmed."""
    while not settled(page) or page.is_hidden("#confirm"):
        first = page.locator("#options button").first
        word = first.get_attribute("data-word")
        marks = page.locator("#board .markup-layer .highlight[data-word]")
        offered = set(page.locator("#options button").evaluate_all("bs => bs.map(b => b.dataset.word)"))
        # only what the engine offers can be tapped on the board: no other square is a target
        assert set(marks.evaluate_all("ms => ms.map(m => m.dataset.word)")) <= offered
        before = page.inner_text("#prompt")
        target = page.locator(f"#board .markup-layer .highlight[data-word='{word}']")
        if keyboard:
            first.focus()
            page.keyboard.press("Enter")
        elif target.count():
            target.first.click()
        else:
            first.click()
        wait_until(page, lambda: page.inner_text("#prompt") != before or not page.is_hidden("#confirm"))
    if keyboard:
        page.focus("#confirm")
        page.keyboard.press("Enter")
    else:
        page.click("#confirm")


@pytest.mark.parametrize("game", ["goldrush", "carcassonne", "gold"])
def test_record_by_tapping_on_a_phone(browser, tmp_path: Path, game: str):
    players, _, turns = EXPECTED[game]
    with running(tmp_path / "club.db") as base:
        page = browser.new_page(viewport=PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/?token={TOKEN}")
        page.wait_for_selector("#games")
        page.click("#to-new")
        page.select_option("#newgame select[name=game]", game)
        fill_players(page, players)
        page.fill("#newgame input[name=event]", HOSTILE)
        page.click("#newgame button[type=submit]")
        page.wait_for_selector("#options button")
        tap_first_until_turn_done(page)
        page.wait_for_selector("#moves li")
        # the phone is closed and opened again: the game comes back where it stopped
        page.reload()
        page.wait_for_selector("#moves li.here")
        tap_first_until_turn_done(page, keyboard=(game == "gold"))
        wait_until(page, lambda: page.locator("#moves li").count() == 2)
        page.fill("#note input[name=comment]", HOSTILE)
        page.click("#note button[type=submit]")
        wait_until(page, lambda: page.locator("#moves .comment").count() == 1)
        assert page.inner_text("#moves .comment") == HOSTILE
        assert page.title() != "PWNED" and page.locator("#pwned").count() == 0
        # written in the move list in words and in GRN
        assert page.locator("#moves .grn").all_inner_texts() == turns
        text = page.text_content("#grn") or ""
        assert errors == []
        page.close()
    (record,) = grn.notation.read.parse(text)
    assert [f"{t.number}. {t.player} " + " ".join(
        grn.notation.writer.command_text(a) for a in t.actions) for t in record.turns] == turns
    assert record.tag("Event") == HOSTILE and record.turns[-1].comments[0].text == HOSTILE
    assert validate_record(record).valid


def test_the_archive_page_lists_and_opens_the_viewer(browser, tmp_path: Path):
    with running(tmp_path / "club.db") as base:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{base}/?token={TOKEN}")
        page.wait_for_selector("#import")
        page.set_input_files("#import input[type=file]", "examples/goldrush-2p.grn")
        page.click("#import button[type=submit]")
        page.wait_for_selector("#games tbody tr")
        assert "Ada" in page.inner_text("#games tbody")
        page.click("#games tbody a")
        page.wait_for_selector(".grn-viewer .grn-board svg")
        assert "Thursday club night" in page.inner_text(".grn-viewer")
        page.close()


@pytest.mark.parametrize("game,cut", [("goldrush", 3), ("carcassonne", 3), ("gold", 4)])
def test_finish_a_game_by_tapping(browser, tmp_path: Path, game: str, cut: int):
    """A game opened from the archive a few turns before its end is tapped to its end: the last turns,
    the game over, the final scores; the saved record is whole and valid."""

    from grn import games
    from grn.rules.selfplay import to_record
    from grn.notation.writer import write_record

    record = to_record(games.find_ruleset(game).selfplay(2, 7))
    record = record.replace(tags=tuple((k, v) for k, v in record.tags if k != "Result"),
                     turns=record.turns[:-cut])
    with running(tmp_path / "club.db") as base:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{base}/?token={TOKEN}")
        page.wait_for_selector("#import")
        grn_file = tmp_path / "game.grn"
        grn_file.write_text(write_record(record))
        page.set_input_files("#import input[type=file]", str(grn_file))
        page.click("#import button[type=submit]")
        page.wait_for_selector("#games tbody tr")
        page.click("#games tbody button:has-text('Open')")
        page.wait_for_selector("#moves li")
        played = 0
        while not page.inner_text("#prompt").startswith("The game is over: "):
            assert played < 12, "the game did not end"
            count = page.locator("#moves li").count()
            tap_first_until_turn_done(page)
            wait_until(page, lambda: page.locator("#moves li").count() == count + 1)
            played += 1
        assert played >= 1
        assert "final" in page.inner_text("#scores")
        text = page.text_content("#grn") or ""
        page.close()
    (saved,) = grn.notation.read.parse(text)
    report = validate_record(saved)
    assert report.valid and report.complete
    assert saved.turns[:len(record.turns)] == record.turns


def test_evaluate_a_position_and_analyse_the_game_from_the_page(browser, tmp_path: Path):
    """The analysis panel: the best moves for the tile picked, drawn on a board; then the game analysed in the
    background and its review opened in the viewer."""
    with running(tmp_path / "club.db") as base:
        page = browser.new_page(viewport=PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/?token={TOKEN}")
        page.wait_for_selector("#games")
        page.click("#to-new")
        page.select_option("#newgame select[name=game]", "goldrush")
        fill_players(page, "Ann (red), Ben (yellow)")
        page.click("#newgame button[type=submit]")
        page.wait_for_selector("#options button")
        tap_first_until_turn_done(page)
        wait_until(page, lambda: page.locator("#moves li").count() == 1)
        # without the tile drawn the page says what it needs
        page.click("#evaluate")
        wait_until(page, lambda: "pick the tile drawn first" in page.inner_text("#analysis-status"))
        page.locator("#options button").first.click()
        wait_until(page, lambda: "Where does tile" in page.inner_text("#prompt"))
        page.click("#evaluate")
        wait_until(page, lambda: page.locator("#best-moves li").count() > 0)
        assert "Ben (yellow) to play" in page.inner_text("#analysis-status")
        assert "\u00b1" in page.inner_text("#best-moves li >> nth=0")
        assert page.locator("#analysis-board svg").count() == 1
        page.click("#analyse-game")
        # the review of game 1, kept with it (R430); the token goes in the cookie, not the address (R342)
        page.wait_for_url("**/games/1/view?review=1", timeout=60000)
        page.wait_for_selector(".grn-viewer .eval-chart")
        assert "accuracy" in page.inner_text(".grn-viewer")
        # the archive lists the game once, with a link to its review (R430)
        page.goto(f"{base}/")
        page.wait_for_selector("#games tbody tr a.reviewed")
        assert page.locator("#games tbody tr").count() == 1
        assert page.get_attribute("#games tbody tr a.reviewed", "href") == "/games/1/view?review=1"
        assert errors == []
        page.close()


def test_a_closed_server_works_from_its_start_up_address_and_no_address_holds_the_token(browser, tmp_path: Path):
    """Reading needs the token (as grn serve on loopback now has it, R341): the start-up address gives the
    browser the token's cookie and moves on without it; every address the page then shows works and none holds
    the token (issue 45, R342)."""
    with running(tmp_path / "club.db", open_read=False) as base:
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/?token={TOKEN}")
        assert page.url == f"{base}/"  # the address bar lost the token
        page.wait_for_selector("#games")
        page.click("#to-new")
        page.select_option("#newgame select[name=game]", "gold")
        fill_players(page, "Ann (red+yellow), Ben (green+blue)")
        page.click("#newgame button[type=submit]")
        page.wait_for_selector("#options button")
        tap_first_until_turn_done(page)
        page.wait_for_selector("#moves li")
        addresses = [page.url] + page.locator("a[href]").evaluate_all("as => as.map(a => a.href)") \
            + page.locator("img[src]").evaluate_all("is => is.map(i => i.src)")
        assert not [a for a in addresses if TOKEN in a]
        cookies = context.cookies()
        assert [c["httpOnly"] and c["sameSite"] == "Strict" for c in cookies] == [True]
        # the downloads and the viewer work by the cookie alone
        download = page.locator("#dl-grn").get_attribute("href")
        assert context.request.get(base + download).status == 200
        assert context.request.get(base + page.locator("#view").get_attribute("href")).status == 200
        # a browser without the cookie reads nothing from those same addresses
        stranger = browser.new_context()
        assert stranger.request.get(base + download).status == 403
        stranger.close()
        assert errors == []
        context.close()
