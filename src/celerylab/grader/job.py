"""One grading job, run as its own process: execute the restored notebook, then check from outside the kernel.

``python -P -m celerylab.grader.job SPEC.json FD``: SPEC holds the notebook, the work
folder, the exercises to check and the limits; each finished step is written to the pipe
FD as one JSON line, so a crash loses only the step it happened in. The pipe is the only
results channel: no file, and no other process (the kernel, the stacks) holds it.
It runs inside bubblewrap (grader/sandbox/bwrap.py); before any learner code runs it loads the checks,
becomes its own user and checks every part of its sandbox (grader/sandbox/confine.py), stopping if one fails.
The course is read once, from the spec (``root``), and handed to everything below.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from celerylab.grader import unused_imports
from celerylab.grader.sandbox.processes import become_subreaper, clear_job_user, kill_descendants
from celerylab.grader.spec import JobSpec

if TYPE_CHECKING:
    from celerylab.course import Course

unused_imports.refuse()  # before nbformat: jsonschema's format checkers, which grading never uses


def fingerprint() -> list:
    """Identities of what a verdict depends on in this process; any change means tampering."""
    from celerylab.checks import check_run, verdict

    return [id(x) for x in (check_run.CheckRun.expect, check_run.CheckRun.__init__, verdict.Verdict.passed,
                            verdict.Verdict.decided, verdict.Verdict.to_record, verdict.Criterion.__init__,
                            verdict.Criterion.to_record, check_run.run_check, check_run.load_checks,
                            json.dumps, append, Path.open)]


def append(results, record: dict) -> None:
    results.write(json.dumps(record, ensure_ascii=False) + "\n")
    results.flush()


def preload_checks(spec: JobSpec, course: Course) -> tuple[dict, list[str], set[str]]:
    """Look the exercises up and import their checks now (they are hidden from the learner's code afterwards):
    each exercise (or why it cannot be checked), their checks' files, to blank, and the exercises' module names
    (the only ones the job may import from the work folder)."""
    from celerylab.checks.registry import load_checks

    found, paths, modules = {}, [], set()
    for exercise_id in spec.exercises:
        try:
            info = found[exercise_id] = course.find_exercise(exercise_id)
            modules.add(info.module)
            load_checks(info)
            paths.append(str(info.checks_path))
        except Exception as error:  # the lookup failing is this exercise's grader error; a load, run_check's
            found.setdefault(exercise_id, f"{type(error).__name__}: {error}")
            continue
    return found, paths, modules


def own_folder(path: Path) -> None:
    """`path` as a real folder, whatever the learner's code of an earlier attempt left there (a symlink,
    dangling or not, a file): the job's set-up must not trip on it, nor follow it."""
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        path.unlink()
    path.mkdir(parents=True, exist_ok=True)


def confined_env(home: Path) -> None:
    """Everything the kernel and the stacks write goes to the job's own home; no machine broker (no network)."""
    own_folder(home)
    for folder in ("ipython", "runtime"):
        own_folder(home / folder)
    os.environ.update({"HOME": str(home), "USER": "celerylab-job", "IPYTHONDIR": str(home / "ipython"),
                       "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "MPLCONFIGDIR": str(home)})
    os.environ.pop("CELERYLAB_BROKER_URL", None)


# What the job imports once confined (as its own user, in its own mount namespace): if any of these
# cannot be imported there, no submission can be graded on this machine (grader.probe says so).
PROBED = ("celerylab.grader.sandbox.execute", "celerylab.checks.check_run", "celerylab.stack.stack", "nbclient",
          "ipykernel.kernelapp", "celery.bin.worker")


def probe(spec: JobSpec, results, course: Course, found: dict) -> None:
    """Import what a job needs, read the course and start (then stop) the database a stack starts, as a real job
    would once confined; report on the pipe (`database`: why the database could not start, else None)."""
    import importlib

    for name in PROBED:
        importlib.import_module(name)
    from celerylab.stack.errors import StackError
    from celerylab.stack.packaged_postgres import PrivatePostgres, binaries

    database = None
    if binaries() is not None:
        try:
            PrivatePostgres.start().stop()
        except StackError as error:
            database = str(error)
    append(results, {"kind": "probe", "lessons": len(course.lesson_names()), "database": database})


def run(spec: JobSpec, results, course: Course, found: dict) -> None:
    """Execute the notebook (first attempt), then check each exercise `found` (an Exercise, or why not)."""
    workdir = Path(spec.workdir)
    if spec.execute:
        import nbformat

        from celerylab.grader.sandbox.execute import execute

        notebook = nbformat.reads(json.dumps(spec.notebook), as_version=4)
        # The checks' imports (Celery, Redis, the stack) wait until the notebook has run: made in a thread during
        # it, they left this process the largest of the job, and a learner filling the memory cap got it killed by
        # the OOM killer instead of their kernel (test_attacks: a job filling its folder)
        notes = execute(notebook, workdir, spec.cell_timeout, spec.notebook_timeout, spec.output_limit)
        strays = clear_job_user()
        if strays:
            notes.append({"kind": "strays", "cell": None, "count": str(strays)})
        append(results, {"kind": "execution", "notes": notes})
    from celerylab.checks.check_run import run_check
    from celerylab.checks.verdict import Verdict
    from celerylab.grader import lone_worker

    lone_worker.install()
    before = fingerprint()
    for exercise_id in spec.exercises:
        append(results, {"kind": "start", "exercise": exercise_id})
        info = found[exercise_id]
        outcome = run_check(info, workdir, include_hidden=True) if not isinstance(info, str) else \
            Verdict(exercise_id, grader_error=info)
        clear_job_user()
        tampered = fingerprint() != before  # the learner's module patched the checker while imported
        if tampered:
            record = Verdict(exercise_id, tampered=True).to_record()
        else:
            try:
                record = {**outcome.to_record(), "exercise": exercise_id}
            except Exception as error:  # criteria the learner's code made unprintable
                record = Verdict(exercise_id, error=f"{type(error).__name__}: {error}").to_record()
        append(results, {"kind": "verdict", "exercise": exercise_id, "verdict": record})
        if tampered:  # nothing in this process can be trusted now: the supervisor resumes in a fresh one
            os._exit(0)


def main(argv: list[str] | None = None) -> int:
    spec_path, channel = (argv if argv is not None else sys.argv[1:])[:2]
    become_subreaper()
    os.set_inheritable(int(channel), False)
    results = os.fdopen(int(channel), "w", encoding="utf-8")
    spec = JobSpec.from_record(json.loads(Path(spec_path).read_text(encoding="utf-8")))
    from celerylab.course import Course

    course = Course.at(spec.root)  # this process's one course: the spec says which
    workdir, home = Path(spec.workdir), Path(os.environ.get("CELERYLAB_HOME") or Path(spec_path).parent / "home")
    found, _, modules = preload_checks(spec, course)  # as root, before the job's user (which cannot read them)
    given = []
    if spec.confine:
        from celerylab.grader.sandbox.confine import confine, failed_parts

        report = confine(spec)
        given = report["given"]
        append(results, {"kind": "confinement", **report})
        if failed_parts(report):  # fail closed: no learner code runs in a sandbox that does not hold
            return 0
    confined_env(home)  # as the job's user: its folders are the job's own
    from celerylab.grader.sandbox import import_guard

    import_guard.install([workdir, home], modules, by_access="user" in given)
    try:
        (probe if spec.probe else run)(spec, results, course, found)
    finally:
        kill_descendants()
    return 0


def finish(code: int) -> None:
    """End the job process now: its records are on the pipe and its descendants killed (main's `finally`), so
    nothing is left to the interpreter's shutdown, which tears down every module the job imported (0.2 s on a
    quiet machine, 1.3 s under load)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    finish(main())
