"""A class on a real JupyterHub (deploy/jupyterhub): two learners sign in, each runs an exercise's check in their own
lab, the instructor collects and grades their notebooks, and nothing is left running: no server, no process."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import hubdriver
import nbformat
import pytest

pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.timeout(900)]
ANSWER, CHECK = "ex1-answer", "ex1-check"


@pytest.fixture
def hub(tmp_path):
    reason = hubdriver.why_not()
    if reason:
        pytest.skip(reason)
    state = tmp_path / "hub"
    state.mkdir()
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

    grades = tmp_path / "grades"
    # --unsafe-no-sandbox: on this machine the grader's sandbox cannot start the packaged PostgreSQL lesson 01's
    # checks use (initdb: "could not look up effective user ID" of the job's nameless uid), which no hub changes
    graded = celerylab("grade", str(collected), "--roster", str(collected / "roster.csv"), "--out", str(grades),
                       "--jobs", "2", "--unsafe-no-sandbox")
    assert graded.returncode == 0, graded.stdout + graded.stderr
    book = json.loads((grades / "gradebook.json").read_text())["submissions"]
    totals = {record["learner"]: record["total"] for record in book.values()}
    assert totals[solved] > totals[stub], book
    assert {record["submitted"] for record in book.values()} and all(record["submitted"] for record in book.values())

    hub.stop()
    assert all(not hubdriver.processes_of(hubdriver.PREFIX + name) for name in learners)
    assert hub.process.poll() is not None and not os.path.exists(hub.state / "jupyterhub.pid")
    assert hub.left_behind == []  # the proxy and the idle culler stopped with the hub
