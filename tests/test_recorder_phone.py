"""The recorder at the table, round three (issue 42), in a real Chromium at a phone's size (390x844, touch).

Skipped with a visible reason when chromium or the serve extra is missing (CI installs both).
"""

from __future__ import annotations

import json
import random
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")
pytest.importorskip("playwright", reason="playwright is in the test extra")

from recorder_walk import targets  # noqa: E402
from serve_server import TOKEN, running  # noqa: E402

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="chromium not installed: browser tests skipped (apt-get install chromium)")
PHONE: Any = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A write to the API as a script would send it (the token in its header)."""
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-GRN-Token": TOKEN})
    with urllib.request.urlopen(req) as answer:
        return json.load(answer)


def redrawn(page: Any, before: str | None, timeout_ms: int = 20000) -> None:
    """Wait until the page has drawn the game again since ``before`` (its redraw count)."""
    waited = 0
    while page.get_attribute("body", "data-rendered") == before or page.get_attribute("body", "data-busy"):
        assert waited < timeout_ms, "the page did not redraw"
        page.wait_for_timeout(25)
        waited += 25


def open_game(browser: Any, base: str, game: str, players: str, options: str = "") -> tuple[Any, int]:
    """A new game made through the API, opened in a phone-sized page that was given the token at start-up."""
    game_id = post(base, "/api/games", {"game": game, "players": players, "options": options})["id"]
    page = browser.new_page(**PHONE)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{base}/?token={TOKEN}#game={game_id}&at=end")
    page.wait_for_selector("#options button")
    return page, game_id


def tap(page: Any, word: str) -> None:
    """A real tap at the centre of the board's target for ``word`` (scrolled into sight first)."""
    target = page.locator(f"#board .markup-layer .highlight[data-word='{word}']")
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


#: One game of each kind with every option that adds a kind of target (farmers, The Gold Mines, Gold's second
#: colour of a player), the most players a board draws rings for in Gold Rush: the games with fewer options and
#: players (Gold Rush 2 players without farmers, Carcassonne 3 without options, Gold 5) offered no kind of target
#: these do not, and took half of the walk's time (93 s of the suite on a loaded machine, 50 s after).
GAMES = [
    ("goldrush", "Ann (red), Ben (yellow), Cy (green), Di (blue), Ed (black)", "farmers=on, cowboys=5"),
    ("carcassonne", "Ann (red), Ben (yellow), Cy (green), Di (blue)", "goldmines, farmers=on, smallcity"),
    ("gold", "Ann (red+yellow), Ben (green+blue)", ""),
]


@pytest.mark.parametrize("game,players,options", GAMES, ids=[f"{g}-{p.count('(')}p" for g, p, _ in GAMES])
def test_every_target_on_the_board_takes_the_tap_meant_for_it(browser, tmp_path: Path, game: str, players: str,
                                                             options: str) -> None:
    """A game is played by tapping chosen targets at random (seeded); at every step, the element at the centre
    of every target is that target (the smaller wins where two overlap: a cowboy's ring inside a tent's
    frame), and a real tap at a target's centre picks that target's word and no other."""
    rng = random.Random(f"{game}{players}")
    turns = 10  # a few dozen steps a game: enough to meet every kind of step, and the suite stays fast
    with running(tmp_path / "club.db") as base:
        page, _ = open_game(browser, base, game, players, options)
        seen = played = 0
        while played < turns and not page.inner_text("#prompt").startswith("The game is over"):
            before = page.get_attribute("body", "data-rendered")
            if not page.is_hidden("#confirm"):
                page.click("#confirm")
                played += 1
            else:
                shown = targets(page)
                blocked = [t for t in shown if not t["ok"]]
                assert not blocked, f"turn {played + 1}: a tap at these targets' centres reaches another: {blocked}"
                seen += len(shown)
                small = [t for t in shown if min(t["w"], t["h"]) < 24]
                assert not small, f"turn {played + 1}: targets under 24 px: {small}"
                picked = page.get_attribute("#turn", "data-picked") or ""
                if shown:
                    word = rng.choice(shown)["word"]
                    tap(page, word)
                else:
                    buttons = page.locator("#options button")
                    word = buttons.nth(rng.randrange(buttons.count())).get_attribute("data-word")
                    page.locator(f"#options button[data-word='{word}']").first.click()
                redrawn(page, before)
                # the word tapped is picked (and after it any step of one choice, taken by itself)
                assert (page.get_attribute("#turn", "data-picked") + " ").startswith((picked + " " + word).strip() + " ")
                continue
            redrawn(page, before)
        assert played >= min(turns, 8) and seen > 20
        assert page.errors == []
        page.close()


#: Every address the page holds: its own, links, pictures, forms (read in the page).
ADDRESSES_JS = """() => [location.href, ...[...document.querySelectorAll('[href],[src],[action]')].map(
  e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('action'))]"""


def test_the_token_is_in_no_address_the_recorder_shows_and_files_come_without_it(browser, tmp_path: Path) -> None:
    """On a server where reading needs the token too: after start-up the token is in no address of the page
    (its own, View, the downloads, the pictures, the viewer the analysis opens), yet the downloads, the
    pictures and the viewer work; and no address the page shows can write."""
    with running(tmp_path / "club.db", open_read=False) as base:
        page, game_id = open_game(browser, base, "carcassonne", "Ann (red), Ben (blue)")
        # a tile's picture came by the cookie alone (R342): a plain address, drawn
        page.wait_for_selector("#options button img")
        wait_for(page, lambda: page.evaluate("document.querySelector('#options button img').naturalWidth") > 0)
        seen: list[str] = list(page.evaluate(ADDRESSES_JS))
        with page.expect_download() as got:
            page.click("#dl-grn")
        text = Path(got.value.path()).read_text()
        assert text.startswith('[Game "carcassonne"]') and got.value.suggested_filename == f"game-{game_id}.grn"
        with page.expect_download() as got:
            page.click("#dl-json")
        assert json.loads(Path(got.value.path()).read_text())
        page.click("#to-archive")
        page.wait_for_selector("#games tbody tr a")
        seen += page.evaluate(ADDRESSES_JS)
        page.click("#games tbody tr a")
        page.wait_for_selector(".grn-viewer .grn-board svg")
        seen += page.evaluate(ADDRESSES_JS)
        assert f"/games/" in page.url and TOKEN not in page.url
        assert page.errors == []
        page.close()
        assert seen and not [a for a in seen if TOKEN in a]
        # what a copied address carries cannot write: the delete it would need is refused
        for address in {a for a in seen if a.startswith(base) or a.startswith("/")}:
            query = address.split("?", 1)[1] if "?" in address else ""
            req = urllib.request.Request(f"{base}/api/games/{game_id}/delete?{query}", method="POST",
                                         data=json.dumps({"confirm": game_id}).encode(),
                                         headers={"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(req)
            assert refused.value.code == 403


def wait_for(page: Any, ok: Any, timeout_ms: int = 20000) -> None:
    """Poll from Python until ``ok()`` holds."""
    waited = 0
    while not ok():
        assert waited < timeout_ms, "the page did not change"
        page.wait_for_timeout(50)
        waited += 50


def pick_first(page: Any) -> str:
    """Tap the first choice offered; its word."""
    before = page.get_attribute("body", "data-rendered")
    first = page.locator("#options button").first
    word = first.get_attribute("data-word")
    first.click()
    redrawn(page, before)
    return word


def play_a_turn(page: Any) -> None:
    """Tap the first choice until the turn is whole, and confirm it."""
    while page.is_hidden("#confirm"):
        pick_first(page)
    before = page.get_attribute("body", "data-rendered")
    page.click("#confirm")
    redrawn(page, before)


def games_in(base: str) -> int:
    req = urllib.request.Request(base + "/api/games", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(req) as answer:
        return len(json.load(answer)["games"])


def test_a_fork_asks_first_and_says_where_the_recording_goes(browser, tmp_path: Path) -> None:
    with running(tmp_path / "club.db") as base:
        page, game_id = open_game(browser, base, "carcassonne", "Ann (red), Ben (blue)")
        play_a_turn(page)
        page.click("#fork")
        assert page.is_visible("#fork-ask") and "Game 1 stays as it is" in page.inner_text("#fork-what")
        page.click("#fork-no")
        assert page.is_hidden("#fork-ask") and games_in(base) == 1  # nothing copied without a yes
        page.click("#fork")
        before = page.get_attribute("body", "data-rendered")
        page.click("#fork-yes")
        redrawn(page, before)
        assert page.inner_text("#title").startswith("Game 2,")
        assert "Recording into game 2 now: a copy of game 1 up to turn 1. Game 1 is unchanged." in \
            page.inner_text("#notice")
        pick_first(page)  # the message stays while the turn is built
        assert page.is_visible("#notice") and "game 2" in page.inner_text("#notice")
        assert page.errors == []
        page.close()


def test_undo_says_what_it_took_back_and_redo_puts_it_back(browser, tmp_path: Path) -> None:
    with running(tmp_path / "club.db") as base:
        page, _ = open_game(browser, base, "goldrush", "Ann (red), Ben (yellow)")
        play_a_turn(page)
        played = page.inner_text("#moves li .grn")
        before = page.get_attribute("body", "data-rendered")
        page.click("#undo")
        redrawn(page, before)
        assert page.locator("#moves li").count() == 0
        assert page.inner_text("#notice-text").startswith("Took back turn 1 (Ann: ")
        before = page.get_attribute("body", "data-rendered")
        page.click("#redo")
        redrawn(page, before)
        assert page.inner_text("#moves li .grn") == played
        assert "Turn 1 is back." in page.inner_text("#notice") and page.is_hidden("#redo")
        assert page.errors == []
        page.close()


def test_a_stale_phone_is_told_at_once_and_keeps_its_taps(browser, tmp_path: Path) -> None:
    """Two phones on one game: what one records, the other is told within seconds, without tapping; the
    other's choices of the turn it is building stay when the change leaves that turn to record (a comment),
    and when the phone's page is reloaded."""
    with running(tmp_path / "club.db") as base:
        one, game_id = open_game(browser, base, "carcassonne", "Ann (red), Ben (blue)")
        two = browser.new_page(**PHONE)
        two.goto(f"{base}/#game={game_id}&at=end")  # the token is in this browser's storage already
        two.wait_for_selector("#options button")
        word = pick_first(two)
        play_a_turn(one)
        wait_for(two, lambda: "Another phone recorded turn 1 (Ann: " in two.inner_text("#notice"), 8000)
        assert two.locator("#moves li").count() == 1 and two.get_attribute("#turn", "data-picked") == ""
        word = pick_first(two)
        one.fill("#note input[name=comment]", "well played")
        one.click("#note button[type=submit]")
        wait_for(two, lambda: "choices are kept" in two.inner_text("#notice"), 8000)
        assert two.get_attribute("#turn", "data-picked") == word
        assert two.inner_text("#moves .comment") == "well played"
        two.reload()
        two.wait_for_selector("#options button")
        wait_for(two, lambda: two.get_attribute("#turn", "data-picked") == word)
        assert one.errors == []
        one.close()
        two.close()


def test_a_big_board_a_game_to_its_end_and_a_result(browser, tmp_path: Path) -> None:
    """A whole self-played Carcassonne game (71 turns) opened four turns before its end: the board comes
    before the list of places, every target is at least 24 px (the board zooms and pans), the page is no
    wider than the phone, and the end names the winner and writes the Result tag."""
    from grn import games
    from grn.rules.selfplay import to_record
    from grn.notation.writer import write_record

    record = to_record(games.find_ruleset("carcassonne").selfplay(2, 7))
    record = record.replace(tags=tuple((k, v) for k, v in record.tags if k != "Result"), turns=record.turns[:-4])
    with running(tmp_path / "club.db") as base:
        (game_id,) = post(base, "/api/import", {"name": "big.grn", "text": write_record(record)})["ids"]
        page = browser.new_page(**PHONE)
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(f"{base}/?token={TOKEN}#game={game_id}&at=end")
        page.wait_for_selector("#options button")
        steps = 0
        while not page.inner_text("#prompt").startswith("The game is over"):
            assert steps < 60, "the game did not end"
            steps += 1
            before = page.get_attribute("body", "data-rendered")
            if not page.is_hidden("#confirm"):
                page.click("#confirm")
                redrawn(page, before)
                continue
            shown = targets(page)
            assert all(t["ok"] and min(t["w"], t["h"]) >= 24 for t in shown), shown
            if shown:
                board, options = page.locator("#board").bounding_box(), page.locator("#options").bounding_box()
                assert board["y"] < options["y"]  # the board first, the list of the same places after it
                tap(page, shown[0]["word"])
            else:
                page.locator("#options button").first.click()
            redrawn(page, before)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        prompt = page.inner_text("#prompt")
        assert " wins with " in prompt or " share the win with " in prompt
        text = page.text_content("#grn") or ""
        assert '[Result "' in text
        assert page.errors == []
        page.close()
    import grn
    from grn.check.validate import validate_record

    (saved,) = grn.notation.read.parse(text)
    report = validate_record(saved)
    assert report.valid and report.complete and not report.diagnostics


def test_the_new_game_form_has_colour_pickers_and_option_boxes(browser, tmp_path: Path) -> None:
    with running(tmp_path / "club.db") as base:
        page = browser.new_page(**PHONE)
        page.goto(f"{base}/?token={TOKEN}")
        page.wait_for_selector("#games")
        page.click("#to-new")
        page.select_option("#newgame select[name=game]", "goldrush")
        page.select_option("#newgame select[name=count]", "3")
        rows = page.locator("#players .player-row")
        for i, (name, colour) in enumerate([("Ann", "green"), ("Ben", "red"), ("Cy", "black")]):
            rows.nth(i).locator("input").fill(name)
            rows.nth(i).locator("select").nth(0).select_option(colour)
        page.uncheck("#option-boxes input[data-option=farmers]")
        page.select_option("#option-boxes select[data-option=cowboys]", "5")
        page.click("#newgame button[type=submit]")
        page.wait_for_selector("#options button")
        text = page.text_content("#grn") or ""
        assert '[Players "Ann (green), Ben (red), Cy (black)"]' in text
        assert '[Options "farmers=off, cowboys=5"]' in text
        # Gold with two players: each owns two colours, filled in
        page.click("#to-new")
        page.select_option("#newgame select[name=game]", "gold")
        page.select_option("#newgame select[name=count]", "2")
        page.click("#newgame button[type=submit]")
        wait_for(page, lambda: '[Game "gold"]' in (page.text_content("#grn") or ""))
        assert '[Players "Ann (green+yellow), Ben (red+blue)"]' in page.text_content("#grn")
        assert "Ann (green+yellow)" in page.inner_text("#scores")  # both colours shown
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.close()


def test_a_lost_connection_says_the_turn_is_kept(browser, tmp_path: Path) -> None:
    with running(tmp_path / "club.db") as base:
        page, _ = open_game(browser, base, "carcassonne", "Ann (red), Ben (blue)")
        while page.is_hidden("#confirm"):
            pick_first(page)
        picked = page.get_attribute("#turn", "data-picked")
        page.route("**/api/games/*/play", lambda route: route.abort())
        page.click("#confirm")
        wait_for(page, lambda: "No connection" in page.inner_text("#status"))
        assert "Nothing is lost" in page.inner_text("#status") and "Failed to fetch" not in page.inner_text("body")
        assert page.get_attribute("#turn", "data-picked") == picked and page.is_visible("#confirm")
        # the message is beside the button tapped, in sight
        status, confirm = page.locator("#status").bounding_box(), page.locator("#confirm").bounding_box()
        assert abs(status["y"] - confirm["y"]) < 200 and 0 <= status["y"] < 844
        page.unroute("**/api/games/*/play")
        before = page.get_attribute("body", "data-rendered")
        page.click("#confirm")
        redrawn(page, before)
        assert page.locator("#moves li").count() == 1
        page.close()


def test_the_archive_and_the_analysis_fit_a_phone(browser, tmp_path: Path) -> None:
    with running(tmp_path / "club.db") as base:
        for example in ("examples/goldrush-2p.grn", "examples/gold-2p.grn"):
            post(base, "/api/import", {"name": example, "text": Path(example).read_text()})
        page = browser.new_page(**PHONE)
        page.goto(f"{base}/?token={TOKEN}")
        page.wait_for_selector("#games tbody tr")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.click("#games tbody button:has-text('Open')")
        page.wait_for_selector("#moves li")
        page.click("#moves li a >> nth=3")
        wait_for(page, lambda: page.locator("#moves li.here").count() == 1)
        page.locator("#options button").first.click()
        wait_for(page, lambda: not page.get_attribute("body", "data-busy"))
        page.click("#evaluate")
        wait_for(page, lambda: page.locator("#analysis-board svg").count() == 1, 60000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.close()
