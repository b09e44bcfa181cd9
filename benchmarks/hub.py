"""A class on a real JupyterHub (deploy/jupyterhub): three learners at once, memory and CPU per learner.

Run by hand, as root: ``.venv/bin/python benchmarks/hub.py [--learners 3]``. Starts a hub, adds the learners
through its REST API, starts their servers, then in every learner's lab at the same time (kernel websocket, as a
browser would) runs lesson 01's first cells (language, its stack started) and exercise l01.welcome_once's answer
and check. Measures each learner's processes (PSS of every process of their Unix user: lab, kernels, stack) idle
and while running, CPU seconds from their cgroup, hub and server start times; then stops everything and confirms
no process of a learner, no cgroup and no Unix user is left. Prints one JSON document.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "deploy"), str(REPO / "deploy" / "jupyterhub")]

import hubdriver  # noqa: E402

ANSWER, CHECK = "ex1-answer", "ex1-check"
LESSON = "notebooks/pt/01_retries.ipynb"
EXERCISES = "exercises/pt/01_retries_exercicios.ipynb"


def cell(notebook: dict, key: str) -> str:
    return "".join(next(each for each in notebook["cells"]
                        if each["metadata"].get("celerylab", {}).get("id") == key)["source"])


def pss_mib(unix_name: str) -> float:
    total = 0
    for pid in hubdriver.processes_of(unix_name):
        try:
            total += psutil.Process(pid).memory_full_info().pss
        except (psutil.Error, OSError):
            pass
    return total / 2**20


def cpu_seconds(unix_name: str) -> float | None:
    from celerylab_spawner import hierarchies

    for where in hierarchies("cpuacct"):
        usage = where.resolve() / f"celerylab-hub-{unix_name}" / "cpuacct.usage"
        if usage.exists():
            return int(usage.read_text()) / 1e9
    for where in hierarchies("cpu"):
        stat = where / f"celerylab-hub-{unix_name}" / "cpu.stat"
        if stat.exists():
            return int(dict(line.split() for line in stat.read_text().splitlines())["usage_usec"]) / 1e6
    return None


def unix_user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def work(hub: hubdriver.Hub, name: str, solution: dict) -> dict:
    started = time.monotonic()
    lesson = json.loads(json.dumps(hub.contents(name, LESSON)["content"]))
    ran = hub.run(name, LESSON, [cell(lesson, "lang-pt"), cell(lesson, "start-stack")])
    lesson_s = time.monotonic() - started
    notebook = hub.contents(name, EXERCISES)["content"]
    for each in notebook["cells"]:
        if each["metadata"].get("celerylab", {}).get("id") == ANSWER:
            each["source"] = cell(solution, ANSWER)
    hub.contents(name, EXERCISES, {"type": "notebook", "format": "json", "content": notebook})
    checked = hub.run(name, EXERCISES, [cell(notebook, "lang-pt"), cell(notebook, ANSWER), cell(notebook, CHECK)])
    return {"lesson_errors": [each["error"] for each in ran if each["error"]], "lesson_s": round(lesson_s, 1),
            "check_passed": "✅" in checked[-1]["text"], "total_s": round(time.monotonic() - started, 1)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--learners", type=int, default=3)
    args = parser.parse_args()
    reason = hubdriver.why_not()
    if reason:
        print(reason, file=sys.stderr)
        return 2
    solution = json.loads((REPO / "solutions" / "pt" / "01_retries.ipynb").read_text())
    state = Path(tempfile.mkdtemp(prefix="celerylab-hub-bench-"))
    hub = hubdriver.Hub(state)
    result: dict = {"cores": psutil.cpu_count(), "mem_total_gib": round(psutil.virtual_memory().total / 2**30, 1)}
    try:
        hub.start()
        result["hub_start_s"] = round(hub.started_in, 1)
        result["hub_pss_mib"] = round(sum(p.memory_full_info().pss for p in psutil.Process(hub.process.pid).children(
            recursive=True) + [psutil.Process(hub.process.pid)]) / 2**20)
        names = [hub.add_learner(f"l{n}") for n in range(args.learners)]
        unix = {name: hubdriver.PREFIX + name for name in names}
        begun = time.monotonic()
        hub.start_servers(names, "pt")
        result["servers_ready_s"] = round(time.monotonic() - begun, 1)
        time.sleep(5)
        result["idle_pss_mib"] = {name: round(pss_mib(unix[name])) for name in names}
        cpu_before = {name: cpu_seconds(unix[name]) for name in names}
        peaks = {name: 0.0 for name in names}
        done = threading.Event()

        def sample():
            while not done.is_set():
                for name in names:
                    peaks[name] = max(peaks[name], pss_mib(unix[name]))
                done.wait(1.0)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        begun = time.monotonic()
        with ThreadPoolExecutor(len(names)) as pool:
            runs = dict(zip(names, pool.map(lambda name: work(hub, name, solution), names)))
        result["work_wall_s"] = round(time.monotonic() - begun, 1)
        result["running_pss_mib_after"] = {name: round(pss_mib(unix[name])) for name in names}
        done.set()
        sampler.join()
        result["peak_pss_mib"] = {name: round(value) for name, value in peaks.items()}
        result["cpu_s_running"] = {name: round((cpu_seconds(unix[name]) or 0) - (cpu_before[name] or 0), 1)
                                   for name in names}
        result["runs"] = runs
        begun = time.monotonic()
        for name in names:
            hub.stop_server(name)
        result["stop_s"] = round(time.monotonic() - begun, 1)
        result["left_processes"] = {name: hubdriver.processes_of(unix[name]) for name in names}
    finally:
        hub.stop()
    result["left_after_hub_stop"] = {name: hubdriver.processes_of(hubdriver.PREFIX + name) for name in hub.learners}
    result["hub_left_behind"] = hub.left_behind
    result["unix_users_left"] = [name for name in hub.learners if unix_user_exists(hubdriver.PREFIX + name)]
    result["load_average_1_5_15"] = [round(value, 1) for value in psutil.getloadavg()]
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
