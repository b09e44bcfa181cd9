"""A class on a real JupyterHub (deploy/jupyterhub), one hub for the module: a learner signs up and in through the
hub's pages in a browser and lands in their lab; two learners run an exercise's check in their own labs, the
instructor collects and grades their notebooks in the grader's sandbox, and nothing is left running."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import hubdriver
import nbformat
import pytest

pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.timeout(900)]
ANSWER, CHECK = "ex1-answer", "ex1-check"


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """One hub for the module's tests (loadscope: they run on one worker, in order; the last one stops it)."""
    reason = hubdriver.why_not()
    if reason and os.environ.get("CI"):  # .ci/run installs what it needs (.ci/setup-jupyterhub)
        pytest.fail(f"{reason} (.ci/setup-jupyterhub installs it)")
    if reason:
        pytest.skip(reason)
    celerylab_command = hubdriver.learners_celerylab()[0]
    if hubdriver.stale_files(celerylab_command):
        hubdriver.refresh_installed(celerylab_command)
    stale = hubdriver.stale_files(celerylab_command)
    if stale:
        pytest.fail(f"the learners' install differs from this checkout in {len(stale)} files ({', '.join(stale[:5])}"
                    f"...): {hubdriver.REFRESH}")
    state = tmp_path_factory.mktemp("hub")
    running = hubdriver.Hub(state)
    try:
        running.start()
        yield running
    finally:
        running.stop()


def cell(notebook: dict, key: str) -> dict:
    return next(each for each in notebook["cells"] if each["metadata"].get("celerylab", {}).get("id") == key)


def sources(path: Path) -> list[str]:
    return [each.source for each in nbformat.read(path, as_version=4).cells]


def celerylab(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "celerylab.cli", "--lang", "en", *args], capture_output=True,
                          text=True, timeout=600)


def test_a_learner_signs_up_and_in_through_the_hubs_pages_and_lands_in_their_lab(hub):
    if not hubdriver.CHROMIUM.exists():
        pytest.fail(f"{hubdriver.CHROMIUM} is missing: run .ci/setup-browser")
    from playwright.sync_api import expect, sync_playwright

    name, password = f"cai{os.urandom(2).hex()}", f"Fila-{os.urandom(4).hex()}-celery"
    hub.learners.append(name)  # their Unix user goes with the hub
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(hubdriver.CHROMIUM), args=["--disable-gpu"])
        try:
            def sign_up_and_in(page, name: str, password: str, hint: str):
                page.goto(hub.url + "/hub/signup")
                page.fill("#username_input", name)
                page.fill("#password_input", password)
                page.fill("#password_confirmation_input", password)
                page.click("#signup_submit")
                expect(page.locator("body")).to_contain_text(hint)
                sign_in(page, name, password)

            def sign_in(page, name: str, password: str) -> None:
                page.goto(hub.url + "/hub/login")
                page.fill("#username_input", name)
                page.fill("#password_input", password)
                page.click("#login_submit")

            page = browser.new_context().new_page()
            sign_up_and_in(page, name, password, "sent to the admin")  # a sign-up waits for the instructor
            expect(page.locator("body")).to_contain_text("has not been authorized")
            instructor = browser.new_context().new_page()  # the instructor (admin: approved on sign-up) approves
            sign_up_and_in(instructor, "prof", password, "signup was successful")
            instructor.goto(f"{hub.url}/hub/authorize/{name}")
            instructor.wait_for_url(re.compile(r"/hub/authorize"))
            expect(instructor.locator("body")).to_contain_text(name)
            sign_in(page, name, password)
            page.wait_for_url(re.compile(r"/hub/spawn"))  # the hub asks for the language (the spawner's form)
            page.select_option("#lang", "en")
            page.click("#spawn_form [type=submit]")
            page.wait_for_url(re.compile(rf"/user/{name}/lab"), timeout=240_000)
            # JupyterLab itself, on the course's notebooks in the chosen language, and its launcher
            expect(page.locator(".jp-DirListing-content")).to_contain_text("01_retries.ipynb", timeout=120_000)
            expect(page.locator(".jp-Launcher")).to_be_visible()
            assert re.search(rf"/user/{name}/lab/(workspaces/[^/]+/)?tree/notebooks/en", page.url), page.url
        finally:
            browser.close()
    assert hub.server(name).get("ready") and hubdriver.processes_of(hubdriver.PREFIX + name)
    hub.stop_server(name)
    assert hubdriver.processes_of(hubdriver.PREFIX + name) == []


def graded_entry(record: dict) -> dict:
    """What says why an entry got its points: its status, reason, notes, and each exercise's crash, error and first
    failed criterion (the whole entry is too long for an assertion's message)."""
    exercises = {}
    for name, exercise in (record.get("exercises") or {}).items():
        failed = next((c for c in exercise.get("criteria", []) if not c.get("passed")), None)
        exercises[name] = {"points": exercise.get("points"), "crashed": exercise.get("crashed"),
                           "error": exercise.get("error"), "grader_error": exercise.get("grader_error"),
                           "log": exercise.get("log"), "first_failed": failed and (failed.get("key"), failed.get("observed"))}
    return {"status": record.get("status"), "total": record.get("total"), "reason": record.get("reason"),
            "notes": record.get("notes"), "exercises": exercises}


def test_two_learners_check_and_the_instructor_collects_and_grades(hub, tmp_path):
    solution = json.loads((hubdriver.ROOT / "solutions" / "pt" / "01_retries.ipynb").read_text())
    learners = {hub.add_learner("ana"): "solved", hub.add_learner("bia"): "tried"}
    hub.start_servers(list(learners), "pt")
    path = "exercises/pt/01_retries_exercicios.ipynb"  # the server's root is the learner's ~/celerylab

    def work(name: str) -> str:  # what the learner's browser does: save the answer, run the cells, read the check
        notebook = hub.contents(name, path)["content"]
        if learners[name] == "solved":
            cell(notebook, ANSWER)["source"] = cell(solution, ANSWER)["source"]
        else:  # the stub, touched: collected (a notebook still the course's own is not), and failing its check
            cell(notebook, ANSWER)["source"] = "".join(cell(notebook, ANSWER)["source"]) + "\n# primeira tentativa\n"
        hub.contents(name, path, {"type": "notebook", "format": "json", "content": notebook})
        ran = hub.run(name, path, ["".join(cell(notebook, key)["source"]) for key in ("lang-pt", ANSWER, CHECK)])
        assert len(ran) == 3 and not ran[0]["error"] and not ran[1]["error"], ran
        return ran[2]["text"]

    with ThreadPoolExecutor(len(learners)) as pool:  # both learners at once, as in a class
        verdicts = dict(zip(learners, pool.map(work, learners)))
    solved, stub = list(learners)
    assert "✅" in verdicts[solved] and "✅" not in verdicts[stub], verdicts

    collected = tmp_path / "collected"
    done = celerylab("collect", "--out", str(collected), "--hub", hub.url, "--token", hub.token)
    assert done.returncode == 0, done.stderr
    for name in learners:  # the lesson they worked on, not the seven notebooks they never changed
        assert sorted(path.relative_to(collected / name).as_posix() for path in (collected / name).rglob("*.ipynb")) \
            == ["01_retries/01_retries_exercicios.ipynb"]

    for name in learners:
        hub.stop_server(name)
        assert hubdriver.processes_of(hubdriver.PREFIX + name) == [], name  # lab, kernel, stack: all gone
    from_homes = tmp_path / "from_homes"
    assert celerylab("collect", "--out", str(from_homes)).returncode == 0
    for name in learners:  # the same notebook both ways (the API gives each source as one string, disk as lines)
        file = Path(name, "01_retries", "01_retries_exercicios.ipynb")
        assert sources(from_homes / file) == sources(collected / file)

    grades = tmp_path / "grades"  # in the grader's sandbox, as an instructor grades (lesson 01 starts PostgreSQL)
    graded = celerylab("grade", str(collected), "--roster", str(collected / "roster.csv"), "--out", str(grades),
                       "--jobs", "2")
    assert graded.returncode == 0, graded.stdout + graded.stderr
    book = json.loads((grades / "gradebook.json").read_text())["submissions"]
    totals = {record["learner"]: record["total"] for record in book.values()}
    assert totals[solved] > totals[stub], {key: graded_entry(record) for key, record in book.items()}
    assert {record["submitted"] for record in book.values()} and all(record["submitted"] for record in book.values())

    hub.stop()
    assert all(not hubdriver.processes_of(hubdriver.PREFIX + name) for name in learners)
    assert hub.process.poll() is not None and not os.path.exists(hub.state / "jupyterhub.pid")
    assert hub.left_behind == []  # the proxy and the idle culler stopped with the hub
