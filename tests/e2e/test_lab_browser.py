"""JupyterLab as a learner uses it: `celerylab lab`, a notebook run through the menus in Chromium, nothing left running after."""
from __future__ import annotations

import contextlib
import json
import re
import secrets
import shutil
import signal
import sys
import time
from pathlib import Path

import psutil
import pytest

from celerylab.polling import until
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# Lesson 01 in Portuguese, and what a learner must see once every cell ran:
# the duplicate-delivery figure and, where an exercise was, the pointer to the exercises notebook.
LESSON = "notebooks/pt/01_retries.ipynb"
LESSON_EXPECTED = ["entregas: 2", "Resolva este exercício no notebook de exercícios"]
# A two-cell notebook this test writes: it leaves its stack running, so the shutdown must stop it.
SMOKE = "notebooks/pt/00_smoke.ipynb"
SMOKE_EXPECTED = ["Broker:", "resultado: 5"]
SMOKE_CELLS = ['from celerylab.stack import Stack\nstack = Stack.start("celerylab.stack.smoke")\nprint(stack.describe())',
               'print("resultado:", stack.app.send_task("celerylab.smoke.add", (2, 3)).get(timeout=30))']

pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.needs("chromium")]

KERNEL_IDLE = "() => /\\| Idle/.test(document.querySelector('.jp-StatusBar-Widget')?.textContent || '')"
PROMPTS = "Array.from(document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell .jp-InputPrompt')).map(e => e.textContent.trim())"
RUN_STARTED = f"() => {PROMPTS}.some(p => p !== '[ ]:')"
RUN_FINISHED = (f"() => {{ const p = {PROMPTS}; const busy = document.querySelector('.jp-Notebook-ExecutionIndicator');"
                " return p.length > 0 && p.every(t => /^\\[\\d+\\]:$/.test(t)) && busy?.dataset.status === 'idle'; }")
MENU_TITLES = "Array.from(document.querySelectorAll('.lm-MenuBar-item')).map(e => e.textContent)"
DIRTY_TABS = "Array.from(document.querySelectorAll('.lm-TabBar-tab.jp-mod-dirty')).map(e => e.textContent)"
NOTEBOOK_TEXT = "() => document.querySelector('.jp-NotebookPanel .jp-Notebook').textContent"


def write_smoke_notebook(path: Path) -> None:
    import nbformat

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in SMOKE_CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)


def start_lab(course: Path, home: Path, port: int, token: str) -> ManagedProcess:
    import os

    program = Path(sys.executable).with_name("celerylab")
    argv = [str(program), "lab", "--no-browser", "--lang", "pt", "--port", str(port), "--token", token]
    env = dict(os.environ, CELERYLAB_ROOT=str(course), HOME=str(home), CELERYLAB_HOME=str(home / ".celerylab"))
    env.pop("CELERYLAB_LANG", None)
    return ManagedProcess("lab", argv, env=env, cwd=course, ready_pattern=r"is running at", ready_timeout=90).start()


@contextlib.contextmanager
def lab_page(profile: Path, viewport: dict):
    """A Chromium page (90 s default timeout) in a persistent profile, closed on the way out."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, viewport=viewport)
        try:
            page = browser.new_page()
            page.set_default_timeout(90_000)
            yield page
        finally:
            browser.close()


@contextlib.contextmanager
def smoke_lab(tmp_path: Path):
    """`celerylab lab --lang pt` on a course holding only the smoke notebook: (port, token), stopped after."""
    course, home = tmp_path / "course", tmp_path / "home"
    home.mkdir()
    write_smoke_notebook(course / SMOKE)
    port, token = free_port(), secrets.token_hex(16)
    lab = start_lab(course, home, port, token)
    try:
        yield port, token
    finally:
        lab.stop()


def run_all_in_browser(port: int, token: str, notebook: str, profile: Path, screenshot: Path,
                       timeout_s: float, first_expected: str) -> str:
    """Open `notebook`, wait for its kernel, Run > Run All Cells, wait for the last cell; the page's text.

    Screenshots: the last cell (`*_end.png`) and the first expected line (`screenshot`).
    """
    with lab_page(profile, {"width": 1400, "height": 1000}) as page:
        page.goto(f"http://127.0.0.1:{port}/lab/tree/{notebook}?token={token}")
        page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell")
        page.wait_for_function(KERNEL_IDLE)
        # `--lang pt`: JupyterLab loads its pt-BR language pack, and the menu bar's titles (which the pack
        # leaves in English) come from the course's menu settings
        assert page.evaluate("document.documentElement.lang") == "pt-BR"
        assert page.evaluate(MENU_TITLES)[:4] == ["Arquivo", "Editar", "Exibir", "Executar"]
        # opening a notebook and starting its kernel changes nothing the learner wrote: no "modified" tab
        assert page.evaluate(DIRTY_TABS) == []
        page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Executar$")).first.click()
        page.locator("li.lm-Menu-item[data-command='runmenu:run-all']").click()
        page.wait_for_function(RUN_STARTED)
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        try:
            page.wait_for_function(RUN_FINISHED, timeout=timeout_s * 1000, polling=250)
        finally:
            page.locator(".jp-NotebookPanel .jp-CodeCell").last.scroll_into_view_if_needed()
            page.screenshot(path=str(screenshot.with_name(f"{screenshot.stem}_end.png")))
        figure = page.get_by_text(first_expected).first
        if figure.count():
            figure.scroll_into_view_if_needed()
            page.screenshot(path=str(screenshot))
        return page.evaluate(NOTEBOOK_TEXT)


def family(pid: int) -> list[psutil.Process]:
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def still_running(processes: list[psutil.Process], timeout: float) -> list[psutil.Process]:
    """Poll until every process has exited (zombies count as gone); the ones still running after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        alive = []
        for process in processes:
            try:
                if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                    alive.append(process)
            except psutil.NoSuchProcess:
                pass
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def learner_session(tmp_path: Path, notebook: str, expected: list[str], name: str, timeout_s: float,
                    expect_live_stack: bool) -> None:
    course, home = tmp_path / "course", tmp_path / "home"
    home.mkdir()
    if notebook == SMOKE:
        write_smoke_notebook(course / notebook)
    else:  # a scratch copy: the learner's run (and autosave) never touches the committed notebook
        (course / notebook).parent.mkdir(parents=True)
        shutil.copy(ROOT / notebook, course / notebook)
    port, token = free_port(), secrets.token_hex(16)
    lab = start_lab(course, home, port, token)
    try:
        text = run_all_in_browser(port, token, notebook, tmp_path / "chromium", SCREENSHOTS / f"{name}.png",
                                  timeout_s, expected[0])
        missing = [line for line in expected if line not in text]
        assert missing == [], f"not on the page: {missing}\n--- page text (end) ---\n{text[-3000:]}"
        # the lesson runs every solved exercise's check: none of it is the learner's progress
        passed = [exercise for path in (home / ".celerylab").rglob("progress.json")
                  for exercise, entry in json.loads(path.read_text())["exercises"].items() if entry.get("status")]
        assert passed == [], passed
        processes = family(lab.pid)
        commands = [" ".join(process.cmdline()) for process in processes[1:]]
        assert any("ipykernel" in command for command in commands), commands
        if expect_live_stack:
            assert any("celery" in command and "worker" in command for command in commands), commands
        lab.kill(signal.SIGTERM)  # the lab alone, as Ctrl+C would: it must stop its kernels and their stacks
        survivors = still_running(processes, timeout=60)
        leftovers = [" ".join(process.cmdline()) for process in survivors]
        for process in survivors:  # ours to clean up, even when the assertion below fails
            process.kill()
        assert leftovers == []
    finally:
        lab.stop()


@pytest.mark.timeout(300)
def test_a_notebook_that_starts_a_stack_runs_in_the_browser_and_nothing_survives(tmp_path):
    learner_session(tmp_path, SMOKE, SMOKE_EXPECTED, "lab_smoke_pt", timeout_s=120, expect_live_stack=True)


@pytest.mark.timeout(900)
@pytest.mark.skipif(not (ROOT / LESSON).exists(), reason=f"{LESSON} not built yet (celerylab build)")
def test_lesson_01_runs_in_the_browser_in_portuguese(tmp_path):
    learner_session(tmp_path, LESSON, LESSON_EXPECTED, "lab_lesson01_pt", timeout_s=600, expect_live_stack=False)


def type_in_a_lab_terminal(port: int, token: str, profile: Path, line: str) -> None:
    """Open a new terminal from JupyterLab's launcher in Chromium and type `line` into it."""
    with lab_page(profile, {"width": 1200, "height": 800}) as page:
        page.goto(f"http://127.0.0.1:{port}/lab?token={token}")
        page.locator(".jp-LauncherCard", has_text=re.compile(r"^Terminal$")).first.click()
        textarea = page.locator(".jp-Terminal .xterm-helper-textarea").first
        textarea.wait_for(state="attached")
        textarea.focus()
        page.keyboard.type(line)
        page.keyboard.press("Enter")
        page.wait_for_timeout(2000)  # the shell runs the line; the test waits on its output file


@pytest.mark.timeout(300)
def test_celerylab_is_found_in_a_lab_terminal(tmp_path):
    """Typed in a real lab terminal, `command -v celerylab` finds this installation's command."""
    answer = tmp_path / "where.txt"
    with smoke_lab(tmp_path) as (port, token):
        type_in_a_lab_terminal(port, token, tmp_path / "chromium",
                               f"command -v celerylab > {answer}.tmp; mv {answer}.tmp {answer}")
        assert until(answer.exists, timeout=30, step=0.2), "the terminal ran nothing"
        found = answer.read_text().strip()
        assert found and Path(found).resolve() == Path(sys.executable).with_name("celerylab").resolve(), found


# Words JupyterLab's Portuguese keeps as they are in English.
SAME_IN_PORTUGUESE = {"Kernel", "Console", "Notebook", "Markdown", "Python", "Terminal", "Debugger", "Jupytext",
                      "HTML", "LaTeX", "PDF", "Asciidoc", "ReStructured Text", "Reveal.js Slides", "WebPDF", "Qtpdf"}
# Items whose label is a name, the same in every language: a programming language, an editor theme.
NAMED_BY_COMMAND = ["fileeditor:change-language", "fileeditor:change-theme"]
# JupyterLab 4.6 labels File > New > Python File with the file type's name, given before any language pack
# loads: the pack translates the string ("Arquivo do Python"), and the label stays in English.
NO_PACK_REACHES = {"Python File"}
MENU_ITEMS = ("Array.from(document.querySelectorAll('.lm-Menu .lm-Menu-item'))"
              f".filter(e => !{json.dumps(NAMED_BY_COMMAND)}.includes(e.dataset.command))"
              ".map(e => (e.querySelector('.lm-Menu-itemLabel')?.textContent || '').trim())")
SUBMENU_ITEMS = ".lm-Menu-item[data-type='submenu']:not(.lm-mod-disabled)"
LAST_MENU_TEXT = "() => Array.from(document.querySelectorAll('.lm-Menu')).slice(-1)[0].textContent"
SUBMENU_OPEN = ("previous => { const menus = document.querySelectorAll('.lm-Menu');"
                " return menus.length >= 2 && menus[menus.length - 1].textContent !== previous; }")


def jupyterlab_msgids() -> set[str]:
    """Every string JupyterLab's own front end translates (``__("...")`` and ``_n("...", ...)``)."""
    static = Path(sys.prefix) / "share" / "jupyter" / "lab" / "static"
    found: set[str] = set()
    for script in static.glob("*.js"):
        for match in re.finditer(r'(?:__|_n)\("((?:[^"\\]|\\.)*)"', script.read_text("utf-8", errors="ignore")):
            try:
                found.add(json.loads(f'"{match.group(1)}"'))
            except ValueError:  # a JavaScript-only escape (\\'): not a menu label
                found.add(match.group(1))
    return found


def menu_labels_in_browser(port: int, token: str, profile: Path) -> list[str]:
    """Every item of every main menu and of each of their submenus, each read while it is open.

    A hovered submenu opens after Lumino's delay and closes when the next one is hovered, so each is waited for
    (the last open menu's text differs from the submenu read before) and read before moving on.
    """
    with lab_page(profile, {"width": 1400, "height": 1000}) as page:
        page.goto(f"http://127.0.0.1:{port}/lab/tree/{SMOKE}?token={token}")
        page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell")
        page.wait_for_function(KERNEL_IDLE)
        labels: list[str] = []
        for index in range(page.locator(".lm-MenuBar-item").count()):
            page.locator(".lm-MenuBar-item").nth(index).click()
            page.wait_for_selector(".lm-Menu")
            labels += page.evaluate(MENU_ITEMS)
            submenus = page.locator(".lm-Menu").first.locator(SUBMENU_ITEMS)
            previous = None
            for sub in range(submenus.count()):
                submenus.nth(sub).hover()
                page.wait_for_function(SUBMENU_OPEN, arg=previous)
                previous = page.evaluate(LAST_MENU_TEXT)
                labels += page.evaluate(MENU_ITEMS)
            page.keyboard.press("Escape")
            page.keyboard.press("Escape")
        return labels


@pytest.mark.timeout(300)
def test_jupyterlabs_menus_speak_portuguese(tmp_path):
    """With --lang pt, no menu item is a JupyterLab string left in English (the pinned pack predates 4.6)."""
    with smoke_lab(tmp_path) as (port, token):
        labels = menu_labels_in_browser(port, token, tmp_path / "chromium")
    english = sorted({label for label in labels if label in jupyterlab_msgids()} - SAME_IN_PORTUGUESE - NO_PACK_REACHES)
    assert len(labels) > 100 and "Executar todas as células" in labels
    assert english == []
