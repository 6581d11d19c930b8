"""What the browser tests share: Debian's Chromium driven by playwright (no browser download), and pages that
collect the script errors they raise (a page that threw fails its test)."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium")
#: Headless Chromium on a machine with no network but loopback: no background connections, no first-run work.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def open_page(browser, request):
    """``open_page(url, width=..., height=...)``: a new page at ``url``; the default size is the test module's
    ``VIEWPORT`` (1280x800 if it names none).  Every page is checked for script errors when the test ends."""
    pages = []
    default_width, default_height = getattr(request.module, "VIEWPORT", (1280, 800))

    def opener(url: str, width: int = default_width, height: int = default_height):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(url)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        assert page.errors == [], page.errors
        page.close()
