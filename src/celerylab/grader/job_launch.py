"""Starting one attempt of a grading job: its folder and users, its environment, its command line (the launcher,
bwrap, the job), the pipe its records come back on; and removing what it left.

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
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import psutil

from celerylab.checks.learner import GRADING_ENV
from celerylab.course import LESSONS_ENV, Course
from celerylab.grader.sandbox import bwrap, identities, job_cgroup
from celerylab.grader.sandbox.attempt import Attempt
from celerylab.grader.sandbox.confine import JOB_MEMORY
from celerylab.grader.sandbox.processes import JOB_UIDS
from celerylab.grader.sandbox.watchdog import Watchdog
from celerylab.grader.spec import JobSpec
from celerylab.stack import packaged_postgres
from celerylab.stack.errors import StackError

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


def read_results(stream, records: list[dict], seen=None) -> None:
    """JSON lines from the job's pipe until every holder closed it; anything else is ignored. `seen` is told
    of each record as it arrives (the watchdog)."""
    with stream:
        for line in stream:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                records.append(record)
                if seen is not None:
                    seen(record)


def command(spec: JobSpec, attempt: Attempt, spec_path: Path, writing: int, over: dict[str, str]) -> list[str]:
    """The job's command line: confined, the launcher (cgroup, rlimits) then bwrap then the job; else the job alone."""
    job = [sys.executable, "-P", "-m", "celerylab.grader.job", str(spec_path), str(writing)]
    if not spec.confine:
        return job
    lessons = Course.at(spec.root).lessons_dir
    hide = [*spec.hide, *(str(Path(path).parent / "__pycache__") for path in over)]
    env, privileged = job_env(spec.root, attempt.home), os.geteuid() == 0
    if privileged and spec.uid is not None:  # the job's users have names (PostgreSQL's initdb looks its user up)
        over = {**over, **identities.files(attempt.own.parent, attempt.own.name, int(spec.uid), spec.service_uid,
                                           attempt.home)}
    binds = database_cache(env) if privileged else {}
    sandbox = bwrap.command(attempt.own, spec_path, lessons, hide, over, env, privileged=privileged, binds=binds)
    memory = int(spec.memory_total or JOB_MEMORY)
    return [sys.executable, "-P", "-m", "celerylab.grader.sandbox.launch", str(memory), str(spec.cpu_seconds),
            "--", *sandbox, *job]


JOB_POSTGRES_CACHE = "/var/cache/celerylab-job/postgres"  # in the sandbox: the packaged PostgreSQL's template


def database_cache(env: dict[str, str]) -> dict[str, str]:
    """As root: the packaged PostgreSQL's template, made here (outside the sandbox, once) and shown read-only to
    the job as its cache, so a job's stack copies it instead of running initdb ($CELERYLAB_POSTGRES_CACHE).
    {folder in the sandbox: its source}; none when there is no packaged server (or it cannot be made here:
    the job then makes its own, in its home, and the probe says when it cannot)."""
    try:
        shared = packaged_postgres.shared_template()
    except (OSError, StackError):
        return {}
    if shared is None:
        return {}
    env[packaged_postgres.CACHE_ENV] = JOB_POSTGRES_CACHE
    return {str(Path(JOB_POSTGRES_CACHE) / shared.parent.name): str(shared)}


def launch(spec: JobSpec, folder: Path, attempt: Attempt, number: int, budget: float,
           over: dict[str, str], end: float | None = None) -> list[dict]:
    """Run the job once; its records come over a pipe only the job process holds (see job.py).

    A watchdog here, outside the sandbox, kills the whole attempt when a step of the job outlasts its time or
    the job's `end` (monotonic; default: `budget` from now) passes; the records then end with
    ``{"kind": "deadline", "phase": ...}``."""
    spec = replace(spec, cpu_seconds=budget, workdir=str(attempt.work))
    spec_path = folder / f"spec{number}.json"
    spec_path.write_text(json.dumps(spec.to_record()), encoding="utf-8")
    spec_path.chmod(0o644)
    reading, writing = os.pipe()
    records: list[dict] = []
    watchdog = Watchdog(spec.execute and not spec.probe, spec.notebook_timeout, spec.check_timeout,
                        end if end is not None else time.monotonic() + budget)
    reader = threading.Thread(target=read_results, args=(os.fdopen(reading, encoding="utf-8", errors="replace"),
                                                          records, watchdog.seen), daemon=True)
    with (folder / f"job{number}.log").open("w") as log:
        try:
            popen = subprocess.Popen(command(spec, attempt, spec_path, writing, over), cwd=attempt.own,
                                     env=job_env(spec.root, attempt.home), stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True, pass_fds=(writing,))
        finally:
            os.close(writing)
        reader.start()
        ended = False
        try:
            ended = watchdog.wait(popen)
        finally:
            kill_tree(popen)
            job_cgroup.release(popen.pid)
    reader.join(timeout=10)
    return list(records) + ([] if ended else [{"kind": "deadline", "phase": watchdog.phase}])


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


def remove(folder: Path, uid: int | None) -> None:
    """Remove a job's folder: what learner code wrote is removed by ``rm`` (it handles a tree deeper than PATH_MAX,
    where shutil.rmtree recurses past Python's limit) as the job's own user when it has one, never walked by
    root; then this process removes its own, shallow folders."""
    as_job: dict[str, Any] = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
    for work in folder.glob("attempt*"):
        subprocess.run(["rm", "-rf", "--", *map(str, work.iterdir())], **as_job, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=600)
    shutil.rmtree(folder, ignore_errors=True)
