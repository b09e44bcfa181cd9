"""Supervising one grading job: its own process tree, a hard time budget, resumed after a crash.

The job process learns its course from the spec (``JobSpec.root``). The learner's kernel it starts
learns it from the one environment variable that carries the course across a process boundary,
``$CELERYLAB_COURSE_ROOT`` (`job_env`), read by that kernel's ``check()``/``hint()`` (`Course.of_process`).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import secrets
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

import psutil

from celerylab.grader.sandbox import attempt, bwrap, job_cgroup
from celerylab.grader.sandbox.attempt import Attempt
from celerylab.grader.sandbox.confine import JOB_MEMORY, failed_parts
from celerylab.grader.sandbox.processes import JOB_UIDS
from celerylab.checks.learner import GRADING_ENV
from celerylab.checks.verdict import Verdict
from celerylab.course import LESSONS_ENV, Course
from celerylab.grader.spec import JobResult, JobSpec, course_root

LOG_KEPT = 64 * 1024  # of a failed job's log, the end kept for the instructor
PROBE_SECONDS = 120
# All of the grader's environment a job gets (no credential, no broker URL, no setting of a parent stack)
PASSED_ENV = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "PYTHONPATH", "CELERYLAB_LANG")


def job_env(root: str | None, home: Path) -> dict[str, str]:
    """The job's environment, an allowlist: grading mode, a throwaway progress home, the locale and import path,
    and the course's lessons folder when not the package's (for the kernel the job starts: it inherits this)."""
    env = {name: os.environ[name] for name in PASSED_ENV if name in os.environ}
    env.update({GRADING_ENV: "1", "CELERYLAB_HOME": str(home), "PYTHONUNBUFFERED": "1", "HOME": str(home)})
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


def command(spec: JobSpec, attempt: Attempt, spec_path: Path, writing: int, over: dict[str, str]) -> list[str]:
    """The job's command line: confined, the launcher (cgroup, rlimits) then bwrap then the job; else the job alone."""
    job = [sys.executable, "-P", "-m", "celerylab.grader.job", str(spec_path), str(writing)]
    if not spec.confine:
        return job
    lessons = Course.at(spec.root).lessons_dir
    hide = [*spec.hide, *(str(Path(path).parent / "__pycache__") for path in over)]
    sandbox = bwrap.command(attempt.own, spec_path, lessons, hide, over, job_env(spec.root, attempt.home),
                            privileged=os.geteuid() == 0)
    memory = int(spec.memory_total or JOB_MEMORY)
    return [sys.executable, "-P", "-m", "celerylab.grader.sandbox.launch", str(memory), str(spec.cpu_seconds),
            "--", *sandbox, *job]


def launch(spec: JobSpec, folder: Path, attempt: Attempt, number: int, budget: float,
           over: dict[str, str]) -> list[dict]:
    """Run the job once; its records come over a pipe only the job process holds (see job.py)."""
    spec = replace(spec, cpu_seconds=budget, workdir=str(attempt.work))
    spec_path = folder / f"spec{number}.json"
    spec_path.write_text(json.dumps(spec.to_record()), encoding="utf-8")
    spec_path.chmod(0o644)
    reading, writing = os.pipe()
    records: list[dict] = []
    reader = threading.Thread(target=read_results, args=(os.fdopen(reading, encoding="utf-8", errors="replace"),
                                                          records), daemon=True)
    with (folder / f"job{number}.log").open("w") as log:
        try:
            popen = subprocess.Popen(command(spec, attempt, spec_path, writing, over), cwd=attempt.own,
                                     env=job_env(spec.root, attempt.home), stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True, pass_fds=(writing,))
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


SHARED_MEMORY = Path("/dev/shm")


def job_folder() -> Path:
    """A private folder for one job. As root, in shared memory (a tmpfs): what the job writes there is charged to
    its memory cgroup, so it cannot fill a disk (the gradebook's) nor pass its cap."""
    place = SHARED_MEMORY if os.geteuid() == 0 and os.access(SHARED_MEMORY, os.W_OK | os.X_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="celerylab-grade-", dir=place))
    folder.chmod(0o711)  # the job's own user may reach its attempt's folders, never list or write this one
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


def remove(folder: Path, uid: int | None) -> None:
    """Remove a job's folder: what learner code wrote is removed by the job's own user (``rm`` handles a tree
    deeper than PATH_MAX), never walked by root; root then removes its own, shallow folders."""
    if uid is not None:
        for work in folder.glob("attempt*"):
            subprocess.run(["rm", "-rf", "--", *map(str, work.iterdir())], user=uid, group=uid, extra_groups=[],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False, timeout=600)
    shutil.rmtree(folder, ignore_errors=True)


def probe(course: Course) -> str | None:
    """Start one confined job that only imports what grading needs and reads `course`: None when it can,
    else its log."""
    folder = job_folder()
    uids = job_uids() if os.geteuid() == 0 else {}
    try:
        spec = JobSpec([], root=course_root(course), probe=True, **uids)
        records = launch(spec, folder, attempt.fresh(folder, 0, uids.get("uid")), 0, PROBE_SECONDS, {})
        return None if any(record.get("kind") == "probe" for record in records) else logs(folder)
    finally:
        remove(folder, uids.get("uid"))


def answers_and_checks(job: JobSpec) -> tuple[list[str], list[Path]]:
    """The answer modules of the job's exercises and their checks' files (an unknown exercise: none)."""
    course, modules, checks = Course.at(job.root), [], []
    for exercise in job.exercises:
        try:
            info = course.find_exercise(exercise)
        except Exception:  # the job reports it as this exercise's grader error
            continue
        modules.append(info.module)
        checks.append(Path(info.checks_path))
    return modules, [path for path in checks if path.is_file()]


def run_job(job: JobSpec) -> JobResult:
    """Grade one prepared submission: the execution notes, a verdict per exercise, the confinement given.

    Each attempt runs in fresh folders (sandbox/attempt.py). An exercise whose check never started (the job
    died first: the grader's fault, not the learner's) is a grader failure, and so is every exercise of a
    confined job whose sandbox did not fully hold (fail closed: confine.failed_parts); the jobs' log comes
    back with the result.
    """
    folder = job_folder()
    if job.confine and os.geteuid() == 0 and not job.uid:
        job = replace(job, **job_uids())
    uid = job.uid if job.confine else None
    modules, checks = answers_and_checks(job)
    over = attempt.private_checks(folder, checks) if job.confine else {}
    pending, verdicts, notes, confinement, previous = list(job.exercises), {}, None, None, None
    try:
        for number in range(len(pending) + 1):
            execute = notes is None and number == 0
            current = attempt.fresh(folder, number, uid)
            if previous is not None:
                attempt.carry_answers(previous, current, modules, uid)
            spec = replace(job, execute=execute, exercises=pending)
            budget = (job.notebook_timeout + 60 if execute else 0) + job.check_timeout * max(1, len(pending))
            records = launch(spec, folder, current, number, budget, over)
            confinement = next((record for record in records if record.get("kind") == "confinement"), None) \
                if job.confine else UNSAFE
            refused = failed_parts(confinement) if job.confine else []
            if refused:  # no verdict of a job whose sandbox did not hold counts
                why = "the sandbox did not hold: " + ", ".join(refused)
                verdicts.update({exercise: Verdict.grader_failure(exercise, why) for exercise in pending})
                pending = []
                break
            notes, started, began = read_attempt(records, pending, verdicts, notes)
            if execute and notes is None:
                notes = [{"kind": "execution_crashed", "cell": None}]
            if started in pending and started not in verdicts:
                verdicts[started] = Verdict.lost(started)
            pending = [exercise for exercise in pending if exercise not in verdicts]
            previous = current
            if not pending or (not began and not execute):  # no check could start: another try cannot help
                break
        for exercise in pending:
            verdicts[exercise] = Verdict.grader_failure(exercise, "the job ended before its check started")
        failed = any(verdict.grader_error for verdict in verdicts.values())
        return JobResult(notes or [], verdicts, confinement, logs(folder) if failed else None)
    finally:
        remove(folder, uid)


UNSAFE = {"kind": "confinement", "given": [], "missing": ["all (--unsafe-no-sandbox)"], "unsafe": True}


def read_attempt(records: list[dict], pending: list[str], verdicts: dict, notes):
    """One attempt's records: the execution notes, the check that started last without a verdict, whether any began."""
    started, began = None, False
    for record in records:
        if record.get("kind") == "execution":
            notes = record.get("notes", [])
        elif record.get("kind") == "start":
            started, began = record.get("exercise"), True
        elif record.get("kind") == "verdict" and record.get("exercise") in pending:
            verdicts[record["exercise"]] = Verdict.from_record(record.get("verdict"), record["exercise"])
            started = None
    return notes, started, began
