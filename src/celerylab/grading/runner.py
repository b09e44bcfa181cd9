"""Running one grading job in its own process tree with a hard time budget, resuming after a crash."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil

from celerylab.grading.learner import GRADING_ENV
from celerylab.grading.verdicts import JobVerdict
from celerylab.stack import appconfig

STACK_ENV = (appconfig.BROKER_ENV, appconfig.NAMESPACE_ENV, appconfig.SETTINGS_ENV)


def job_env(root: str | None, home: Path) -> dict[str, str]:
    """The job's environment: grading mode, a throwaway progress home, none of a parent stack's settings."""
    env = {k: v for k, v in os.environ.items() if k not in STACK_ENV}
    env.update({GRADING_ENV: "1", "CELERYLAB_HOME": str(home), "PYTHONUNBUFFERED": "1"})
    if root:
        env["CELERYLAB_COURSE_ROOT"] = str(root)
    return env


def kill_tree(popen: subprocess.Popen) -> None:
    try:
        strays = psutil.Process(popen.pid).children(recursive=True)
    except psutil.Error:
        strays = []
    for process in strays:
        try:
            process.kill()
        except psutil.Error:
            pass
    try:
        os.killpg(popen.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    popen.wait()


def read_results(path: Path) -> list[dict]:
    records = []
    if path.exists():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
    return records


def launch(spec: dict, folder: Path, attempt: int, budget: float) -> list[dict]:
    spec_path, results = folder / f"spec{attempt}.json", folder / f"results{attempt}.jsonl"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    with (folder / f"job{attempt}.log").open("w") as log:
        popen = subprocess.Popen([sys.executable, "-m", "celerylab.grading.job", str(spec_path), str(results)],
                                 cwd=spec["workdir"], env=job_env(spec.get("root"), folder / "home"),
                                 stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        try:
            popen.wait(timeout=budget)
        except subprocess.TimeoutExpired:
            pass
        finally:
            kill_tree(popen)
    return read_results(results)


def run_job(job: dict) -> dict:
    """Grade one prepared submission: {"execution": notes, "verdicts": {exercise: JobVerdict}}."""
    folder = Path(tempfile.mkdtemp(prefix="celerylab-grade-"))
    workdir = folder / "work"
    workdir.mkdir()
    pending, verdicts, notes = list(job["exercises"]), {}, None
    try:
        for attempt in range(len(pending) + 1):
            execute = notes is None and attempt == 0
            spec = {**job, "workdir": str(workdir), "execute": execute, "exercises": pending}
            budget = (job["notebook_timeout"] + 60 if execute else 0) + job["check_timeout"] * max(1, len(pending))
            started = None
            for record in launch(spec, folder, attempt, budget):
                if record.get("kind") == "execution":
                    notes = record.get("notes", [])
                elif record.get("kind") == "start":
                    started = record.get("exercise")
                elif record.get("kind") == "verdict" and record.get("exercise") in pending:
                    verdicts[record["exercise"]] = JobVerdict.from_record(record.get("verdict"), record["exercise"])
                    started = None
            if execute and notes is None:
                notes = [{"kind": "execution_crashed", "cell": None}]
            if started in pending and started not in verdicts:
                verdicts[started] = JobVerdict.lost(started)
            pending = [exercise for exercise in pending if exercise not in verdicts]
            if not pending:
                break
        for exercise in pending:
            verdicts[exercise] = JobVerdict.lost(exercise)
        return {"execution": notes or [], "verdicts": verdicts}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
