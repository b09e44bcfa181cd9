"""Supervising one grading job: its own process tree, a hard time budget, resumed after a crash.

The job process learns its course from the spec (``JobSpec.root``). The learner's kernel it starts
learns it from the one environment variable that carries the course across a process boundary,
``$CELERYLAB_COURSE_ROOT`` (`job_env`), read by that kernel's ``check()``/``hint()`` (`Course.of_process`).
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

import psutil

from celerylab.checks.learner import GRADING_ENV
from celerylab.checks.verdict import Verdict
from celerylab.course import LESSONS_ENV, Course
from celerylab.grader.sandbox import job_cgroup
from celerylab.grader.sandbox.processes import JOB_UIDS
from celerylab.grader.spec import JobResult, JobSpec, course_root
from celerylab.stack import appconfig

STACK_ENV = (appconfig.BROKER_ENV, appconfig.NAMESPACE_ENV, appconfig.SETTINGS_ENV)
LOG_KEPT = 64 * 1024  # of a failed job's log, the end kept for the instructor
PROBE_SECONDS = 120


def job_env(root: str | None, home: Path) -> dict[str, str]:
    """The job's environment: grading mode, a throwaway progress home, none of a parent stack's settings, and
    the course's lessons folder when not the package's (for the kernel the job starts: it inherits this)."""
    env = {k: v for k, v in os.environ.items() if k not in STACK_ENV and k != LESSONS_ENV}
    env.update({GRADING_ENV: "1", "CELERYLAB_HOME": str(home), "PYTHONUNBUFFERED": "1"})
    if root:
        env[LESSONS_ENV] = str(root)
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


def read_results(stream, records: list[dict]) -> None:
    """JSON lines from the job's pipe until every holder closed it; anything else is ignored."""
    with stream:
        for line in stream:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                records.append(record)


def launch(spec: JobSpec, folder: Path, attempt: int, budget: float) -> list[dict]:
    """Run the job once; its records come over a pipe only the job process holds (see job.py)."""
    spec_path = folder / f"spec{attempt}.json"
    spec_path.write_text(json.dumps(replace(spec, cpu_seconds=budget).to_record()), encoding="utf-8")
    spec_path.chmod(0o644)
    reading, writing = os.pipe()
    records: list[dict] = []
    reader = threading.Thread(target=read_results, args=(os.fdopen(reading, encoding="utf-8", errors="replace"),
                                                          records), daemon=True)
    with (folder / f"job{attempt}.log").open("w") as log:
        try:
            popen = subprocess.Popen([sys.executable, "-P", "-m", "celerylab.grader.job", str(spec_path),
                                      str(writing)], cwd=folder, env=job_env(spec.root, folder / "home"),
                                     stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True, pass_fds=(writing,))
        finally:
            os.close(writing)
        reader.start()
        try:
            popen.wait(timeout=budget)
        except subprocess.TimeoutExpired:
            pass
        finally:
            kill_tree(popen)
            job_cgroup.release(popen.pid)
    reader.join(timeout=10)
    return list(records)


def job_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="celerylab-grade-"))
    folder.chmod(0o711)  # the job's own user may reach its work folder, never list or write this one
    (folder / "work").mkdir()
    return folder


def job_uids() -> dict:
    """A user for the learner's code and another for the stack's services (the fakes), both of this job only."""
    uid = JOB_UIDS + 2 * secrets.randbelow(500_000)
    return {"uid": uid, "service_uid": uid + 1}


def logs(folder: Path) -> str:
    """The end of every attempt's log, for the instructor (a grader failure keeps it beside the gradebook)."""
    text = "".join(f"--- {path.name}\n" + path.read_text(encoding="utf-8", errors="replace")
                   for path in sorted(folder.glob("job*.log")))
    return text[-LOG_KEPT:]


def probe(course: Course) -> str | None:
    """Start one confined job that only imports what grading needs and reads `course`: None when it can,
    else its log."""
    folder = job_folder()
    try:
        spec = JobSpec([], root=course_root(course), workdir=str(folder / "work"), probe=True, **job_uids())
        records = launch(spec, folder, 0, PROBE_SECONDS)
        return None if any(record.get("kind") == "probe" for record in records) else logs(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_job(job: JobSpec) -> JobResult:
    """Grade one prepared submission: the execution notes, a verdict per exercise, the confinement given.

    An exercise whose check never started (the job died first: the grader's fault, not the learner's) is a
    grader failure, and the jobs' log comes back with the result.
    """
    folder = job_folder()
    workdir = folder / "work"
    job = job if job.uid else replace(job, **job_uids())
    pending, verdicts, notes, confinement = list(job.exercises), {}, None, None
    try:
        for attempt in range(len(pending) + 1):
            execute = notes is None and attempt == 0
            spec = replace(job, workdir=str(workdir), execute=execute, exercises=pending)
            budget = (job.notebook_timeout + 60 if execute else 0) + job.check_timeout * max(1, len(pending))
            started, began = None, False
            for record in launch(spec, folder, attempt, budget):
                if record.get("kind") == "confinement":
                    confinement = record
                elif record.get("kind") == "execution":
                    notes = record.get("notes", [])
                elif record.get("kind") == "start":
                    started, began = record.get("exercise"), True
                elif record.get("kind") == "verdict" and record.get("exercise") in pending:
                    verdicts[record["exercise"]] = Verdict.from_record(record.get("verdict"), record["exercise"])
                    started = None
            if execute and notes is None:
                notes = [{"kind": "execution_crashed", "cell": None}]
            if started in pending and started not in verdicts:
                verdicts[started] = Verdict.lost(started)
            pending = [exercise for exercise in pending if exercise not in verdicts]
            if not pending or (not began and not execute):  # no check could start: another try cannot help
                break
        for exercise in pending:
            verdicts[exercise] = Verdict.grader_failure(exercise, "the job ended before its check started")
        failed = any(verdict.grader_error for verdict in verdicts.values())
        return JobResult(notes or [], verdicts, confinement, logs(folder) if failed else None)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
