"""A whole game against grn in a real Chromium at a phone's size, by tapping (R375-R378): the New game form gives
a seat to a bot, the server plays its turns, the bot's move is shown with its words, a hint and a take-back work.

Skipped with a visible reason when chromium or the serve extra is missing (CI installs both).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")
pytest.importorskip("playwright", reason="playwright is in the test extra")

from serve_server import TOKEN, running  # noqa: E402

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="chromium not installed: browser tests skipped (apt-get install chromium)")
PHONE: Any = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def idle(page: Any, timeout_ms: int = 30000) -> None:
    """Wait until no state is on its way and grn is not thinking."""
    waited = 0
    while page.get_attribute("body", "data-busy") or "thinking" in (page.text_content("#bot-said") or ""):
        assert waited < timeout_ms, ("the page stayed busy", page.text_content("#bot-said"), page.text_content("#notice"))
        page.wait_for_timeout(25)
        waited += 25


def wait_until(page: Any, ok: Any, timeout_ms: int = 30000) -> None:
    """Poll ``ok()`` (the page's policy runs no evaluated script, so no wait_for_function)."""
    waited = 0
    while not ok():
        assert waited < timeout_ms, ("the page did not get there", page.text_content("#prompt"),
                                     page.text_content("#bot-said"), page.locator("#moves li").count())
        page.wait_for_timeout(25)
        waited += 25


def over(page: Any) -> bool:
    """Whether the page says the game is over."""
    return (page.text_content("#prompt") or "").startswith("The game is over")


def test_a_whole_game_of_gold_against_bots_by_tapping(browser: Any, tmp_path: Path) -> None:
    with running(tmp_path / "club.db", open_read=False) as base:
        page = browser.new_page(**PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/?token={TOKEN}")
        page.wait_for_selector("#newgame select[name=game] option[value=gold]", state="attached")
        page.wait_for_selector("#games")
        page.click("#to-new")
        page.select_option("#newgame select[name=game]", "gold")
        # one person and four bots: the person plays a fifth of the turns, so the whole game is short
        page.select_option("#newgame select[name=count]", "5")
        rows = page.locator("#players .player-row")
        rows.nth(0).locator("input").fill("Anna")
        for i, bot in enumerate(["random", "greedy", "random", "greedy"], 1):
            rows.nth(i).locator("select.who").select_option(bot)
        assert rows.nth(1).locator("input").is_hidden()  # a bot seat is named by its bot
        page.click("#start-game")
        page.wait_for_selector("#vs:not([hidden])")
        assert ", random (" in page.text_content("#title") and ", greedy (" in page.text_content("#title")
        taps = replies = 0
        tried_aids = False
        while True:
            idle(page)
            if over(page):
                break
            if page.is_visible("#confirm"):
                played = page.locator("#moves li").count()
                page.click("#confirm")
                wait_until(page, lambda: page.locator("#moves li").count() >= played + 5 or over(page), 60000)
                idle(page)
                replies += 1
                if not tried_aids:
                    tried_aids = True
                    said = page.text_content("#bot-said") or ""
                    assert "random: turns over" in said and "greedy: turns over" in said
                    page.click("#hint")  # the best moves for the person, from what they know
                    wait_until(page, lambda: (page.text_content("#hint-text") or "").startswith("Hint: "))
                    page.click("#take-back")  # the person's move and the bot's reply go
                    wait_until(page, lambda: page.locator("#moves li").count() == 0)
                    replies -= 1
                continue
            target = page.locator("#board .markup-layer .highlight[data-word]").first
            target.scroll_into_view_if_needed()
            box = target.bounding_box()
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            taps += 1
            assert taps < 400, "the game did not end"
        assert replies >= 5 and tried_aids
        text = page.text_content("#grn") or ""
        assert re.search(r'\[Players "Anna \(\w+\), random \(\w+\), greedy \(\w+\), random \(\w+\), '
                         r'greedy \(\w+\)"\]', text), text[:300]
        assert '[Dealer "grn serve"]' in text
        assert "[Result " in text
        assert errors == []
        page.close()


def test_a_bot_seat_offers_the_person_no_choice_and_a_failed_engine_is_asked_again(browser: Any, tmp_path: Path) -> None:
    """The page never picks for grn's seat, not even a choice that is the only one (a tap there would race the
    server's own move), and an engine that fails says so in its words with a button to ask it again."""
    import sys

    if shutil.which("node") is None:
        pytest.skip("node not installed: the JavaScript engine cannot run")
    from test_serve_bots import new_game

    follower = Path(__file__).parent / "engines" / "follower.js"
    with running(tmp_path / "club.db", open_read=False, engines={"bad": f"node {follower} --fault illegal"}) as base:
        page = browser.new_page(**PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/?token={TOKEN}")
        page.wait_for_selector("#games")
        state = new_game(base, "gold", "engine:bad (red+yellow), Anna (green+blue)")
        page.goto("about:blank")  # a change of the hash alone would not load the page again
        page.goto(f"{base}/#game={state['id']}&at=end")
        wait_until(page, lambda: page.is_visible("#bot-again"))
        assert (page.text_content("#bot-said") or "").startswith("engine:bad could not play: ")
        assert page.text_content("#prompt") == "engine:bad (red) to play: grn plays this seat."
        assert page.locator("#options button").count() == 0
        assert page.locator("#board .markup-layer .highlight[data-word]").count() == 0
        assert page.get_attribute("#turn", "data-picked") == ""
        page.click("#bot-again")  # asked again: the engine fails again, in its words, and nothing is recorded
        wait_until(page, lambda: page.is_visible("#bot-again"))
        assert (page.text_content("#bot-said") or "").startswith("engine:bad could not play: ")
        assert page.locator("#moves li").count() == 0 and errors == []
        page.close()
