"""The built site in headless Chromium: both languages, the switcher, mermaid, search, and nothing leaves localhost."""
from __future__ import annotations

import functools
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from site_helpers import ROOT

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.live, pytest.mark.needs("chromium")]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = ROOT / "build" / "screenshots"
# Material renders each diagram into a closed shadow root; opening it lets the test measure the real <svg>.
OPEN_SHADOWS = ("const attach = Element.prototype.attachShadow;"
                "Element.prototype.attachShadow = function (init) { return attach.call(this, {...init, mode: 'open'}); };")
HARMLESS_CONSOLE = [re.compile(r"^\[Violation\]")]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def server(built_site):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built_site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser(server, tmp_path_factory):
    if not CHROMIUM.exists():
        pytest.fail("/usr/bin/chromium is missing: run .ci/setup-browser")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM),
            headless=True, args=ARGS, viewport={"width": 1280, "height": 900})
        context.add_init_script(OPEN_SHADOWS)
        log = {"requests": [], "errors": []}
        context.on("request", lambda request: log["requests"].append(request.url))
        context.on("page", lambda page: _watch(page, log))
        context.log = log
        yield context
        context.close()


def _watch(page, log) -> None:
    page.on("console", lambda message: message.type == "error" and log["errors"].append(message.text))
    page.on("pageerror", lambda error: log["errors"].append(str(error)))


@pytest.fixture
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


def heading(page) -> str:
    return page.locator(".md-content h1").first.inner_text().rstrip("¶").strip()


def test_home_renders_in_both_languages(page, server):
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang").startswith("pt")
    assert heading(page).startswith("celerylab")
    assert page.get_by_role("link", name="Lições").first.is_visible()
    page.goto(server + "/en/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("link", name="Lessons").first.is_visible()


def _switch(page, lang: str) -> None:
    page.hover(".md-header .md-select")
    with page.expect_navigation():
        page.click(f"a.md-select__link[hreflang={lang}]")


def test_switch_lands_on_the_same_lesson_in_the_other_language(page, server):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/lessons/90_fixture/")
    assert heading(page) == "Lição 90 — página de teste quokkafixture"
    page.screenshot(path=str(SCREENSHOTS / "lesson-pt.png"), full_page=True)
    _switch(page, "en")
    assert page.url.split("#")[0].rstrip("/").endswith("/en/lessons/90_fixture")
    assert heading(page) == "Lesson 90 — test page quokkafixture"
    page.screenshot(path=str(SCREENSHOTS / "lesson-en.png"), full_page=True)
    _switch(page, "pt")
    assert page.url.split("#")[0].rstrip("/") == server + "/lessons/90_fixture"


@pytest.mark.parametrize("path", ["/diagrams/", "/en/diagrams/", "/lessons/90_fixture/"])
def test_every_mermaid_diagram_renders_with_a_real_size(page, server, path):
    page.goto(server + path)
    expected = page.locator("pre.mermaid, div.mermaid").count()
    assert expected > 0
    page.wait_for_function(f"document.querySelectorAll('div.mermaid').length === {expected}", timeout=20_000)
    svgs = page.locator("div.mermaid svg[id^='__mermaid']")
    assert svgs.count() == expected
    for index in range(expected):
        box = svgs.nth(index).bounding_box()
        assert box and box["width"] > 0 and box["height"] > 0


@pytest.mark.parametrize("home, inside, outside", [("/", "/lessons/90_fixture/", "/en/"),
                                                   ("/en/", "/en/lessons/90_fixture/", None)])
def test_search_finds_the_lesson_in_the_current_language_only(page, server, home, inside, outside):
    page.goto(server + home)
    page.keyboard.press("s")
    page.locator("input.md-search__input").press_sequentially("quokkafixture")
    page.wait_for_selector(".md-search-result__item")
    hrefs = [link.get_attribute("href") for link in page.locator(".md-search-result__link").all()]
    paths = [href.replace(server, "").split("?")[0].split("#")[0] for href in hrefs]
    assert inside in paths
    if outside:
        assert not [p for p in paths if p.startswith(outside)]
    else:
        assert all(p.startswith("/en/") for p in paths)


def test_no_console_error_and_no_request_leaves_localhost(browser, server):
    # Runs last in this module (pytest keeps file order): it audits what every page above did.
    page = browser.new_page()
    page.goto(server + "/glossary/")
    page.goto(server + "/en/exercises/")
    page.close()
    errors = [text for text in browser.log["errors"] if not any(p.search(text) for p in HARMLESS_CONSOLE)]
    assert errors == []
    outside = [url for url in browser.log["requests"] if not url.startswith((server + "/", "data:", "blob:"))]
    assert outside == []
