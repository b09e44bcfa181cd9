"""Site fixtures: a copy of the course with the fixture lesson added, built once per test module; the browser."""
from __future__ import annotations

import functools
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM, DESKTOP, OPEN_SHADOWS, WEIGHTS, SiteHandler
from site_helpers import copy_course, mkdocs_build


@pytest.fixture(scope="module")
def course_copy(tmp_path_factory) -> Path:
    return copy_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="module")
def built_site(course_copy: Path) -> Path:
    site_dir = course_copy / "site_build"
    result = mkdocs_build(course_copy / "mkdocs.yml", site_dir)
    assert result.returncode == 0, result.stdout + result.stderr
    return site_dir


@pytest.fixture(scope="module")
def server(built_site):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(built_site)))
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

    WEIGHTS.parent.mkdir(parents=True, exist_ok=True)
    WEIGHTS.write_text("", encoding="utf-8")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM),
            headless=True, args=ARGS, viewport=DESKTOP)
        context.add_init_script(OPEN_SHADOWS)
        log = {"requests": [], "errors": []}
        context.on("request", lambda request: log["requests"].append(request.url))
        context.on("page", lambda page: _watch(page, log))
        context.log = log
        yield context
        context.close()


def _watch(page, log) -> None:
    page.on("console", lambda message: message.type == "error"
            and log["errors"].append(f"{message.text} ({message.location.get('url')})"))
    page.on("pageerror", lambda error: log["errors"].append(str(error)))


@pytest.fixture(scope="module")
def tab(browser):
    """One tab, reused by the tests of the module (a tab per test costs more than the test)."""
    page = browser.new_page()
    yield page
    page.close()
